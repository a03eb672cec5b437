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
            String json = new String(index.render(index.page(new SearchQuery(from, to, SearchQuery.MAX_LIMIT, null))),
                    StandardCharsets.UTF_8);
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

    @Test
    void pagesWalkTheWindowOnceInOrderWhateverTheLimit() {
        Random rnd = new Random(7);
        List<Event> all = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            // few distinct starts: many events share one, so pages often end inside a run of equal starts
            LocalDateTime s = T0.plusHours(rnd.nextInt(200));
            all.add(ev("p" + i, s, s.plusMinutes(rnd.nextInt(60 * 24))));
        }
        EventIndex index = EventIndex.of(1, all);
        for (int q = 0; q < 40; q++) {
            LocalDateTime from = rnd.nextInt(4) == 0 ? null : T0.plusHours(rnd.nextInt(100));
            LocalDateTime to = rnd.nextInt(4) == 0 ? null : T0.plusHours(100 + rnd.nextInt(150));
            int limit = 1 + rnd.nextInt(q % 2 == 0 ? 10 : 700);
            List<Event> walked = new ArrayList<>();
            SearchQuery query = new SearchQuery(from, to, limit, null);
            for (int pages = 0; ; pages++) {
                assertThat(pages).as("pages of %s", query).isLessThan(3_001);
                Page page = index.page(query);
                assertThat(page.count()).isLessThanOrEqualTo(limit);
                List<String> ids = ids(index, page);
                assertThat(ids).hasSize(page.count());
                for (String id : ids) {
                    walked.add(index.get(java.util.UUID.fromString(id)));
                }
                if (page.next() == null) {
                    break;
                }
                assertThat(page.count()).as("a page before the last is full").isEqualTo(limit);
                query = new SearchQuery(from, to, limit, Cursor.decode(page.next().encode()));
            }
            // against a brute-force filter, not the index's own unpaged search (which pages too)
            List<Event> expected = all.stream()
                    .filter(e -> from == null || !e.start().isBefore(from))
                    .filter(e -> to == null || !e.end().isAfter(to))
                    .sorted(Comparator.comparing(Event::start).thenComparing(e -> e.id().toString()))
                    .toList();
            assertThat(walked).containsExactlyElementsOf(expected);
        }
    }

    /** The ids of the page's events, read back from its rendered JSON. */
    private static List<String> ids(EventIndex index, Page page) {
        String json = new String(index.render(page), StandardCharsets.UTF_8);
        return ID.matcher(json).results().map(m -> m.group(1)).toList();
    }

    @Test
    void theNextLinkCarriesTheWindowLimitAndCursor() {
        Event a = ev("a", T0, T0.plusHours(1));
        Event b = ev("b", T0.plusHours(1), T0.plusHours(2));
        Event c = ev("c", T0.plusHours(2), T0.plusHours(3));
        EventIndex index = EventIndex.of(1, List.of(a, b, c));
        SearchQuery first = new SearchQuery(T0, T0.plusDays(1).plusNanos(5), 2, null);
        Page page = index.page(first);
        String json = new String(index.render(page), StandardCharsets.UTF_8);
        String cursor = page.next().encode();
        assertThat(json).endsWith("],\"next\":\"/search?starts_at=2021-06-01T00:00:00&ends_at=2021-06-02T00:00:00.000000005"
                + "&limit=2&cursor=" + cursor + "\"},\"error\":null}");
        assertThat(cursor).matches("[A-Za-z0-9_-]{" + Cursor.TEXT_LENGTH + "}");
        Page last = index.page(new SearchQuery(first.from(), first.to(), 2, Cursor.decode(cursor)));
        assertThat(last.count()).isEqualTo(1);
        assertThat(last.next()).isNull();
        assertThat(new String(index.render(last), StandardCharsets.UTF_8)).contains("\"id\":\"" + c.id() + "\"")
                .endsWith("],\"next\":null},\"error\":null}");
    }

    @Test
    void aPageStopsAtItsByteBoundButAlwaysHoldsOneEvent() {
        // titles so long that a few events fill a page's bytes long before its limit
        String title = "x".repeat((int) (Page.MAX_BYTES / 3));
        List<Event> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            all.add(Event.of("b", "p" + i, title, T0.plusHours(i), T0.plusHours(i + 1), 1, 2));
        }
        all.add(Event.of("b", "huge", "y".repeat((int) Page.MAX_BYTES + 10), T0.plusHours(20), T0.plusHours(21), 1, 2));
        EventIndex index = EventIndex.of(1, all);
        SearchQuery q = new SearchQuery(null, null, SearchQuery.MAX_LIMIT, null);
        List<Integer> counts = new ArrayList<>();
        while (true) {
            Page page = index.page(q);
            assertThat(page.bytes()).isLessThanOrEqualTo(page.count() == 1 ? Long.MAX_VALUE : Page.MAX_BYTES);
            counts.add(page.count());
            if (page.next() == null) {
                break;
            }
            q = new SearchQuery(null, null, SearchQuery.MAX_LIMIT, page.next());
        }
        assertThat(counts).containsExactly(2, 2, 2, 1, 1);
    }
}
