package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Range semantics of the in-memory index, checked against a brute-force filter. */
class EventIndexTest {
    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final LocalDateTime T0 = LocalDateTime.of(2021, 6, 1, 0, 0);

    private static Event ev(String plan, LocalDateTime start, LocalDateTime end) {
        return Event.of("b", plan, "t" + plan, start, end, 10, 20);
    }

    @Test
    void boundsAreInclusiveAndOpenWhenMissing() {
        Event a = ev("a", T0, T0.plusHours(2));
        Event b = ev("b", T0.plusHours(1), T0.plusHours(3));
        Event c = ev("c", T0.plusHours(5), T0.plusHours(6));
        EventIndex index = EventIndex.of(1, List.of(c, b, a));

        assertThat(index.search(null, null)).containsExactly(a, b, c);
        assertThat(index.search(T0, T0.plusHours(2))).containsExactly(a);
        assertThat(index.search(T0, T0.plusHours(3))).containsExactly(a, b);
        assertThat(index.search(T0.plusSeconds(1), null)).containsExactly(b, c);
        assertThat(index.search(null, T0.plusHours(6).minusSeconds(1))).containsExactly(a, b);
        assertThat(index.search(T0.plusHours(6), null)).isEmpty();
        assertThat(index.search(T0.plusHours(3), T0.plusHours(4))).isEmpty();
        // a fractional lower bound never admits an event starting before it
        assertThat(index.search(T0.plusNanos(1), null)).containsExactly(b, c);
    }

    @Test
    void sameStartIsOrderedById() {
        Event x = ev("x", T0, T0.plusHours(1));
        Event y = ev("y", T0, T0.plusHours(1));
        Event z = ev("z", T0, T0.plusHours(1));
        List<Event> byId = new ArrayList<>(List.of(x, y, z));
        byId.sort(Comparator.comparing(e -> e.id().toString()));
        assertThat(EventIndex.of(1, List.of(z, x, y)).search(null, null)).containsExactlyElementsOf(byId);
    }

    @Test
    void matchesBruteForceOnRandomData() {
        Random rnd = new Random(42);
        List<Event> all = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            LocalDateTime s = T0.plusMinutes(rnd.nextInt(60 * 24 * 90));
            all.add(ev("p" + i, s, s.plusMinutes(rnd.nextInt(60 * 24 * 3))));
        }
        EventIndex index = EventIndex.of(1, all);
        for (int q = 0; q < 200; q++) {
            LocalDateTime from = rnd.nextInt(10) == 0 ? null : T0.plusMinutes(rnd.nextInt(60 * 24 * 90));
            LocalDateTime to = rnd.nextInt(10) == 0 ? null : T0.plusMinutes(rnd.nextInt(60 * 24 * 95));
            List<Event> expected = all.stream()
                    .filter(e -> from == null || !e.start().isBefore(from))
                    .filter(e -> to == null || !e.end().isAfter(to))
                    .sorted(Comparator.comparing(Event::start).thenComparing(e -> e.id().toString()))
                    .toList();
            assertThat(index.search(from, to)).containsExactlyElementsOf(expected);
            String json = new String(index.searchJson(from, to), StandardCharsets.UTF_8);
            List<String> ids = ID.matcher(json).results().map(m -> m.group(1)).toList();
            assertThat(ids).containsExactlyElementsOf(expected.stream().map(e -> e.id().toString()).toList());
        }
    }

    @Test
    void withReplacesChangedEventsAndKeepsTheRest() {
        Event a = ev("a", T0, T0.plusHours(1));
        Event b = ev("b", T0.plusHours(1), T0.plusHours(2));
        EventIndex v1 = EventIndex.of(1, List.of(a, b));
        Event a2 = Event.of("b", "a", "renamed", T0.plusDays(1), T0.plusDays(1).plusHours(1), 5, 50);
        Event c = ev("c", T0.plusHours(3), T0.plusHours(4));
        assertThat(v1.changes(List.of(a, b))).isEmpty();
        assertThat(v1.changes(List.of(a2, b, c))).containsExactly(a2, c);

        EventIndex v2 = v1.with(2, List.of(a2, c));
        assertThat(v2.version()).isEqualTo(2);
        assertThat(v2.search(null, null)).containsExactly(b, c, a2);
        assertThat(v1.search(null, null)).containsExactly(a, b); // snapshots are immutable
    }
}
