package dev.brisk.events.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.events.Event;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.store.StoreException;
import dev.brisk.events.testing.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leader lock and the fence on a real PostgreSQL: one session holds it; a store without it cannot
 * commit; a leader whose session the database ended cannot commit either (not even through the fresh
 * session the store opens), and the lock is free for another. Every commit takes the next change
 * number, and the changes after a number are exactly the rows those commits wrote.
 */
class LeaderLockTest {
    private String url;

    @BeforeEach
    void database() {
        TestPostgres.assumeAvailable();
        url = TestPostgres.freshDatabase();
    }

    private static Event event(String plan, double price) {
        return Event.of("1", plan, "Title " + plan, LocalDateTime.parse("2021-06-01T20:00:00"),
                LocalDateTime.parse("2021-06-01T22:00:00"), price, price);
    }

    @Test
    void onlyTheLockHolderCommitsAndAnEndedSessionLosesTheLock() throws Exception {
        try (EventStore a = EventStore.open(url); EventStore b = EventStore.open(url)) {
            assertThat(a.tryLead()).isTrue();
            assertThat(a.tryLead()).as("taking it again keeps it, once").isTrue();
            assertThat(b.tryLead()).isFalse();
            assertThat(a.leads()).isTrue();
            assertThat(b.leads()).isFalse();

            assertThat(a.upsert(List.of(event("p1", 10)), Instant.now())).isEqualTo(1);
            assertThatThrownBy(() -> b.upsert(List.of(event("p2", 20)), Instant.now()))
                    .isInstanceOf(EventStore.NotLeaderException.class).hasMessageContaining("leader lock");

            // the database ends the leader's session (as when its process dies or its network goes)
            try (Connection admin = DriverManager.getConnection(url); Statement s = admin.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + a.sessionPid() + ")");
            }
            // the old leader cannot commit: its session is gone, and the one its store opens next holds nothing
            assertThatThrownBy(() -> a.upsert(List.of(event("p3", 30)), Instant.now())).isInstanceOf(StoreException.class);
            assertThatThrownBy(() -> a.upsert(List.of(event("p3", 30)), Instant.now()))
                    .isInstanceOf(EventStore.NotLeaderException.class);
            assertThat(b.tryLead()).isTrue();
            assertThat(a.tryLead()).isFalse();
            assertThat(b.upsert(List.of(event("p2", 20)), Instant.now())).isEqualTo(2);

            EventStore.Snapshot all = b.snapshot();
            assertThat(all.sequence()).isEqualTo(2);
            assertThat(all.events()).extracting(Event::planId).containsExactlyInAnyOrder("p1", "p2");
        }
    }

    @Test
    void changesSinceANumberAreTheRowsOfTheCommitsAfterIt() {
        try (EventStore s = EventStore.open(url)) {
            assertThat(s.changesSince(0).sequence()).isZero();
            long first = s.upsert(List.of(event("p1", 10), event("p2", 20)), Instant.now());
            long second = s.upsert(List.of(event("p2", 25), event("p3", 30)), Instant.now());
            assertThat(second).isEqualTo(first + 1);
            assertThat(s.upsert(List.of(), Instant.now())).as("nothing to store: no commit, no number").isZero();

            EventStore.Changes after1 = s.changesSince(first);
            assertThat(after1.sequence()).isEqualTo(second);
            assertThat(after1.events()).extracting(Event::planId).containsExactlyInAnyOrder("p2", "p3");
            assertThat(after1.events()).filteredOn(e -> e.planId().equals("p2")).extracting(Event::minPrice).containsExactly(25.0);
            assertThat(after1.committedAtMs()).isPositive().isLessThanOrEqualTo(after1.readAtMs());
            assertThat(s.changesSince(second).events()).isEmpty();
            assertThat(s.changesSince(0).events()).hasSize(3);
        }
    }
}
