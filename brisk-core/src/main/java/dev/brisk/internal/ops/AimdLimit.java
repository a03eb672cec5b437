package dev.brisk.internal.ops;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * An adaptive limit by additive increase / multiplicative decrease (AIMD) on observed latency: it probes upward
 * slowly while requests are fast and the limit is in use, and cuts back sharply when they become slow or fail.
 *
 * <p>Rules, applied to each sample (a completed admitted request):
 * <ol>
 *   <li><b>Back off.</b> A sample slower than the {@linkplain Settings#latencyThreshold() latency threshold}, or
 *       dropped, multiplies the limit by the {@linkplain Settings#backoffRatio() backoff ratio}, rounded down and
 *       never below the minimum. <i>Why multiplicative:</i> overload has to be shed quickly, and a proportional
 *       cut is as effective at a limit of 20 as at 2000.
 *   <li><b>One backoff per window, judged on fresh evidence.</b> A backoff happens at most once per
 *       {@linkplain Settings#window() window}, and only for a request admitted after the previous backoff.
 *       <i>Why:</i> when the limit is cut, the requests already in flight were admitted under the old limit and
 *       keep completing slowly for a while; counting each of them would cut again and again and collapse the
 *       limit to the minimum after a single burst. Only a request admitted after the cut says anything about the
 *       new limit. (For slow samples this spaces backoffs at least one latency threshold apart.)
 *   <li><b>Grow.</b> A fast, successful sample adds one to the limit, at most once per window, and only if the
 *       in-flight count was at least half the limit. <i>Why additive:</i> capacity is probed gently, so the limit
 *       overshoots by little before latency pushes back. <i>Why half:</i> a lightly loaded server gives no
 *       evidence that a higher limit would be served as well; without this rule the limit would drift to the
 *       maximum in quiet periods and give no protection when a burst arrives.
 *   <li><b>No growth right after a backoff.</b> Within a window after a backoff the limit does not grow.
 *       <i>Why:</i> the cut needs time to show its effect before probing resumes.
 * </ol>
 * Under steady overload the limit settles in a saw-tooth just below the concurrency at which latency crosses the
 * threshold: it climbs by one per window until samples turn slow, then drops by the backoff ratio.
 *
 * <p><b>Thread safety.</b> Lock-free and allocation-free. The limit is an {@link AtomicInteger} changed only by
 * compare-and-set from the value read to that value adjusted and clamped to [min, max], so {@link #current()} is
 * always within bounds and no adjustment that was decided is lost. The per-window claims (times of the last
 * increase and of the last backoff) are separate atomics claimed by compare-and-set, so at most one thread
 * increases and at most one backs off per window. The one inexactness: "no growth right after a backoff" is checked
 * before the increase is made, not atomically with it, so under contention an increase may rarely land just after
 * a backoff in the same window. Cost per sample: a fast sample with low in-flight, or at the maximum, is one
 * volatile read; otherwise a clock read and a few volatile reads; writes happen at most about twice per window,
 * so threads do not contend on the hot path.
 */
public final class AimdLimit implements ConcurrencyLimit {

    /**
     * Settings of an {@link AimdLimit}.
     *
     * @param initialLimit the limit at start, within [minLimit, maxLimit]
     * @param minLimit the lowest limit, {@code >= 1}
     * @param maxLimit the highest limit, {@code >= minLimit}
     * @param backoffRatio the factor applied to the limit on a backoff, strictly between 0 and 1
     * @param latencyThreshold a sample slower than this signals overload; set it to the slowest latency that is
     *     acceptable under load, since the limit settles where samples start to exceed it. Positive.
     * @param window the minimum time between two increases, between two backoffs, and from a backoff to the next
     *     increase. Zero lets every sample adjust the limit. Not negative.
     */
    public record Settings(
            int initialLimit,
            int minLimit,
            int maxLimit,
            double backoffRatio,
            Duration latencyThreshold,
            Duration window) {

        /** Generous enough that a healthy server does not shed while the limit learns. */
        public static final int DEFAULT_INITIAL_LIMIT = 100;
        /** Keeps one bad stretch from throttling the server to a trickle. */
        public static final int DEFAULT_MIN_LIMIT = 10;
        /** Bounds the memory and queueing that admitted requests can take. */
        public static final int DEFAULT_MAX_LIMIT = 1000;
        /** A 10% cut per backoff: quick enough to shed, gentle enough not to oscillate wildly. */
        public static final double DEFAULT_BACKOFF_RATIO = 0.9;
        /** A request slower than a second is taken as overload, not as a slow handler. */
        public static final Duration DEFAULT_LATENCY_THRESHOLD = Duration.ofSeconds(1);
        /** Growth of up to 10 per second; backoffs of up to 10 per second (dropped samples). */
        public static final Duration DEFAULT_WINDOW = Duration.ofMillis(100);

        /**
         * Validates the settings.
         *
         * @throws IllegalArgumentException if a value is out of range
         * @throws NullPointerException if a duration is null
         */
        public Settings {
            Objects.requireNonNull(latencyThreshold, "latencyThreshold");
            Objects.requireNonNull(window, "window");
            if (minLimit < 1) {
                throw new IllegalArgumentException("minLimit must be >= 1: " + minLimit);
            }
            if (maxLimit < minLimit) {
                throw new IllegalArgumentException("maxLimit " + maxLimit + " < minLimit " + minLimit);
            }
            if (initialLimit < minLimit || initialLimit > maxLimit) {
                throw new IllegalArgumentException(
                        "initialLimit " + initialLimit + " not within [" + minLimit + ", " + maxLimit + "]");
            }
            if (!(backoffRatio > 0 && backoffRatio < 1)) { // also rejects NaN
                throw new IllegalArgumentException("backoffRatio must be in (0, 1): " + backoffRatio);
            }
            if (latencyThreshold.isNegative() || latencyThreshold.isZero()) {
                throw new IllegalArgumentException("latencyThreshold must be positive: " + latencyThreshold);
            }
            if (window.isNegative()) {
                throw new IllegalArgumentException("window must not be negative: " + window);
            }
        }

        /**
         * The defaults.
         *
         * @return limit 100 in [10, 1000], backoff ratio 0.9, latency threshold 1 s, window 100 ms
         */
        public static Settings defaults() {
            return new Settings(DEFAULT_INITIAL_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT, DEFAULT_BACKOFF_RATIO,
                    DEFAULT_LATENCY_THRESHOLD, DEFAULT_WINDOW);
        }
    }

    /**
     * Stands for "never" in the times of the last changes: far enough back that any window has elapsed, near enough
     * that differences with the clock cannot overflow. Windows are capped at it.
     */
    private static final long LONG_AGO = Long.MAX_VALUE / 4;

    private final int min;
    private final int max;
    private final double backoffRatio;
    private final long thresholdNanos;
    private final long windowNanos;
    private final LongSupplier nanoTime;

    private final AtomicInteger limit;
    /** Clock time of the last backoff: claimed by CAS so that one thread backs off per window. */
    private final AtomicLong lastDecrease;
    /** Clock time of the last increase: claimed by CAS so that one thread increases per window. */
    private final AtomicLong lastIncrease;

    /**
     * A limit on the clock of {@link System#nanoTime()}.
     *
     * @param settings the settings
     */
    public AimdLimit(Settings settings) {
        this(settings, System::nanoTime);
    }

    /**
     * A limit on the given clock.
     *
     * @param settings the settings
     * @param nanoTime the clock, in nanoseconds, with the time base of the latencies passed to {@link #onSample}
     *     ({@code System::nanoTime} in production, a fake in tests); must be thread-safe and non-decreasing
     */
    public AimdLimit(Settings settings, LongSupplier nanoTime) {
        this.min = settings.minLimit();
        this.max = settings.maxLimit();
        this.backoffRatio = settings.backoffRatio();
        this.thresholdNanos = saturatedNanos(settings.latencyThreshold());
        this.windowNanos = Math.min(saturatedNanos(settings.window()), LONG_AGO);
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.limit = new AtomicInteger(settings.initialLimit());
        long now = nanoTime.getAsLong();
        this.lastDecrease = new AtomicLong(now - LONG_AGO);
        this.lastIncrease = new AtomicLong(now - LONG_AGO);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public int current() {
        return limit.get();
    }

    @Override
    public void onSample(long rttNanos, int inFlight, boolean dropped) {
        long rtt = Math.max(0, rttNanos);
        if (dropped || rtt > thresholdNanos) {
            backOff(rtt);
        } else {
            int l = limit.get();
            // only a limit in use is worth raising (rule 3); long arithmetic: 2 * inFlight may overflow an int
            if (l < max && 2L * inFlight >= l) {
                grow();
            }
        }
    }

    private void backOff(long rtt) {
        // even at the minimum the backoff is claimed: it holds growth back for a window (rule 4)
        long now = nanoTime.getAsLong();
        long last = lastDecrease.get();
        long since = now - last; // difference, not comparison of times: nanoTime may wrap
        // rule 2: once per window, and not for a request admitted (now - rtt) before the last backoff
        if (since < windowNanos || rtt > since) {
            return;
        }
        if (!lastDecrease.compareAndSet(last, now)) {
            return; // another thread took this window's backoff
        }
        int l;
        int cut;
        do {
            l = limit.get();
            // rounded down, and at least one: with a ratio just below 1 the product can round back up to l
            cut = Math.max(min, Math.min(l - 1, (int) (l * backoffRatio)));
        } while (cut != l && !limit.compareAndSet(l, cut));
    }

    private void grow() {
        long now = nanoTime.getAsLong();
        if (now - lastDecrease.get() < windowNanos) {
            return; // rule 4: let the last backoff take effect first
        }
        long last = lastIncrease.get();
        if (now - last < windowNanos || !lastIncrease.compareAndSet(last, now)) {
            return; // this window's increase is done, or another thread is doing it
        }
        int l;
        do {
            l = limit.get();
            if (l >= max) {
                return;
            }
        } while (!limit.compareAndSet(l, l + 1));
    }

    @Override
    public String toString() {
        return "AimdLimit[limit=" + limit.get() + " in [" + min + ", " + max + "]]";
    }
}
