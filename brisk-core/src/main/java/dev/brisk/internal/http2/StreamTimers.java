package dev.brisk.internal.http2;

import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Wire;

/**
 * The deadlines of a connection's streams, checked on each of its timer events: a request body that
 * stopped coming or comes below the minimum rate ({@code 408}, or a streamed body failed with it), a
 * wait in the admission queue ({@code 503}), an answer held by a window the client keeps shut, or
 * opens only a little at a time, past {@code write-timeout} or the response rate's grace (reset
 * {@code CANCEL}; the connection's window resets every stream waiting for it). Each end goes through
 * {@link RequestStreams}, which owns the streams' ends. Loop thread only.
 */
final class StreamTimers {
    private final RequestStreams streams;
    private final Wire wire;
    private final Http2Shared shared;
    private final RequestBodies bodies;
    private final StreamAdmission admission;
    private final ResponseSender sender;
    private final long bodyNanos;
    private final long queueNanos;
    private final long writeNanos;
    /** How long a stream (or the connection) may wait for the client's window: write-timeout, or less (a rate). */
    private final long stallNanos;

    StreamTimers(RequestStreams streams, Wire wire, Http2Shared shared, RequestBodies bodies, StreamAdmission admission,
            ResponseSender sender) {
        this.streams = streams;
        this.wire = wire;
        this.shared = shared;
        this.bodies = bodies;
        this.admission = admission;
        this.sender = sender;
        this.bodyNanos = shared.options.bodyReadTimeout().toNanos();
        this.queueNanos = shared.options.requestQueueTimeout().toNanos();
        this.writeNanos = shared.options.writeTimeout().toNanos();
        // a window kept shut moves nothing: below any min-response-rate once its grace is over (at least an
        // eighth of the rate's window, the meter's own step), as a socket that takes nothing is on HTTP/1.1
        long grace = Math.max(shared.options.rateGrace().toNanos(), shared.options.rateWindow().toNanos() / 8);
        this.stallNanos = shared.options.minResponseRate() > 0 ? Math.min(writeNanos, grace) : writeNanos;
    }

    /** Ends what is past its deadline at {@code now} among {@code open}. */
    void check(long now, StreamMap open) {
        open.forEach(s -> {
            // a stream refused already (its answer waiting for window) is not refused again: the stall rule below ends it
            if (!s.remoteClosed && !s.localClosed && !s.dispatched && !s.responded && now - s.lastInput > bodyNanos) {
                wire.counters().timedOut();
                bodies.dropBody(s);
                streams.refuse(s, 408, "Request body read timeout");
            } else if (!s.remoteClosed && !s.localClosed && !s.dispatched && !s.responded && s.bodyRate != null
                    && s.bodyRate.tooSlow(now)) {
                wire.counters().slowBody();
                bodies.dropBody(s);
                streams.refuse(s, 408, "Request body arrives below the minimum data rate");
            } else if (s.streamed != null && !s.remoteClosed && s.recvWindow > 0 && now - s.lastInput > bodyNanos) {
                // the client stopped sending with room to send: not the handler's slowness, its own
                wire.counters().timedOut();
                s.lastInput = now;
                bodies.failStreamed(s, 408, "Request body read timeout");
            } else if (s.streamed != null && !s.remoteClosed && s.bodyRate != null && s.bodyRate.tooSlow(now)) {
                // measured only while the client had room to send (paused while the window is shut)
                wire.counters().slowBody();
                s.bodyRate = null; // judged once
                bodies.failStreamed(s, 408, "Request body arrives below the minimum data rate");
            } else if (s.ticket != null && now - s.queuedAt > queueNanos) {
                if (s.ticket.abandon(shared.admission)) {
                    s.ticket = null;
                    admission.shed(s, ServerStats.ShedReason.QUEUE_TIMEOUT);
                }
            } else if (s.blockedSince != 0 && s.sendRate != null && s.sendRate.tooSlow(now)) {
                // the client opens its window, but so little at a time that the answer moves below the rate
                wire.counters().slowResponse();
                streams.resetStream(s, H2.CANCEL, false);
            } else if (s.blockedSince != 0 && now - s.blockedSince > stallNanos) {
                stalled(); // the client kept the stream's window shut for write-timeout, or past the rate's grace
                streams.resetStream(s, H2.CANCEL, false);
            }
        });
        long connBlocked = sender.connBlockedSince();
        if (connBlocked != 0 && now - connBlocked > stallNanos) {
            stalled(); // the connection's window: every stream waiting for it is reset
            for (Http2Stream s : sender.ready().toArray(new Http2Stream[0])) {
                if (!s.closed) {
                    streams.resetStream(s, H2.CANCEL, false);
                }
            }
        }
    }

    /**
     * The client's input has ended: an answer waiting for a window (its stream's or the connection's)
     * can never go on, since no {@code WINDOW_UPDATE} can follow the end, so its stream is reset now
     * ({@code CANCEL}) instead of at the stall rule's deadline, and its body's memory comes back.
     *
     * @return whether a stream was reset
     */
    boolean endBlocked(StreamMap open) {
        boolean[] any = {false};
        open.forEach(s -> {
            if (s.blockedSince != 0 && !s.closed) {
                streams.resetStream(s, H2.CANCEL, false);
                any[0] = true;
            }
        });
        if (sender.connBlockedSince() != 0) {
            for (Http2Stream s : sender.ready().toArray(new Http2Stream[0])) {
                if (!s.closed) {
                    streams.resetStream(s, H2.CANCEL, false);
                    any[0] = true;
                }
            }
        }
        return any[0];
    }

    /** Counts a window stall: a slow response when the rate cut it first, else a timeout. */
    private void stalled() {
        if (stallNanos < writeNanos) {
            wire.counters().slowResponse();
        } else {
            wire.counters().timedOut();
        }
    }
}
