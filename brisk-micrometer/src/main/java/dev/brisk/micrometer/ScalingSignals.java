package dev.brisk.micrometer;

import dev.brisk.Brisk;
import dev.brisk.ServerMetrics;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Signals an autoscaler can act on, derived from the engine's counters when read (nothing runs in
 * the background and nothing is added to the request path):
 *
 * <ul>
 *   <li>{@link #saturationRatio()}: in-flight requests / the current in-flight limit;</li>
 *   <li>{@link #rejectionRate()}: requests shed per second over a sliding window;</li>
 *   <li>{@link #needsScaleOut()}: whether any request was shed in that window;</li>
 *   <li>{@link #connectionHeadroom()}: connections that can still be accepted before {@code max-connections}.</li>
 * </ul>
 *
 * <p>The shed counters are sampled at most once a second, on reads: with a scrape interval longer than
 * the window, the rate and the flag cover the time since the previous scrape, so a refusal between two
 * scrapes is never missed.
 */
public final class ScalingSignals {
    /** The default window of {@link #rejectionRate()} and {@link #needsScaleOut()}. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private final ServerMetrics metrics;
    private final int maxConnections;
    private final SlidingRate shed;

    /**
     * Signals for a running app, over the {@linkplain #DEFAULT_WINDOW default window}.
     *
     * @param app the app whose counters the signals read, live
     */
    public ScalingSignals(Brisk app) {
        this(app.metrics(), app.options().maxConnections(), DEFAULT_WINDOW, System::nanoTime);
    }

    /**
     * Signals over counters given separately, with their own window and clock.
     *
     * @param metrics the engine's counters
     * @param maxConnections the app's {@code max-connections}
     * @param window how far back {@link #rejectionRate()} and {@link #needsScaleOut()} look; at least 1 s
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}; a fake one in tests)
     */
    public ScalingSignals(ServerMetrics metrics, int maxConnections, Duration window, LongSupplier nanoClock) {
        this.metrics = metrics;
        this.maxConnections = maxConnections;
        this.shed = new SlidingRate(() -> shedTotal(metrics), window, nanoClock);
    }

    private static long shedTotal(ServerMetrics metrics) {
        long n = 0;
        for (long v : metrics.shed().values()) {
            n += v;
        }
        return n;
    }

    /** {@return the window of {@link #rejectionRate()} and {@link #needsScaleOut()}} */
    public Duration window() {
        return Duration.ofNanos(shed.windowNanos());
    }

    /**
     * In-flight requests divided by the current in-flight limit: 1.0 when every slot is taken, 0 when
     * requests are not limited ({@code max-concurrent-requests} 0). Can exceed 1 briefly when an
     * adaptive limit drops below the requests already admitted.
     *
     * @return the ratio now
     */
    public double saturationRatio() {
        int limit = metrics.concurrencyLimit();
        return limit <= 0 ? 0.0 : (double) metrics.inFlight() / limit;
    }

    /** {@return requests shed (refused with 503 by load shedding, every reason) per second over the window} */
    public double rejectionRate() {
        return shed.perSecond();
    }

    /** {@return true while a request was shed within the window: this instance alone cannot take its load} */
    public boolean needsScaleOut() {
        return shed.read().increase() > 0;
    }

    /** {@return {@code max-connections} minus the connections open now: 0 while accepting is paused at the limit} */
    public int connectionHeadroom() {
        return maxConnections - metrics.connectionsActive();
    }
}
