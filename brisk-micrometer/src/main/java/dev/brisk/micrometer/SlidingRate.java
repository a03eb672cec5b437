package dev.brisk.micrometer;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How much a monotonic total grew over a sliding window, computed when read: no background thread.
 *
 * <p>A read samples the total into a small ring of {@code (time, total)} pairs, at most one sample a
 * second. The baseline of a read is the newest sample at least one window old (else the oldest, the one
 * taken at construction); older samples are dropped. So with reads at least once a second the increase
 * covers the last window (plus at most one second), and with sparser reads (a scrape every 15 s over a
 * 10 s window) it covers the time since the previous read. Thread-safe; reads take a lock, which is fine
 * off the request path (a scrape).
 */
final class SlidingRate {
    /** What a read saw: the increase since the baseline, and the time that covers. */
    record Reading(long increase, long elapsedNanos) {
    }

    private static final long SAMPLE_INTERVAL_NANOS = 1_000_000_000L;

    private final LongSupplier total;
    private final LongSupplier nanoClock;
    private final long windowNanos;
    private final long[] times;
    private final long[] totals;
    private int oldest;
    private int size;

    /**
     * @param total a total that never decreases (the shed requests, ...)
     * @param window how far back a read looks; at least one second (the sample interval)
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}; a fake one in tests)
     */
    SlidingRate(LongSupplier total, Duration window, LongSupplier nanoClock) {
        if (window.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("window must be at least 1 s: " + window);
        }
        this.total = total;
        this.nanoClock = nanoClock;
        this.windowNanos = window.toNanos();
        // samples at least 1 s apart inside one window, the baseline, and the one just added
        int capacity = (int) ((windowNanos + SAMPLE_INTERVAL_NANOS - 1) / SAMPLE_INTERVAL_NANOS) + 2;
        this.times = new long[capacity];
        this.totals = new long[capacity];
        append(nanoClock.getAsLong(), total.getAsLong());
    }

    /** The window's length in nanoseconds. */
    long windowNanos() {
        return windowNanos;
    }

    /** Samples the total if the last sample is a second old, then measures against the baseline. */
    synchronized Reading read() {
        long now = nanoClock.getAsLong();
        long value = total.getAsLong();
        if (now - timeAt(size - 1) >= SAMPLE_INTERVAL_NANOS) {
            append(now, value);
        }
        // the next-older sample is a window old too: it is a later baseline, so the oldest is no longer needed
        while (size >= 2 && now - timeAt(1) >= windowNanos) {
            dropOldest();
        }
        return new Reading(value - totals[oldest], now - times[oldest]);
    }

    /** The increase per second: over the window, or over the time covered when that is longer. */
    double perSecond() {
        Reading r = read();
        // never divide by less than the window: a server up for 1 s with 5 refusals shed 5 in the last 10 s
        return r.increase() * 1e9 / Math.max(r.elapsedNanos(), windowNanos);
    }

    private long timeAt(int i) {
        return times[(oldest + i) % times.length];
    }

    private void append(long time, long value) {
        if (size == times.length) {
            dropOldest(); // not reached: the capacity covers a window of samples; kept as a guard
        }
        int i = (oldest + size) % times.length;
        times[i] = time;
        totals[i] = value;
        size++;
    }

    private void dropOldest() {
        oldest = (oldest + 1) % times.length;
        size--;
    }
}
