package dev.brisk.internal.http1;

import dev.brisk.ServerOptions;
import dev.brisk.internal.transport.Wire;

/**
 * The one deadline a connection waits on at a time (header read, body read, idle, queue), on the
 * wire's clock, told to the wire as it changes. The write deadline is {@link Output}'s. The
 * timeouts are read from the options once: {@code Duration.toNanos} per request is measurable.
 *
 * <p>The header-read deadline is absolute: it starts with a request's first byte (or at accept) and
 * later bytes do not move it. Loop thread only.
 */
final class Deadlines {
    private final Wire wire;
    private final long headerReadNanos;
    private final long bodyReadNanos;
    private final long idleNanos;
    private final long queueNanos;
    private long at;
    /** Whether the current head's deadline is set (false between requests, until a byte arrives). */
    private boolean headStarted = true;

    Deadlines(Wire wire, ServerOptions o) {
        this.wire = wire;
        this.headerReadNanos = o.headerReadTimeout().toNanos();
        this.bodyReadNanos = o.bodyReadTimeout().toNanos();
        this.idleNanos = o.idleTimeout().toNanos();
        this.queueNanos = o.requestQueueTimeout().toNanos();
        set(wire.clock() + headerReadNanos); // a new connection owes its first head
    }

    private void set(long deadline) {
        at = deadline;
        wire.deadline(deadline);
    }

    /** Whether the current deadline has passed at {@code now}. */
    boolean passed(long now) {
        return now - at > 0;
    }

    /** A request's first bytes are here: its head must be whole within the header-read timeout. */
    void headBytes() {
        if (!headStarted) {
            headStarted = true;
            set(wire.clock() + headerReadNanos);
        }
    }

    /** Body bytes arrived (or reading begins): the next must come within the body-read timeout. */
    void bodyRead() {
        set(wire.clock() + bodyReadNanos);
    }

    /** Between requests: the next may take the idle timeout to start. */
    void idle() {
        headStarted = false;
        set(wire.clock() + idleNanos);
    }

    /** Waiting in the admission queue. */
    void queued() {
        set(wire.clock() + queueNanos);
    }

    /**
     * The drain found the connection idle: it may stay open {@code nanos} more (never longer than its
     * current deadline) for a request already on its way; that request's head then has the whole
     * header-read timeout from its first byte.
     */
    void grace(long nanos) {
        headStarted = false;
        long until = wire.clock() + nanos;
        if (until - at < 0) {
            set(until);
        }
    }

    /** Body reading waits for the handler to take bytes: no deadline until {@link #bodyRead} again. */
    void paused() {
        at = wire.clock() + (1L << 62); // passed() stays false: "now - at" cannot overflow this way
        wire.noDeadline();
    }

    /** A handler has the request: its time is not limited here. */
    void none() {
        wire.noDeadline();
    }
}
