package dev.brisk.internal.http2;

/**
 * How one HTTP/2 connection says it ends (RFC 9113 section 6.8) when nothing went wrong: the drain's two
 * steps, the final {@code GOAWAY} and the stream ids still served after it, and the client's own
 * {@code GOAWAY}. A connection error's {@code GOAWAY} is not this class's: it ends everything at once.
 *
 * <pre>
 *   RUNNING ──drain(grace)──▶ GRACE: GOAWAY(2^31-1) + PING sent
 *      │                        │ the PING answered (a round trip: what the client sent before it saw
 *      │                        │ the first GOAWAY is here), or drain-grace over
 *      │                        ▼
 *      └──drain(0), lastStream(id), idle, the end──▶ FINAL: GOAWAY(last) sent, once; ids above last
 *                                                    are not served; the connection closes when no
 *                                                    stream is left
 *   the client's GOAWAY, in any state: no new stream will come ({@link #ending})
 * </pre>
 *
 * <p>The last stream id a final {@code GOAWAY} names never goes up, so it is sent once. Loop thread only.
 */
final class GoAway {
    /** The payload of the PING that measures the drain's round trip. */
    static final long DRAIN_PING = 0x6272_6973_6b2d_6472L;

    private final FrameWriter frames;
    private boolean draining;
    private boolean sentFinal;
    private int last = Integer.MAX_VALUE;
    private long graceEnd;
    private boolean peerSent;

    GoAway(FrameWriter frames) {
        this.frames = frames;
    }

    /**
     * Starts the drain: with {@code graceNanos} of 0 the final {@code GOAWAY} at once, else the first
     * {@code GOAWAY} and the drain's {@code PING}. Once; a no-op after a final {@code GOAWAY}.
     *
     * @return false when the drain had already begun
     */
    boolean drain(long now, long graceNanos, int lastClientStream) {
        if (draining) {
            return false;
        }
        draining = true;
        if (sentFinal) {
            return true;
        }
        if (graceNanos == 0) {
            sendFinal(lastClientStream, null);
        } else {
            frames.goAway(Integer.MAX_VALUE, H2.NO_ERROR, null);
            frames.ping(false, DRAIN_PING);
            graceEnd = now + graceNanos;
        }
        return true;
    }

    /** A PING came back: the drain's own ends the grace. */
    void pingAnswered(long payload, int lastClientStream) {
        if (payload == DRAIN_PING && inGrace()) {
            sendFinal(lastClientStream, null);
        }
    }

    /** The timer's look: a grace that is over ends with the final {@code GOAWAY}. */
    void timers(long now, int lastClientStream) {
        if (inGrace() && now - graceEnd > 0) {
            sendFinal(lastClientStream, null);
        }
    }

    /** The final {@code GOAWAY}, naming {@code lastStream} as the last one served, unless one already went out. */
    void sendFinal(int lastStream, String debug) {
        if (!sentFinal) {
            sentFinal = true;
            last = lastStream;
            frames.goAway(lastStream, H2.NO_ERROR, debug);
        }
    }

    /** The client sent its {@code GOAWAY}: it opens no new stream. */
    void peerSent() {
        peerSent = true;
    }

    /**
     * {@return the last stream id a {@code GOAWAY} may name now: {@code lastClientStream}, or the final
     * one's if that went out and was lower} A connection error's {@code GOAWAY} after the final one must
     * not raise it (RFC 9113 section 6.8): a stream opened since was never served.
     */
    int lastStream(int lastClientStream) {
        return sentFinal ? Math.min(last, lastClientStream) : lastClientStream;
    }

    /** Whether stream {@code id} is served: false for one opened after the final {@code GOAWAY}. */
    boolean serves(int id) {
        return !sentFinal || id <= last;
    }

    boolean sentFinal() {
        return sentFinal;
    }

    /** Whether the drain waits for its PING's answer or {@link #graceEnd}. */
    boolean inGrace() {
        return draining && !sentFinal;
    }

    /** When the drain's grace ends (meaningful while {@link #inGrace}). */
    long graceEnd() {
        return graceEnd;
    }

    /** Whether no new stream will be served: the connection ends once its streams do. */
    boolean ending() {
        return sentFinal || peerSent;
    }
}
