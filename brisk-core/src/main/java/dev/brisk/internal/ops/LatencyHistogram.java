package dev.brisk.internal.ops;

/**
 * The latency buckets: 100 µs to 10 s, roughly ×2.5 apart, plus overflow. Fixed, so recording is a
 * short scan and an increment, and they map directly onto a Prometheus-style histogram.
 */
public final class LatencyHistogram {
    /** Upper bounds (inclusive) of the buckets in nanoseconds; the last bucket is everything above. */
    static final long[] BOUNDS_NANOS = {
        100_000L, 250_000L, 500_000L, 1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L,
        50_000_000L, 100_000_000L, 250_000_000L, 500_000_000L, 1_000_000_000L, 2_500_000_000L,
        5_000_000_000L, 10_000_000_000L};

    private LatencyHistogram() {
    }

    /** Bucket upper bounds in nanoseconds (a copy). */
    public static long[] boundsNanos() {
        return BOUNDS_NANOS.clone();
    }
}
