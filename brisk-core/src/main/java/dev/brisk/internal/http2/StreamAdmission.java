package dev.brisk.internal.http2;

import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;

/**
 * Hands a connection's whole requests to the app, one stream at a time, through the server's
 * in-flight limit exactly as an HTTP/1.1 request goes: a slot now, a place in the queue (its grant
 * comes back to the connection's loop and dispatches), or 503 at once. On the blocking engine the
 * handler runs right here, on the connection's thread.
 *
 * <pre>
 *   admit ──slot──▶ dispatch
 *     ├──queued──▶ granted (on the loop) ──▶ dispatch, or the slot passed on if the stream is gone
 *     └──refused──▶ shed: 503
 * </pre>
 *
 * <p>Loop thread only.
 */
final class StreamAdmission {
    private final Http2Connection conn;
    private final Wire wire;
    private final Http2Shared shared;
    private final ResponseSender sender;

    StreamAdmission(Http2Connection conn, Wire wire, Http2Shared shared, ResponseSender sender) {
        this.conn = conn;
        this.wire = wire;
        this.shared = shared;
        this.sender = sender;
    }

    /**
     * The in-flight limit, per stream as per HTTP/1.1 request: a slot now, a place in the queue (the
     * grant dispatches it), or 503 at once. A route that is never shed skips it.
     */
    void admit(Http2Stream s) {
        AdmissionControl admission = shared.admission;
        if (admission == null || s.exchange.neverShed()) {
            dispatch(s);
            return;
        }
        if (admission.tryAcquire()) {
            s.admitted(admission);
            dispatch(s);
            return;
        }
        AdmissionControl.Ticket t = new AdmissionControl.Ticket(() -> conn.execute(() -> conn.event(() -> granted(s))));
        if (admission.enqueue(t)) {
            s.ticket = t;
            s.queuedAt = wire.clock();
        } else {
            shed(s, ServerStats.ShedReason.CONCURRENCY_LIMIT);
        }
    }

    /** The queue passed a slot to {@code s}. */
    private void granted(Http2Stream s) {
        s.ticket = null;
        s.admitted(shared.admission);
        if (s.closed || !conn.isOpen()) {
            s.releaseSlot(); // gone while the grant was on its way: pass it on
            return;
        }
        dispatch(s);
    }

    void shed(Http2Stream s, ServerStats.ShedReason reason) {
        wire.counters().shed(reason);
        sender.refusal(s, StreamRecorder.SHED, 503, "Service Unavailable: too many requests in flight, retry shortly");
    }

    private void dispatch(Http2Stream s) {
        Exchange ex = s.exchange;
        if (s.handed != null) {
            ex.setBody(s.handed);
        }
        s.dispatched = true;
        if (wire.blocking()) {
            // what is ready goes out before and after each inline handler, not once every frame already
            // read has been handled: behind a burst of slow requests, each answer (and our SETTINGS, PING
            // acks) would otherwise wait for all of them
            conn.flushBetweenHandlers();
            shared.app.runInline(ex); // the blocking engine: this thread is the handler's, as for HTTP/1.1
            conn.flushBetweenHandlers();
        } else {
            shared.app.dispatch(ex);
        }
    }
}
