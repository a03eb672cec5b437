package dev.brisk.internal.ops;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's own counters, without dependencies or locks: per-loop {@link LoopCounters} for what
 * the I/O loops count (plain increments by their single writer), LongAdders for the rest
 * (acceptor, closes). Read by {@code Brisk.metrics()}, which sums them.
 */
public final class ServerStats {
    /** Why a request was refused before reaching its handler. */
    public enum ShedReason {
        /** The in-flight limit was reached and the queue was full (or off). */
        CONCURRENCY_LIMIT,
        /** It waited in the queue longer than the queue timeout. */
        QUEUE_TIMEOUT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** Statuses the engine answers itself when a request cannot be parsed or read, by kind. */
    private static final int[] PARSE_ERROR_STATUSES = {400, 408, 413, 414, 417, 431, 501, 505};
    static final String[] PARSE_ERROR_KINDS = {
        "bad-request", "timeout", "body-too-large", "uri-too-long", "expectation-failed", "header-too-large",
        "not-implemented", "version-not-supported", "other"};

    public final LongAdder connectionsAccepted = new LongAdder();
    public final LongAdder connectionsClosed = new LongAdder();
    public final LongAdder acceptPauses = new LongAdder();
    private final List<LoopCounters> loops = new CopyOnWriteArrayList<>();

    /** Counters for one more I/O loop, to be written by that loop's thread only. */
    public LoopCounters newLoop() {
        LoopCounters c = new LoopCounters();
        loops.add(c);
        return c;
    }

    static int parseErrorIndex(int status) {
        int i = 0;
        while (i < PARSE_ERROR_STATUSES.length && PARSE_ERROR_STATUSES[i] != status) {
            i++;
        }
        return i;
    }

    public long bytesIn() {
        long n = 0;
        for (LoopCounters c : loops) {
            n += c.bytesIn;
        }
        return n;
    }

    public long bytesOut() {
        long n = 0;
        for (LoopCounters c : loops) {
            n += c.bytesOut;
        }
        return n;
    }

    public long connectionsTimedOut() {
        long n = 0;
        for (LoopCounters c : loops) {
            n += c.timedOut;
        }
        return n;
    }

    public long requests() {
        long n = 0;
        for (LoopCounters c : loops) {
            for (long v : c.statusClass) {
                n += v;
            }
        }
        return n;
    }

    /** Responses whose status is {@code cls}xx (1..5). */
    public long requests(int cls) {
        if (cls < 1 || cls > 5) {
            return 0;
        }
        long n = 0;
        for (LoopCounters c : loops) {
            n += c.statusClass[cls];
        }
        return n;
    }

    /** Per-bucket latency counts (not cumulative), one more than the bounds (overflow last). */
    public long[] latencyCounts() {
        long[] sum = new long[LatencyHistogram.BOUNDS_NANOS.length + 1];
        for (LoopCounters c : loops) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += c.latencyBuckets[i];
            }
        }
        return sum;
    }

    public long latencySumNanos() {
        long n = 0;
        for (LoopCounters c : loops) {
            n += c.latencySum;
        }
        return n;
    }

    public Map<String, Long> parseErrors() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < PARSE_ERROR_KINDS.length; i++) {
            long n = 0;
            for (LoopCounters c : loops) {
                n += c.parseErrors[i];
            }
            m.put(PARSE_ERROR_KINDS[i], n);
        }
        return m;
    }

    public Map<String, Long> shed() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ShedReason r : ShedReason.values()) {
            long n = 0;
            for (LoopCounters c : loops) {
                n += c.shed[r.ordinal()];
            }
            m.put(r.label(), n);
        }
        return m;
    }
}
