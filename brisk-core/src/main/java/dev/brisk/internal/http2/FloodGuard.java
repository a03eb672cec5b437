package dev.brisk.internal.http2;

import java.util.concurrent.TimeUnit;

/**
 * Caps what a client can make one connection do for nothing, per {@value #WINDOW_SECONDS}-second
 * window: streams reset (the client's {@code RST_STREAM} on a stream in flight, or a stream the
 * server had to reset for the client's fault: rapid reset, CVE-2023-44487, makes a server start
 * work the client cancels at once), and frames that cost work but carry no request (SETTINGS, PING,
 * PRIORITY, frames of unknown type, empty DATA and CONTINUATION frames, empty DATA and HEADERS on a
 * stream this side reset lately, which are dropped: floods of them were CVE-2019-9512/9515/9518). Over either cap the connection is closed with {@code ENHANCE_YOUR_CALM}.
 * Windows are fixed, so a burst across a boundary may reach twice a cap: still a bound.
 *
 * <p>Loop thread only.
 */
final class FloodGuard {
    static final int WINDOW_SECONDS = 10;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);
    /** Frames without a request allowed per window. */
    static final int MAX_CONTROL = 1_000;

    private final int maxResets;
    private long windowStart;
    private int resets;
    private int control;

    /** @param maxConcurrentStreams the connection's stream limit: resets allowed per window scale with it */
    FloodGuard(int maxConcurrentStreams, long now) {
        this.maxResets = maxResets(maxConcurrentStreams);
        this.windowStart = now;
    }

    /** Streams reset allowed per window for a stream limit of {@code maxConcurrentStreams}. */
    static int maxResets(int maxConcurrentStreams) {
        return Math.max(200, 2 * maxConcurrentStreams);
    }

    /** Counts a stream reset; true when the connection is over its cap. */
    boolean reset(long now) {
        roll(now);
        return ++resets > maxResets;
    }

    /** Counts a frame without a request; true when the connection is over its cap. */
    boolean control(long now) {
        roll(now);
        return ++control > MAX_CONTROL;
    }

    /** Over a cap ({@code over}): the connection ends with ENHANCE_YOUR_CALM, an exception the reader passes on. */
    static void enforce(boolean over) throws Http2Exception {
        if (over) {
            throw new Http2Exception(H2.ENHANCE_YOUR_CALM, "too many resets or control frames");
        }
    }

    private void roll(long now) {
        if (now - windowStart >= WINDOW_NANOS) {
            windowStart = now;
            resets = 0;
            control = 0;
        }
    }
}
