package dev.brisk.internal.ops;

/** A constant limit: samples are ignored. Immutable, so trivially thread-safe. */
public final class FixedLimit implements ConcurrencyLimit {
    private final int limit;

    /**
     * A limit that never changes.
     *
     * @param limit the limit on requests in flight, {@code >= 1}
     * @throws IllegalArgumentException if {@code limit < 1}
     */
    public FixedLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        this.limit = limit;
    }

    @Override
    public int current() {
        return limit;
    }

    @Override
    public void onSample(long rttNanos, int inFlight, boolean dropped) {
        // a fixed limit learns nothing
    }

    @Override
    public String toString() {
        return "FixedLimit[" + limit + "]";
    }
}
