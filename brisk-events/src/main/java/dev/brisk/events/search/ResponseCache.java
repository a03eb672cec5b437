package dev.brisk.events.search;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Rendered {@code /search} bodies per window, valid for one catalog version: a new version starts an
 * empty generation, so a poll that changed anything invalidates every entry at once. Bounded by entry
 * count and total bytes (of direct memory: cached bodies are {@linkplain SearchBody#kept() kept}
 * there); when full, an arbitrary entry is evicted (cheap, no lock on the read path).
 */
public final class ResponseCache {
    private record Generation(long version, ConcurrentHashMap<SearchQuery, SearchBody> entries, AtomicLong bytes) {
    }

    private final int maxEntries;
    private final long maxBytes;
    private volatile Generation generation = new Generation(-1, new ConcurrentHashMap<>(), new AtomicLong());
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** A cache of at most {@code maxEntries} bodies and {@code maxBytes} bytes; 0 entries disables it. */
    public ResponseCache(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The body for {@code query} at {@code version}, rendered by {@code render} on a miss. */
    public SearchBody get(long version, SearchQuery query, Supplier<SearchBody> render) {
        if (maxEntries <= 0) {
            misses.increment();
            return render.get();
        }
        Generation g = generation;
        if (g.version < version) {
            g = advance(g, version);
        }
        if (g.version != version) {
            // a reader still on an older snapshot: answer it, but never cache stale bytes
            misses.increment();
            return render.get();
        }
        SearchBody body = g.entries.get(query);
        if (body != null) {
            hits.increment();
            return body;
        }
        misses.increment();
        body = render.get();
        // budgeted for both forms (identity + at most as much gzip), so a later gzip() never overruns it
        long cost = 2L * body.length();
        if (cost <= maxBytes) {
            makeRoom(g, cost);
            SearchBody kept = body.kept();
            SearchBody raced = g.entries.putIfAbsent(query, kept);
            if (raced != null) {
                return raced;
            }
            g.bytes.addAndGet(cost);
            return kept;
        }
        return body;
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public int size() {
        return generation.entries.size();
    }

    private synchronized Generation advance(Generation seen, long version) {
        Generation g = generation;
        if (g == seen && g.version < version) {
            g = new Generation(version, new ConcurrentHashMap<>(), new AtomicLong());
            generation = g;
        }
        return g;
    }

    private void makeRoom(Generation g, long incoming) {
        Iterator<SearchQuery> keys = g.entries.keySet().iterator();
        while ((g.entries.size() >= maxEntries || g.bytes.get() + incoming > maxBytes) && keys.hasNext()) {
            SearchBody old = g.entries.remove(keys.next());
            if (old != null) {
                g.bytes.addAndGet(-2L * old.length());
            }
        }
    }
}
