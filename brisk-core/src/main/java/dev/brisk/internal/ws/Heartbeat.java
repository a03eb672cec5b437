package dev.brisk.internal.ws;

/**
 * A session's liveness clock: when the peer was last heard (any bytes: a pong counts), when it was last
 * pinged, and what is due from that: a ping once it has been silent for {@code ws-ping-interval} (and not
 * pinged for as long), the idle close once it has been silent for {@code ws-idle-timeout}. Time the
 * reading thread spends blocked in a write to the peer is not the peer's silence ({@link #deaf}). Times
 * are the wire's clock, in nanoseconds.
 *
 * <p>Loop thread only.
 */
final class Heartbeat {
    /** Nothing is due. */
    static final int NOTHING = 0;
    /** The peer has been silent for the idle timeout: close it. */
    static final int IDLE = 1;
    /** The peer has been silent for the ping interval: ping it (and {@link #pinged}). */
    static final int PING = 2;

    private final long idleNanos;
    /** 0: never ping. */
    private final long pingNanos;
    private long lastHeard;
    private long lastPing;

    Heartbeat(long idleNanos, long pingNanos, long now) {
        this.idleNanos = idleNanos;
        this.pingNanos = pingNanos;
        this.lastHeard = now;
        this.lastPing = now;
    }

    /** Bytes came from the peer. */
    void heard(long now) {
        lastHeard = now;
    }

    /**
     * The thread that reads the peer (a blocking loop's, between two reads) was in a write from
     * {@code from} to {@code to} and read nothing meanwhile: that time is not the peer's silence. Without
     * this, a peer that went on sending while an inline handler's long write blocked was closed 1001 as
     * idle when the write ended, before what it had sent was read.
     */
    void deaf(long from, long to) {
        if (lastHeard - from <= 0 && to - from > 0) {
            lastHeard += to - from;
        }
    }

    /** What is due at {@code now}: {@link #NOTHING}, {@link #IDLE} or {@link #PING}. */
    int due(long now) {
        if (now - lastHeard > idleNanos) {
            return IDLE;
        }
        if (pingNanos > 0 && now - lastHeard >= pingNanos && now - lastPing >= pingNanos) {
            return PING;
        }
        return NOTHING;
    }

    /** A ping went out at {@code now}. */
    void pinged(long now) {
        lastPing = now;
    }

    /** When something next falls due. */
    long next() {
        long next = lastHeard + idleNanos;
        if (pingNanos > 0) {
            long ping = (lastPing - lastHeard > 0 ? lastPing : lastHeard) + pingNanos; // the later, wrap-safe
            if (ping - next < 0) {
                next = ping;
            }
        }
        return next;
    }
}
