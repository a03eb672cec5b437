package dev.brisk.events.search;

import dev.brisk.events.Event;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An immutable snapshot of every stored event, sorted by start time then id, with each event's JSON
 * already rendered. Readers share it without locks; a poll builds the next one and publishes it
 * (see {@link EventCatalog}).
 *
 * <p>A page finds the first event starting at or after the lower bound (and after its cursor) by
 * binary search and walks forward while events start at or before the upper bound (an event ending by
 * the bound must also start by it) until the page is full, so it costs O(log n + k) for the k events
 * it walks over.
 */
public final class EventIndex {
    /**
     * Start, then id as two unsigned halves: the order of the ids' lower-case hex text (what the API
     * promises), without making that text; {@link Cursor} compares the same way.
     */
    private static final Comparator<Event> ORDER = Comparator.comparing(Event::start)
            .thenComparing((a, b) -> Long.compareUnsigned(a.id().getMostSignificantBits(), b.id().getMostSignificantBits()))
            .thenComparing((a, b) -> Long.compareUnsigned(a.id().getLeastSignificantBits(), b.id().getLeastSignificantBits()));

    private final long version;
    private final Event[] events;
    private final long[] starts;
    private final long[] ends;
    private final byte[][] json;
    private final Map<UUID, Event> byId;

    private EventIndex(long version, Event[] sorted, Map<UUID, Event> byId) {
        this.version = version;
        this.events = sorted;
        this.byId = byId;
        int n = sorted.length;
        this.starts = new long[n];
        this.ends = new long[n];
        this.json = new byte[n][];
        for (int i = 0; i < n; i++) {
            starts[i] = key(sorted[i].start());
            ends[i] = key(sorted[i].end());
            json[i] = SearchJson.event(sorted[i]);
        }
    }

    /** An index over {@code events} (one per id). */
    public static EventIndex of(long version, Collection<Event> events) {
        Map<UUID, Event> byId = new HashMap<>(Math.max(16, events.size() * 4 / 3 + 1));
        for (Event e : events) {
            byId.put(e.id(), e);
        }
        return build(version, byId);
    }

    /** The next snapshot: this one with {@code changed} events added or replaced. */
    public EventIndex with(long nextVersion, Collection<Event> changed) {
        Map<UUID, Event> next = new HashMap<>(byId);
        for (Event e : changed) {
            next.put(e.id(), e);
        }
        return build(nextVersion, next);
    }

    private static EventIndex build(long version, Map<UUID, Event> byId) {
        Event[] sorted = byId.values().toArray(new Event[0]);
        Arrays.sort(sorted, ORDER);
        return new EventIndex(version, sorted, Map.copyOf(byId));
    }

    /** Events whose values differ from (or are missing in) this snapshot. */
    public List<Event> changes(Collection<Event> seen) {
        return seen.stream().filter(e -> {
            Event old = byId.get(e.id());
            return old == null || !old.sameValues(e);
        }).toList();
    }

    /** The version this snapshot was published as; every new snapshot has a higher one. */
    public long version() {
        return version;
    }

    public int size() {
        return events.length;
    }

    public Event get(UUID id) {
        return byId.get(id);
    }

    /**
     * Every event with {@code start >= from} and {@code end <= to}, sorted by start then id; a null
     * bound is open. Unpaged: for tests and tools, not for requests.
     */
    public List<Event> search(LocalDateTime from, LocalDateTime to) {
        List<Event> found = new ArrayList<>();
        SearchQuery q = new SearchQuery(from, to, SearchQuery.MAX_LIMIT, null);
        while (true) {
            Page page = page(q);
            for (int i = 0; i < page.count(); i++) {
                found.add(events[page.position(i)]);
            }
            if (page.next() == null) {
                return List.copyOf(found);
            }
            q = new SearchQuery(from, to, SearchQuery.MAX_LIMIT, page.next());
        }
    }

    /**
     * The page {@code q} asks for: the events of its window after its cursor, in order, at most
     * {@code q.limit()} of them and no more than {@link Page#MAX_BYTES} of JSON (but always at least
     * one, so paging moves on). Costs O(log n) to find the first event, then a walk over the events
     * starting in the window until the page is full and one more match is seen (or the window ends).
     */
    public Page page(SearchQuery q) {
        LocalDateTime from = q.from();
        LocalDateTime to = q.to();
        // whole-second event times: start >= from means start >= from rounded up to a second
        int lo = from == null ? 0 : firstStartingAtOrAfter(key(from) + (from.getNano() > 0 ? 1 : 0));
        if (q.after() != null) {
            lo = Math.max(lo, firstAfter(q.after()));
        }
        long hiKey = to == null ? Long.MAX_VALUE : key(to);
        int hi = to == null ? events.length : firstStartingAtOrAfter(hiKey == Long.MAX_VALUE ? hiKey : hiKey + 1);
        int[] picks = new int[Math.min(Math.max(0, hi - lo), q.limit())];
        int n = 0;
        long bytes = 0;
        boolean more = false;
        for (int i = lo; i < hi; i++) {
            if (ends[i] <= hiKey) {
                if (n == picks.length || (n > 0 && bytes + json[i].length + 1 > Page.MAX_BYTES)) {
                    more = true;
                    break;
                }
                picks[n++] = i;
                bytes += json[i].length;
            }
        }
        Cursor next = null;
        if (more) {
            int last = picks[n - 1];
            next = Cursor.after(starts[last], events[last].id());
        }
        return new Page(q, picks, n, bytes + Math.max(0, n - 1), next);
    }

    /**
     * The JSON success body of {@code page}, which this snapshot made: the events and the link to the
     * next page, or null when this is the last.
     */
    public byte[] render(Page page) {
        String next = page.next() == null ? null : page.query().nextLink(page.next());
        return SearchJson.page(json, page, next);
    }

    /** The first position whose (start, id) comes after {@code c}. */
    private int firstAfter(Cursor c) {
        int lo = 0;
        int hi = starts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (c.compareEvent(starts[mid], events[mid].id()) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int firstStartingAtOrAfter(long key) {
        int lo = 0;
        int hi = starts.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Whole seconds on the local time line (the offset is only arithmetic: no zone is implied). */
    private static long key(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC);
    }
}
