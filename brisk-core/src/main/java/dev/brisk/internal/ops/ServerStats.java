package dev.brisk.internal.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;

/**
 * The engine's own counters, without dependencies or locks: per-loop {@link LoopCounters} for what
 * the I/O loops count (plain increments by their single writer), LongAdders for the acceptor's. Read by {@code Brisk.metrics()}, which sums them.
 */
public final class ServerStats {
    /** Why a request was refused before reaching its handler. */
    public enum ShedReason {
        /** The in-flight limit was reached and the queue was full (or off). */
        CONCURRENCY_LIMIT,
        /** It waited in the queue longer than the queue timeout. */
        QUEUE_TIMEOUT,
        /** No connection thread came free in time (blocking engine on platform threads). */
        THREAD_LIMIT,
        /** The request-body memory budget could not take its body ({@code body-memory-budget}). */
        BODY_MEMORY,
        /** The spool disk budget could not take its body ({@code body-spool-disk}). */
        BODY_DISK;

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
    public final LongAdder acceptPauses = new LongAdder();
    /** TLS handshakes, finished and failed. */
    public final dev.brisk.internal.tls.TlsCounters tls = new dev.brisk.internal.tls.TlsCounters();
    private final List<LoopCounters> loops = new CopyOnWriteArrayList<>();
    /** Counters of the blocking engine's open connections, one each (a connection is its own loop). */
    private final Set<LoopCounters> connections = ConcurrentHashMap.newKeySet();
    /** What closed connections counted; guarded by the lock, also while summing, so no count is seen twice. */
    private final LoopCounters retired = new LoopCounters();
    // a lock virtual threads can wait on without holding their carrier
    private final ReentrantLock retiredLock = new ReentrantLock();

    /** Counters for one more I/O loop, to be written by that loop's thread only. */
    public LoopCounters newLoop() {
        LoopCounters c = new LoopCounters();
        loops.add(c);
        return c;
    }

    /** Counters for one blocking connection, written by its thread only; {@link #retire} them at its end. */
    public LoopCounters newConnection() {
        LoopCounters c = new LoopCounters();
        connections.add(c);
        return c;
    }

    /** Folds a closed connection's counters into the totals. Called by that connection's thread. */
    public void retire(LoopCounters c) {
        retiredLock.lock();
        try {
            if (connections.remove(c)) {
                retired.addAll(c);
            }
        } finally {
            retiredLock.unlock();
        }
    }

    /** Every loop's counters, for reading; the caller holds the lock. */
    private Iterable<LoopCounters> all() {
        List<LoopCounters> all = new ArrayList<>(loops.size() + connections.size() + 1);
        all.addAll(loops);
        all.addAll(connections);
        all.add(retired);
        return all;
    }

    static int parseErrorIndex(int status) {
        int i = 0;
        while (i < PARSE_ERROR_STATUSES.length && PARSE_ERROR_STATUSES[i] != status) {
            i++;
        }
        return i;
    }

    /** The sum over every loop of one of its counters. */
    private long sum(ToLongFunction<LoopCounters> counter) {
        long n = 0;
        retiredLock.lock();
        try {
            for (LoopCounters c : all()) {
                n += counter.applyAsLong(c);
            }
        } finally {
            retiredLock.unlock();
        }
        return n;
    }

    public long bytesIn() {
        return sum(c -> c.bytesIn);
    }

    public long bytesOut() {
        return sum(c -> c.bytesOut);
    }

    public long socketWrites() {
        return sum(c -> c.writes);
    }

    public long connectionsTimedOut() {
        return sum(c -> c.timedOut);
    }

    public long slowRequestBodies() {
        return sum(c -> c.slowBodies);
    }

    public long slowResponses() {
        return sum(c -> c.slowResponses);
    }

    public long latencySumNanos() {
        return sum(c -> c.latencySum);
    }

    public long requests() {
        long n = 0;
        for (int cls = 0; cls < 6; cls++) {
            int i = cls;
            n += sum(c -> c.statusClass[i]);
        }
        return n;
    }

    /** Responses by protocol: {@code http/1.1} (1.0 included), {@code h2}, {@code h2c}. */
    public Map<String, Long> requestsByProtocol() {
        long h2 = sum(c -> c.http2[0]);
        long h2c = sum(c -> c.http2[1]);
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("http/1.1", sum(c -> c.http1));
        m.put("h2", h2);
        m.put("h2c", h2c);
        return m;
    }

    /** Responses whose status is {@code cls}xx (1..5). */
    public long requests(int cls) {
        return cls < 1 || cls > 5 ? 0 : sum(c -> c.statusClass[cls]);
    }

    /** Per-bucket latency counts (not cumulative), one more than the bounds (overflow last). */
    public long[] latencyCounts() {
        long[] sum = new long[LatencyHistogram.BOUNDS_NANOS.length + 1];
        retiredLock.lock();
        try {
            for (LoopCounters c : all()) {
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += c.latencyBuckets[i];
                }
            }
        } finally {
            retiredLock.unlock();
        }
        return sum;
    }

    public Map<String, Long> parseErrors() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < PARSE_ERROR_KINDS.length; i++) {
            int k = i;
            m.put(PARSE_ERROR_KINDS[i], sum(c -> c.parseErrors[k]));
        }
        return m;
    }

    public Map<String, Long> shed() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ShedReason r : ShedReason.values()) {
            m.put(r.label(), sum(c -> c.shed[r.ordinal()]));
        }
        return m;
    }
}
