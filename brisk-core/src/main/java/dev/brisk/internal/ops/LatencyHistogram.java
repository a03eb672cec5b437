package dev.brisk.internal.ops;

import java.util.concurrent.atomic.LongAdder;

/**
 * Request latency in fixed buckets (100 µs to 10 s, roughly ×2.5 apart, plus overflow): a lock-free
 * record is a short scan and one LongAdder increment, and the buckets map directly onto a
 * Prometheus-style histogram.
 */
public final class LatencyHistogram {
    /** Upper bounds (inclusive) of the buckets in nanoseconds; the last bucket is everything above. */
    static final long[] BOUNDS_NANOS = {
        100_000L, 250_000L, 500_000L, 1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L,
        50_000_000L, 100_000_000L, 250_000_000L, 500_000_000L, 1_000_000_000L, 2_500_000_000L,
        5_000_000_000L, 10_000_000_000L};

    private final LongAdder[] counts = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder sumNanos = new LongAdder();

    public LatencyHistogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void record(long nanos) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) {
            i++;
        }
        counts[i].increment();
        sumNanos.add(nanos);
    }

    /** Bucket upper bounds in nanoseconds (a copy). */
    public static long[] boundsNanos() {
        return BOUNDS_NANOS.clone();
    }

    /** Per-bucket counts (not cumulative), one more than {@link #boundsNanos()}: the last is the overflow. */
    public long[] counts() {
        long[] c = new long[counts.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = counts[i].sum();
        }
        return c;
    }

    public long sumNanos() {
        return sumNanos.sum();
    }
}
