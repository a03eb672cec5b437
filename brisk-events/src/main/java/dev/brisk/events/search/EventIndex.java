package dev.brisk.events.search;

import dev.brisk.events.Event;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
 * <p>A range query finds the first event starting at or after the lower bound by binary search and
 * walks forward while events start at or before the upper bound (an event ending by the bound must
 * also start by it), so it costs O(log n + k) for k events starting in the window.
 */
public final class EventIndex {
    private static final Comparator<Event> ORDER =
            Comparator.comparing(Event::start).thenComparing(e -> e.id().toString());

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

    /** Events with {@code start >= from} and {@code end <= to}, sorted by start then id; a null bound is open. */
    public List<Event> search(LocalDateTime from, LocalDateTime to) {
        int[] picks = select(from, to);
        int n = picks[picks.length - 1];
        Event[] found = new Event[n];
        for (int i = 0; i < n; i++) {
            found[i] = events[picks[i]];
        }
        return List.of(found);
    }

    /** The JSON success body for {@link #search}. */
    public byte[] searchJson(LocalDateTime from, LocalDateTime to) {
        int[] picks = select(from, to);
        return SearchJson.events(json, picks, picks[picks.length - 1]);
    }

    /** Positions of matching events, in order; the last slot holds their count. */
    private int[] select(LocalDateTime from, LocalDateTime to) {
        // whole-second event times: start >= from means start >= from rounded up to a second
        int lo = from == null ? 0 : firstStartingAtOrAfter(key(from) + (from.getNano() > 0 ? 1 : 0));
        long hiKey = to == null ? Long.MAX_VALUE : key(to);
        int hi = to == null ? events.length : firstStartingAtOrAfter(hiKey == Long.MAX_VALUE ? hiKey : hiKey + 1);
        int[] picks = new int[Math.max(0, hi - lo) + 1];
        int n = 0;
        for (int i = lo; i < hi; i++) {
            if (ends[i] <= hiKey) {
                picks[n++] = i;
            }
        }
        picks[picks.length - 1] = n;
        return picks;
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
