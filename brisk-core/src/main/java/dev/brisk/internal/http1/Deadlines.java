package dev.brisk.internal.http1;

import dev.brisk.ServerOptions;
import dev.brisk.internal.transport.DataRate;
import dev.brisk.internal.transport.Wire;

/**
 * The one deadline a connection waits on at a time (header read, body read, idle, queue), on the
 * wire's clock, told to the wire as it changes. The write deadline is {@link Output}'s. The
 * timeouts are read from the options once: {@code Duration.toNanos} per request is measurable.
 *
 * <p>The header-read deadline is absolute: it starts with a request's first byte (or at accept) and
 * later bytes do not move it. Loop thread only.
 *
 * <p>While a body is read, its {@link DataRate} ({@code min-body-rate}) is measured too: the wire is told
 * the earlier of the body-read deadline and the rate's next check, so a loop that sleeps to its deadline
 * (the blocking engine) wakes for the check; {@link #bodyTooSlow} then sets the next one. A
 * scanning loop checks every 100 ms anyway.
 */
final class Deadlines {
    private final Wire wire;
    private final long headerReadNanos;
    private final long bodyReadNanos;
    private final long idleNanos;
    private final long queueNanos;
    /** {@code min-body-rate}, or null when it is 0. */
    private final DataRate.Limit bodyLimit;
    /** The body's rate: made for the connection's first body (most connections never read one). */
    private DataRate bodyRate;
    /** Whether a body is being read (its rate is measured): the wire's deadline may be the rate's next check. */
    private boolean readingBody;
    private long at;
    /** Whether the current head's deadline is set (false between requests, until a byte arrives). */
    private boolean headStarted = true;

    Deadlines(Wire wire, ServerOptions o) {
        this.wire = wire;
        this.headerReadNanos = o.headerReadTimeout().toNanos();
        this.bodyReadNanos = o.bodyReadTimeout().toNanos();
        this.idleNanos = o.idleTimeout().toNanos();
        this.queueNanos = o.requestQueueTimeout().toNanos();
        this.bodyLimit = DataRate.Limit.of(o.minBodyRate(), o.rateGrace().toNanos(), o.rateWindow().toNanos());
        set(wire.clock() + headerReadNanos); // a new connection owes its first head
    }

    private void set(long deadline) {
        at = deadline;
        readingBody = false;
        wire.deadline(deadline);
    }

    /** The body-read deadline {@code deadline}, or the body rate's next check when that comes first. */
    private void setForBody(long now, long deadline) {
        at = deadline;
        readingBody = bodyRate != null;
        long check = readingBody ? bodyRate.nextCheck(now) : deadline;
        wire.deadline(check - deadline < 0 ? check : deadline);
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

    /** Reading a body begins: its rate is measured from now; its first bytes must come within the body-read timeout. */
    void bodyBegins() {
        long now = wire.clock();
        if (bodyLimit != null) {
            if (bodyRate == null) {
                bodyRate = bodyLimit.meter();
            }
            bodyRate.start(now);
        }
        setForBody(now, now + bodyReadNanos);
    }

    /** {@code n} body bytes arrived: the next must come within the body-read timeout. */
    void bodyRead(int n) {
        long now = wire.clock();
        if (bodyRate != null) {
            bodyRate.add(n, now);
        }
        setForBody(now, now + bodyReadNanos);
    }

    /** Body reading resumes after a pause (the handler took bytes from its stream's window). */
    void bodyResumed() {
        long now = wire.clock();
        if (bodyRate != null) {
            bodyRate.resume(now);
        }
        setForBody(now, now + bodyReadNanos);
    }

    /**
     * Whether the body being read is below {@code min-body-rate} at {@code now}; when it is not, the
     * wire's deadline moves to the rate's next check (the body-read deadline stays).
     */
    boolean bodyTooSlow(long now) {
        if (!readingBody) {
            return false;
        }
        if (bodyRate.tooSlow(now)) {
            return true;
        }
        setForBody(now, at);
        return false;
    }

    /** Between requests: the next may take the idle timeout to start. */
    void idle() {
        headStarted = false;
        set(wire.clock() + idleNanos);
    }

    /** The current deadline comes {@code nanos} from now if it would come later. */
    void atMost(long nanos) {
        long until = wire.clock() + nanos;
        if (until - at < 0) {
            set(until);
        }
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
        long now = wire.clock();
        if (bodyRate != null) {
            bodyRate.pause(now); // the client waits for the handler: not its time
        }
        at = now + (1L << 62); // passed() stays false: "now - at" cannot overflow this way
        readingBody = false;
        wire.noDeadline();
    }

    /** A handler has the request: its time is not limited here. */
    void none() {
        readingBody = false;
        wire.noDeadline();
    }
}
