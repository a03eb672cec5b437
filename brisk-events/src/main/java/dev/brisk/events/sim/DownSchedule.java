package dev.brisk.events.sim;

import java.time.Duration;

/**
 * Scheduled outages for the demo: counted from the simulator's start, each period of {@code every}
 * is up first and down for its last {@code downFor}, so a freshly started simulator answers.
 *
 * @param every   period length, above {@code downFor}
 * @param downFor outage length, above zero
 */
record DownSchedule(Duration every, Duration downFor) {

    DownSchedule {
        check(every, downFor);
        if (downFor.isZero()) {
            throw new IllegalArgumentException("downFor must be above zero");
        }
    }

    /** A schedule, or null when either duration is zero (no outages). */
    static DownSchedule of(Duration every, Duration downFor) {
        return every == null || downFor == null || every.isZero() || downFor.isZero() ? null
                : new DownSchedule(every, downFor);
    }

    /** Both zero, or both set with {@code downFor < every}. */
    static void check(Duration every, Duration downFor) {
        if (every == null || downFor == null || every.isNegative() || downFor.isNegative()) {
            throw new IllegalArgumentException("down schedule durations must be >= 0: " + every + ", " + downFor);
        }
        if (every.isZero() != downFor.isZero()) {
            throw new IllegalArgumentException("downEvery and downFor go together: " + every + ", " + downFor);
        }
        if (!every.isZero() && downFor.compareTo(every) >= 0) {
            throw new IllegalArgumentException("downFor must be shorter than downEvery: " + downFor + " >= " + every);
        }
    }

    /**
     * How long the outage around {@code sinceStart} lasts from then on, or {@link Duration#ZERO} when
     * up at that moment.
     */
    Duration remainingDown(Duration sinceStart) {
        long period = every.toNanos();
        long pos = Math.floorMod(sinceStart.toNanos(), period);
        long downFrom = period - downFor.toNanos();
        return pos >= downFrom ? Duration.ofNanos(period - pos) : Duration.ZERO;
    }
}
