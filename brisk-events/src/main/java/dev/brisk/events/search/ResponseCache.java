package dev.brisk.events.search;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Rendered {@code /search} bodies per page, valid for one catalog version: a new version starts an
 * empty generation, so a poll that changed anything invalidates every entry at once. Bounded by entry
 * count and total bytes; a body is budgeted at twice its length, room for its gzip form, which
 * {@link SearchBody} never keeps larger than the body. One body may take at most an eighth of the byte
 * bound, so a few wide pages cannot push out every narrow one; a larger one is answered but not kept.
 *
 * <p>A narrow body (up to {@link #DIRECT_MAX}) is {@linkplain SearchBody#kept() kept} in direct memory:
 * the loop writes it whole, many times, and a heap body would be copied to direct memory on every
 * write. A wide one stays on the heap: it is sent in heap pieces anyway, and direct memory is freed only
 * when the GC finds its buffer unreachable, so megabytes of wide pages churning through direct memory
 * can reach the JVM's direct-memory limit between collections, and the JDK's direct allocator then
 * forces a full, stop-the-world collection (measured with wide pages made in direct memory at 600,000
 * events: a {@code System.gc()} pause of 1.1 s).
 *
 * <p>Reads take no lock; storing takes the cache's lock (once per page and version), so the bounds
 * hold at every moment, whatever number of threads store at once. When full, arbitrary entries are
 * evicted. A superseded generation's bodies are freed once no response still sends them.
 */
public final class ResponseCache {
    /** The share of the byte bound one body may take, as a divisor. */
    static final int ENTRY_SHARE = 8;
    /** The largest body kept in direct memory: a narrow one (see {@link SearchEndpoint#WIDE_BYTES}). */
    public static final long DIRECT_MAX = SearchEndpoint.WIDE_BYTES;

    /** One version's entries; {@code bytes} is written under the cache's lock only. */
    private static final class Generation {
        final long version;
        final ConcurrentHashMap<SearchQuery, SearchBody> entries = new ConcurrentHashMap<>();
        long bytes;

        Generation(long version) {
            this.version = version;
        }
    }

    private final int maxEntries;
    private final long maxBytes;
    private volatile Generation generation = new Generation(-1);
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** A cache of at most {@code maxEntries} bodies and {@code maxBytes} bytes; 0 entries disables it. */
    public ResponseCache(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The body for {@code query} at {@code version}, rendered by {@code render} and stored on a miss. */
    public SearchBody get(long version, SearchQuery query, Supplier<SearchBody> render) {
        SearchBody body = peek(version, query);
        return body != null ? body : put(version, query, render.get());
    }

    /** The body stored for {@code query} at {@code version}, or null (counted as a hit or a miss). */
    public SearchBody peek(long version, SearchQuery query) {
        Generation g = generation;
        SearchBody body = g.version == version ? g.entries.get(query) : null;
        if (body != null) {
            hits.increment();
        } else {
            misses.increment();
        }
        return body;
    }

    /**
     * Stores {@code body}, rendered from the snapshot of {@code version}, if it fits; returns what to
     * send: the stored copy (in direct memory when narrow), one another thread stored first, or
     * {@code body} itself when it is not kept (cache off, a reader of an older snapshot, too large).
     */
    public SearchBody put(long version, SearchQuery query, SearchBody body) {
        long cost = 2L * body.length();
        if (maxEntries <= 0 || cost > maxBytes / ENTRY_SHARE) {
            return body;
        }
        Generation g = generation;
        if (g.version < version) {
            g = advance(version);
        }
        if (g.version != version) {
            return body; // a reader still on an older snapshot: answer it, but never cache stale bytes
        }
        // the copy outside the lock: stores of different pages overlap
        SearchBody kept = body.length() <= DIRECT_MAX ? body.kept() : body;
        synchronized (this) {
            if (generation != g) {
                return kept; // a newer snapshot arrived meanwhile
            }
            SearchBody raced = g.entries.get(query);
            if (raced != null) {
                return raced;
            }
            Iterator<SearchBody> olds = g.entries.values().iterator();
            while ((g.entries.size() >= maxEntries || g.bytes + cost > maxBytes) && olds.hasNext()) {
                g.bytes -= 2L * olds.next().length();
                olds.remove();
            }
            g.entries.put(query, kept);
            g.bytes += cost;
        }
        return kept;
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

    /** Bytes budgeted for the current generation's bodies; never above the byte bound. */
    public synchronized long bytes() {
        return generation.bytes;
    }

    private synchronized Generation advance(long version) {
        Generation g = generation;
        if (g.version < version) {
            g = new Generation(version);
            generation = g;
        }
        return g;
    }
}
