package dev.brisk.micrometer;

import java.time.Duration;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test advances it. */
final class FakeClock implements LongSupplier {
    // not 0: real nanoTime values are arbitrary, and the code must not assume a zero origin
    private long now = 987_654_321_000L;

    void advance(Duration d) {
        now += d.toNanos();
    }

    void advanceMillis(long ms) {
        advance(Duration.ofMillis(ms));
    }

    @Override
    public long getAsLong() {
        return now;
    }
}
