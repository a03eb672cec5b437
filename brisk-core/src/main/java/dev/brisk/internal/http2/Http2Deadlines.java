package dev.brisk.internal.http2;

import dev.brisk.ServerOptions;

/**
 * An HTTP/2 connection's clocks: the deadline for the client's preface, the idle timeout counted from
 * the connection's start and then from the moment its last stream closed, the header-read timeout of a
 * header block, and the fixed beat at which a blocking loop looks at the timers while anything is in
 * flight: streams open, output pending, a header block begun, a GOAWAY going out (a selector loop's
 * scan does that on its own). Times are the wire's clock, in nanoseconds. Loop thread only.
 */
final class Http2Deadlines {
    /** How often a blocking loop looks at the timers while anything is in flight. */
    static final long TICK_NANOS = 100_000_000L;

    private final long idleNanos;
    private final long headerNanos;
    private final long prefaceDeadline;
    private long idleSince;
    /** When a blocking loop next checks the timers while anything is in flight (see {@link #beat}). */
    private long tickAt;

    Http2Deadlines(ServerOptions options, long now) {
        this.idleNanos = options.idleTimeout().toNanos();
        this.headerNanos = options.headerReadTimeout().toNanos();
        this.prefaceDeadline = now + headerNanos;
        this.idleSince = now;
    }

    /** When the client's preface must have come (header-read-timeout from the start). */
    long prefaceDeadline() {
        return prefaceDeadline;
    }

    boolean prefacePassed(long now) {
        return now - prefaceDeadline > 0;
    }

    /** A header block begun at {@code started} has taken longer than header-read-timeout. */
    boolean headerBlockPassed(long now, long started) {
        return now - started > headerNanos;
    }

    /** The timers ran at {@code now}: the next beat is a tick later. */
    void ticked(long now) {
        tickAt = now + TICK_NANOS;
    }

    /**
     * The next beat while something is in flight: a fixed one, not pushed back by every read that ends
     * with nothing ({@link #ticked} moves it on).
     */
    long beat(long now) {
        if (tickAt == 0 || tickAt - now > TICK_NANOS) {
            tickAt = now + TICK_NANOS;
        }
        return tickAt;
    }

    /** No stream is open any more: the idle timeout runs from {@code now}. */
    void idleFrom(long now) {
        idleSince = now;
    }

    boolean idlePassed(long now) {
        return now - idleSince > idleNanos;
    }

    /** When an idle connection times out. */
    long idleEnd() {
        return idleSince + idleNanos;
    }
}
