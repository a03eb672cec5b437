package dev.brisk.events.poll;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The wait before the next poll: the interval while polls succeed; after {@code n} failures in a row,
 * {@code min(max, interval × 2^(n-1))} with "equal jitter" (a uniform pick in its upper half), so many
 * instances restarted together do not hit a recovering provider in lockstep.
 */
final class Backoff {
    private final Duration interval;
    private final Duration max;
    private final RandomGenerator random;

    /**
     * The poller's backoff, with a generator seeded anew in every process. Not ThreadLocalRandom taken
     * on one thread and used on another: on a thread that never called {@code current()} itself it
     * starts from the same seed in every JVM, so instances started alike would back off in lockstep.
     * Used by one thread (the poller's loop).
     */
    static Backoff jittered(Duration interval, Duration max) {
        return new Backoff(interval, max, new SplittableRandom());
    }

    Backoff(Duration interval, Duration max, RandomGenerator random) {
        this.interval = interval;
        this.max = max.compareTo(interval) < 0 ? interval : max;
        this.random = random;
    }

    Duration delay(int failuresInARow) {
        if (failuresInARow <= 0) {
            return interval;
        }
        long base = interval.toMillis();
        long cap = max.toMillis();
        int shift = Math.min(failuresInARow - 1, 30);
        long d = base > (cap >> shift) ? cap : Math.min(cap, base << shift);
        long half = d / 2;
        return Duration.ofMillis(half + (half > 0 ? random.nextLong(half + 1) : 0));
    }
}
