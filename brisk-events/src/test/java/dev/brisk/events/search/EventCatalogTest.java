package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalog's change numbers: a single instance publishes every commit; in cluster mode a commit is
 * published only right after the one before it (a gap is the follower's load to fill), and a load of
 * the commits after a number skips what the leader already published itself.
 */
class EventCatalogTest {
    private static final LocalDateTime T = LocalDateTime.parse("2021-06-01T20:00:00");

    private static Event event(String plan) {
        return Event.of("1", plan, "t", T, T.plusHours(1), 1, 1);
    }

    @Test
    void aSingleInstancePublishesEveryCommit() {
        EventCatalog c = new EventCatalog();
        c.load(List.of(event("a")), 3);
        assertThat(c.publish(List.of(event("b")), 5)).isTrue();
        assertThat(c.sequence()).isEqualTo(5);
        assertThat(c.current().size()).isEqualTo(2);
        assertThat(c.publish(List.of(), 0)).as("nothing committed").isTrue();
        assertThat(c.sequence()).isEqualTo(5);
    }

    @Test
    void inClusterModeAGapIsLeftToTheLoadAndWhatIsIncludedIsSkipped() {
        EventCatalog c = new EventCatalog();
        c.requireContiguous();
        c.load(List.of(event("a")), 3);
        long version = c.current().version();

        assertThat(c.publish(List.of(event("c")), 5)).as("commit 4 not seen yet").isFalse();
        assertThat(c.current().version()).isEqualTo(version);
        assertThat(c.sequence()).isEqualTo(3);

        c.catchUp(List.of(event("b"), event("c")), 5); // the follower's load of commits 4 and 5
        assertThat(c.sequence()).isEqualTo(5);
        assertThat(c.current().size()).isEqualTo(3);

        assertThat(c.publish(List.of(event("c")), 5)).as("already included").isTrue();
        long after = c.current().version();
        c.catchUp(List.of(event("c")), 4);
        assertThat(c.current().version()).as("an older load changes nothing").isEqualTo(after);
        assertThat(c.publish(List.of(event("d")), 6)).isTrue();
        assertThat(c.sequence()).isEqualTo(6);
        assertThat(c.current().size()).isEqualTo(4);
    }
}
