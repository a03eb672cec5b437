package dev.brisk.events.sim;

import java.time.Duration;
import java.util.Random;

/**
 * The faults injected into feed requests, each changeable at any time from any thread; a request
 * reads each setting once, so a change applies from the next request on.
 *
 * <p>Draws come from one generator seeded from the options, so a test that sends its requests one at
 * a time sees the same fault sequence on every run.
 */
final class Faults {
    private final Random random; // thread-safe; contention is irrelevant next to an HTTP request
    private final long originNanos;
    private volatile Duration latency;
    private volatile Duration latencyJitter;
    private volatile double failureRate;
    private volatile double resetShare;
    private volatile double malformedRate;
    private volatile boolean down;
    private volatile DownSchedule schedule;

    /** Faults as {@code o} sets them; the down schedule counts from {@code originNanos} ({@link System#nanoTime}). */
    Faults(SimulatorOptions o, long originNanos) {
        this.random = new Random(o.seed() * 0x9E3779B97F4A7C15L + 1);
        this.originNanos = originNanos;
        latency(o.latency(), o.latencyJitter());
        failureRate(o.failureRate());
        resetShare(o.resetShare());
        malformedRate(o.malformedRate());
        schedule = DownSchedule.of(o.downEvery(), o.downFor());
    }

    void latency(Duration fixed, Duration jitter) {
        if (fixed == null || jitter == null || fixed.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("latency and jitter must be durations >= 0: " + fixed + ", " + jitter);
        }
        // one volatile pair written in order: a reader may see the new fixed part with the old jitter, harmless
        latency = fixed;
        latencyJitter = jitter;
    }

    void failureRate(double rate) {
        SimulatorOptions.rate("failureRate", rate);
        failureRate = rate;
    }

    void resetShare(double share) {
        SimulatorOptions.rate("resetShare", share);
        resetShare = share;
    }

    void malformedRate(double rate) {
        SimulatorOptions.rate("malformedRate", rate);
        malformedRate = rate;
    }

    void down(boolean value) {
        down = value;
    }

    /** Outages for the last {@code downFor} of every {@code every}; zero durations remove the schedule. */
    void downSchedule(Duration every, Duration downFor) {
        DownSchedule.check(every, downFor);
        schedule = DownSchedule.of(every, downFor);
    }

    /** The delay to add to this request: the fixed latency plus a uniform share of the jitter. */
    Duration nextLatency() {
        Duration fixed = latency;
        long jitter = latencyJitter.toNanos();
        return jitter == 0 ? fixed : fixed.plusNanos((long) (random.nextDouble() * jitter));
    }

    /**
     * Whether the provider is down now, and for how long: null when up, {@link Duration#ZERO} when
     * down by {@link #down(boolean)} (no known end), else the rest of the scheduled outage.
     */
    Duration outage() {
        if (down) {
            return Duration.ZERO;
        }
        DownSchedule s = schedule;
        if (s == null) {
            return null;
        }
        Duration left = s.remainingDown(Duration.ofNanos(System.nanoTime() - originNanos));
        return left.isZero() ? null : left;
    }

    /** Whether this request fails (500 or reset). */
    boolean fails() {
        return draw(failureRate);
    }

    /** For a failing request: whether it is a reset rather than a 500. */
    boolean resets() {
        return draw(resetShare);
    }

    /** Whether this answer is a malformed document. */
    boolean malformed() {
        return draw(malformedRate);
    }

    /** The generator for choices inside a fault (where to cut, what to break). */
    Random random() {
        return random;
    }

    private boolean draw(double rate) {
        // 0 and 1 draw nothing, so switching one fault on leaves the sequence of the others unchanged
        return rate >= 1 || (rate > 0 && random.nextDouble() < rate);
    }
}
