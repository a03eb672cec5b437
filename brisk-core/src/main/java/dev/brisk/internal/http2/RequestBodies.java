package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.HttpException;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.body.BodyWriter;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;

/**
 * The request bodies of one connection's streams, as DATA brings them: the connection's receive
 * window (given back once half of it is used, as DATA is consumed on arrival), each stream's window
 * and body, and the body's end, which hands the request to {@link StreamAdmission}. The stream table,
 * resets and answers stay with {@link RequestStreams}, which validates each DATA frame's stream before
 * its bytes come here.
 *
 * <p>Request bodies are collected whole before dispatch, each by a {@link BodyWriter} drawing from the
 * server's body budget exactly as an HTTP/1.1 body does (held in memory, or spooled to a file past
 * {@code body-spool-threshold}): one stream's up to its route's limit ({@code max-body-size} unless the
 * route sets its own). A stream whose body the budget cannot take is answered {@code 503} with
 * {@code Retry-After} and reset, its bytes dropped; the connection's other streams go on. Stalling the
 * connection's window instead would stall every upload on it until its body-read timeout.
 *
 * <p>A {@code streamBody()} route's body is not collected (on the event-loop engines): the stream is
 * dispatched with its headers and its body fed to the handler as it arrives through a
 * {@link BodyStream} as large as the stream's window, reserved from the memory budget; the window is
 * opened again only as the handler reads ({@link StreamBodyFeed}).
 *
 * <pre>
 *   frameArrives (connection window taken) ─▶ target(stream) or none ─▶ data* ─▶ dataEnd
 *        dataEnd, not the last: windows given back       dataEnd, END_STREAM: requestWhole ─▶ admit
 * </pre>
 *
 * <p>Loop thread only.
 */
final class RequestBodies {
    private final RequestStreams streams;
    private final StreamAdmission admission;
    private final Http2Connection conn;
    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final long maxBody;
    private final int connWindowTarget;
    private int connRecvWindow;
    private int connRecvUnacked;
    /** The stream DATA bytes go to, or null when they are dropped. */
    private Http2Stream dataTarget;

    RequestBodies(RequestStreams streams, StreamAdmission admission, Http2Connection conn, Wire wire,
            Http2Shared shared, FrameWriter frames, ResponseSender sender, int connWindowTarget) {
        this.streams = streams;
        this.admission = admission;
        this.conn = conn;
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.frames = frames;
        this.sender = sender;
        this.maxBody = shared.options.maxBodySize();
        this.connWindowTarget = connWindowTarget;
        this.connRecvWindow = Math.max(H2.DEFAULT_WINDOW, connWindowTarget);
    }

    /** A DATA frame of {@code length} begins: it comes out of the connection's window, whatever its stream. */
    void frameArrives(int length) throws Http2Exception {
        if (length > connRecvWindow) {
            throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "DATA beyond the connection's window");
        }
        connRecvWindow -= length;
        connRecvUnacked += length;
        dataTarget = null;
        frameLength = length;
        frameData = 0;
    }

    /** The DATA frame in progress: its length (padding included) and the data bytes of it seen so far. */
    private int frameLength;
    private int frameData;

    /** The DATA frame in progress goes to {@code s}'s body. */
    void target(Http2Stream s) {
        dataTarget = s;
    }

    /** {@code s} is closed: DATA still arriving for it is dropped; null: every stream is. */
    void forget(Http2Stream s) {
        if (s == null || dataTarget == s) {
            dataTarget = null;
        }
    }

    /** Bytes of the DATA frame in progress, to its stream's body (dropped when it has none). */
    void data(byte[] a, int off, int len) {
        frameData += len;
        Http2Stream s = dataTarget;
        if (s == null || s.closed || s.localClosed || (s.responded && s.streamed == null)) {
            // an answer is out already (413, 408, a 503 for the budget, queued or sent): the rest of the body
            // is dropped; a collected body's refusal must not be made again by its next piece
            return;
        }
        s.received += len;
        if (s.bodyRate != null) {
            s.bodyRate.add(len, wire.clock());
        }
        if (s.contentLength >= 0 && s.received > s.contentLength) {
            dataTarget = null;
            streams.resetStream(s, H2.PROTOCOL_ERROR, true); // more than content-length said (8.1.1)
            return;
        }
        if (s.streamed != null) {
            try {
                s.streamed.append(a, off, len); // fits: the client may send no more than the room it was given
                if (s.recvWindow <= s.streamed.capacity() / 2) {
                    s.streamed.askWhenHalfRead();
                }
            } catch (HttpParseException e) {
                failStreamed(s, e.status(), e.getMessage());
            }
            return;
        }
        try {
            if (s.body == null) {
                BodyWriter w = new BodyWriter(shared.http1.bodies());
                ServerStats.ShedReason refused = w.begin(s.contentLength, s.bodyLimit);
                if (refused != null) {
                    shedBody(s, refused);
                    return;
                }
                s.body = w;
            }
            s.body.append(a, off, len);
        } catch (HttpParseException e) {
            dropBody(s);
            streams.refuse(s, e.status(), e.getMessage());
        }
    }

    /**
     * The most body bytes {@code ex} may carry: its route's own limit, else {@code max-body-size}; a body
     * is collected whole on HTTP/2 (a streamed route's too), so never more than the budget can hold.
     */
    long bodyLimit(Exchange ex, boolean streamed) {
        CompiledRoute r = ex.route();
        long limit = r != null && r.maxBodySize() != CompiledRoute.SERVER_LIMIT ? r.maxBodySize()
                : streamed ? Long.MAX_VALUE : maxBody;
        return streamed ? limit : shared.http1.bodies().bufferedLimit(limit);
    }

    /** Whether {@code ex}'s body goes to its handler as it arrives: a streamed route off the blocking engine. */
    boolean streamsBody(Exchange ex) {
        CompiledRoute r = ex.route();
        return r != null && r.streamBody() && !wire.blocking();
    }

    /**
     * Dispatches {@code s} with its headers, its body to come through a {@link BodyStream} of the
     * stream's window, reserved from the memory budget (503 when it cannot be).
     */
    void openStreamed(Http2Stream s, boolean expectContinue) {
        int window = s.recvWindow;
        dev.brisk.internal.body.ByteBudget memory = shared.http1.bodies().memory();
        if (!memory.tryReserve(window)) {
            shedBody(s, ServerStats.ShedReason.BODY_MEMORY);
            return;
        }
        s.streamed = new BodyStream(memory, new StreamBodyFeed(conn, wire, this, s), s.bodyLimit, window);
        s.handed = s.streamed; // the connection's hold, let go when the stream closes
        if (expectContinue) {
            sender.interim100(s);
        }
        admission.admit(s);
    }

    /**
     * The handler read {@code s}'s body down: the client may send as far as the body's room again.
     * Loop thread.
     */
    void openWindow(Http2Stream s) {
        if (s.closed || s.remoteClosed || s.streamed == null) {
            return;
        }
        if (dataTarget == s) {
            // a DATA frame is half in: its whole length left the window, only part of it is in the body,
            // so room() still counts the rest as free; granting now would let the client overrun the body
            s.windowWanted = true;
            return;
        }
        s.windowWanted = false;
        int give = s.streamed.room() - s.recvWindow;
        if (give > 0) {
            frames.windowUpdate(s.id, give);
            s.recvWindow += give;
            if (s.bodyRate != null) {
                s.bodyRate.resume(wire.clock()); // room to send again: the client is waited on
            }
        }
    }

    /** A streamed body cannot go on: its reader fails with {@code status}, and the stream is reset after the answer. */
    void failStreamed(Http2Stream s, int status, String message) {
        dataTarget = null;
        s.streamed.fail(new HttpException(status, message));
        if (s.localClosed) {
            streams.resetStream(s, H2.CANCEL, false);
        } else {
            s.resetAfterResponse = true; // the handler answers (its error mapping), then the rest is refused
        }
    }

    /** The server's body budget cannot take {@code s}'s body: 503 with Retry-After, the stream reset after it. */
    private void shedBody(Http2Stream s, ServerStats.ShedReason reason) {
        dropBody(s);
        wire.counters().shed(reason);
        s.resetAfterResponse = !s.remoteClosed;
        sender.refusal(s, StreamRecorder.SHED, 503, "Service Unavailable: no request-body memory free, retry shortly");
    }

    /** The DATA frame in progress is over ({@code endStream}: the request's last). */
    void dataEnd(boolean endStream) {
        Http2Stream s = dataTarget;
        dataTarget = null;
        ackConnectionWindow();
        if (s == null || s.closed) {
            return;
        }
        s.lastInput = wire.clock();
        if (!endStream) {
            if (s.streamed == null) {
                ackStreamWindow(s); // a streamed body's window opens as its handler reads (openWindow)
            } else if (s.windowWanted || frameData < frameLength) {
                // padding took window that no byte in the body stands for, and no read by the handler will
                // give it back: it is given back now (else padding alone could shut the window for good)
                openWindow(s);
            }
            return;
        }
        s.remoteClosed = true;
        if (s.localClosed) {
            streams.sent(s); // an early answer went out: the stream can close now
        } else if (s.streamed != null || !s.responded) {
            requestWhole(s);
        } // else refused (413, 503) and its answer not yet all out: it closes when it is; no handler runs
    }

    /** The connection's window is given back once half of it is used: DATA is consumed as it arrives. */
    private void ackConnectionWindow() {
        if (connRecvUnacked >= connWindowTarget / 2) {
            frames.windowUpdate(0, connRecvUnacked);
            connRecvWindow += connRecvUnacked;
            connRecvUnacked = 0;
        }
    }

    private void ackStreamWindow(Http2Stream s) {
        int used = h2.initialWindowSize() - s.recvWindow;
        if (!s.localClosed && used >= h2.initialWindowSize() / 2) {
            frames.windowUpdate(s.id, used);
            s.recvWindow += used;
        }
    }

    /** Gives back what a body still arriving holds: its memory or file. */
    void dropBody(Http2Stream s) {
        if (s.body != null) {
            s.body.abort();
            s.body = null;
        }
    }

    /** The request's body is whole: checks it against content-length and hands it to the app. */
    void requestWhole(Http2Stream s) {
        if (s.contentLength >= 0 && s.received != s.contentLength) {
            if (s.streamed != null) {
                s.streamed.fail(new HttpException(400, "Request body shorter than its content-length"));
            }
            streams.resetStream(s, H2.PROTOCOL_ERROR, true);
            return;
        }
        if (s.streamed != null) {
            s.streamed.end(); // dispatched already: its handler reads the rest, then the end
            return;
        }
        if (s.body != null) {
            try {
                s.handed = s.body.finish(); // the connection's hold, let go when the stream closes
            } catch (HttpParseException e) {
                dropBody(s);
                streams.refuse(s, e.status(), e.getMessage());
                return;
            }
            s.body = null;
        }
        admission.admit(s);
    }
}
