package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.ClientDisconnectedException;
import dev.brisk.HttpException;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.body.BodyWriter;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;

/**
 * A connection's streams as the client opens them: header blocks (assembled across
 * {@code CONTINUATION}s, decoded by the connection's one {@link HpackDecoder}) become requests, DATA
 * becomes their bodies within the windows this side gives, and a whole request goes to the app
 * through the in-flight limit. Owns the table of open streams, what the client may still send
 * (the flow control of RFC 9113 6.9 in this direction), and every stream's end: its answer sent, a
 * reset either way, a timeout. What the client did that is its stream's fault resets that stream;
 * what cannot be reconciled (a header block on a closed stream, DATA on an idle one, too many resets)
 * is a connection error, thrown or passed to the connection.
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
 * <p>Loop thread only.
 */
final class RequestStreams {
    /** How many streams reset by this side are remembered: frames the client sent before it saw the reset are ignored. */
    private static final int RESET_MEMORY = 64;

    private final Http2Connection conn;
    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final HpackDecoder decoder = new HpackDecoder(H2.DEFAULT_HEADER_TABLE_SIZE);
    private final RequestFields fields;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final FloodGuard flood;
    private final StreamMap streams = new StreamMap();
    private final long maxBody;
    private final long bodyNanos;
    private final long queueNanos;
    private final long writeNanos;
    private final int blockCap;
    private final int connWindowTarget;

    // the header block being received
    private byte[] block = new byte[1024];
    private int blockLen;
    private boolean blockEndStream;
    private int blockDependency;
    private long blockStarted;

    /** The highest stream id the client opened. */
    private int lastClientStream;
    /** Streams opened so far, for {@code max-requests-per-connection}. */
    private int opened;
    private final int[] resetByUs = new int[RESET_MEMORY];
    private int resetCursor;

    // what the client may send
    private int connRecvWindow = H2.DEFAULT_WINDOW;
    private int connRecvUnacked;
    /** The client's SETTINGS_INITIAL_WINDOW_SIZE: each new stream's send window. */
    private long peerInitialWindow = H2.DEFAULT_WINDOW;
    /** The stream DATA bytes go to, or null when they are dropped. */
    private Http2Stream dataTarget;

    RequestStreams(Http2Connection conn, Wire wire, Http2Shared shared, FrameWriter frames, ResponseSender sender,
            FloodGuard flood, int connWindowTarget) {
        this.conn = conn;
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.frames = frames;
        this.sender = sender;
        this.flood = flood;
        this.connWindowTarget = connWindowTarget;
        this.connRecvWindow = Math.max(H2.DEFAULT_WINDOW, connWindowTarget);
        this.fields = new RequestFields(h2.maxHeaderListSize(), shared.options.maxHeaders());
        this.maxBody = shared.options.maxBodySize();
        this.bodyNanos = shared.options.bodyReadTimeout().toNanos();
        this.queueNanos = shared.options.requestQueueTimeout().toNanos();
        this.writeNanos = shared.options.writeTimeout().toNanos();
        this.blockCap = 2 * h2.maxHeaderListSize();
    }

    /** Streams open now. */
    int open() {
        return streams.size();
    }

    /** The highest stream id the client opened (what a GOAWAY names). */
    int lastClientStream() {
        return lastClientStream;
    }

    /** When the header block in progress began. */
    long blockStarted() {
        return blockStarted;
    }

    // ---- header blocks ------------------------------------------------------------------------

    void headers(int stream, boolean endStream, int dependency) {
        blockLen = 0;
        blockEndStream = endStream;
        blockDependency = dependency;
        blockStarted = wire.clock();
    }

    void headerBytes(byte[] a, int off, int len) throws Http2Exception {
        if (blockLen + len > blockCap) {
            // HPACK cannot skip part of a block: the only safe answer to a flood is to stop the connection
            throw new Http2Exception(H2.ENHANCE_YOUR_CALM, "header block larger than " + blockCap + " bytes");
        }
        if (blockLen + len > block.length) {
            block = java.util.Arrays.copyOf(block, Math.max(blockLen + len, block.length * 2));
        }
        System.arraycopy(a, off, block, blockLen, len);
        blockLen += len;
    }

    void headersEnd(int stream) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        try {
            if (s != null) {
                trailers(s);
            } else if (stream <= lastClientStream) {
                decode(false); // keeps the HPACK state in step
                if (!wasResetByUs(stream)) {
                    throw new Http2Exception(H2.STREAM_CLOSED, "HEADERS on closed stream " + stream);
                }
            } else {
                newStream(stream);
            }
        } finally {
            if (block.length > 16 * 1024) {
                block = new byte[1024]; // an idle connection keeps no large block
            }
        }
    }

    private void decode(boolean trailers) throws Http2Exception {
        fields.reset(trailers);
        decoder.decode(block, 0, blockLen, fields);
        fields.finish();
    }

    private void newStream(int id) throws Http2Exception {
        if ((id & 1) == 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "stream " + id + " is even: clients open odd streams");
        }
        lastClientStream = id;
        decode(false);
        if (!conn.serves(id)) {
            return; // after the final GOAWAY: not served, and the client knows it may retry it elsewhere
        }
        if (blockDependency == id) {
            rstClosed(id, H2.PROTOCOL_ERROR, true); // a stream cannot depend on itself (5.3.1)
            return;
        }
        if (streams.size() >= h2.maxConcurrentStreams()) {
            rstClosed(id, H2.REFUSED_STREAM, true);
            return;
        }
        if (fields.malformed() != null) {
            rstClosed(id, H2.PROTOCOL_ERROR, true);
            return;
        }
        Http2Stream s = new Http2Stream(id, conn, peerInitialWindow, h2.initialWindowSize());
        streams.put(id, s);
        int max = shared.options.maxRequestsPerConnection();
        if (max != 0 && ++opened >= max) {
            conn.lastStream(id); // the connection's last request, as HTTP/1.1's Connection: close
        }
        s.headAt = System.nanoTime();
        s.lastInput = wire.clock();
        s.remoteClosed = blockEndStream;
        if (!blockEndStream && shared.bodyRate != null) {
            s.bodyRate = shared.bodyRate.meter(); // a body follows: the client is waited on from now
            s.bodyRate.start(s.lastInput);
        }
        if (fields.tooLarge()) {
            refuse(s, 431, "Request header fields too large");
            return;
        }
        if (fields.isConnect()) {
            refuse(s, 501, "CONNECT is not supported");
            return;
        }
        s.contentLength = fields.contentLength();
        if (s.remoteClosed && s.contentLength > 0) {
            resetStream(s, H2.PROTOCOL_ERROR, true); // content-length promises a body that is not there
            return;
        }
        s.exchange = fields.exchange(s);
        shared.app.route(s.exchange);
        boolean streamed = !s.remoteClosed && streamsBody(s.exchange);
        s.bodyLimit = bodyLimit(s.exchange, streamed);
        if (s.contentLength > s.bodyLimit) {
            refuse(s, 413, "Request body is larger than " + s.bodyLimit + " bytes");
            return;
        }
        if (streamed) {
            openStreamed(s, fields.expectContinue());
        } else if (s.remoteClosed) {
            admit(s);
        } else if (fields.expectContinue()) {
            sender.interim100(s); // the body is read whole before its handler: let it come at once
        }
    }

    /** A second header block on an open stream: its trailers, which must end it. */
    private void trailers(Http2Stream s) throws Http2Exception {
        decode(true);
        if (s.remoteClosed) {
            resetStream(s, H2.STREAM_CLOSED, true);
        } else if (!blockEndStream || fields.malformed() != null) {
            resetStream(s, H2.PROTOCOL_ERROR, true);
        } else {
            s.remoteClosed = true;
            if (s.localClosed) {
                sent(s); // an early answer went out: the stream can close now
            } else {
                requestWhole(s);
            }
        }
    }

    // ---- other frames on streams --------------------------------------------------------------

    void priority(int stream, int dependency) throws Http2Exception {
        FloodGuard.enforce(flood.control(wire.clock()));
        if (dependency == stream) {
            streamError(stream, H2.PROTOCOL_ERROR);
        }
        // otherwise ignored: RFC 9113 lets a server ignore priorities (5.3)
    }

    void rstStream(int stream, int code) throws Http2Exception {
        if (stream > lastClientStream) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "RST_STREAM on an idle stream");
        }
        Http2Stream s = streams.get(stream);
        if (s != null) {
            closeStream(s);
            FloodGuard.enforce(flood.reset(wire.clock()));
        }
    }

    void streamError(int stream, int code) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        if (s != null) {
            resetStream(s, code, true);
        } else {
            rstClosed(stream, code, true);
        }
    }

    /** A WINDOW_UPDATE for a stream: more of its answer may go out. */
    void windowUpdate(int stream, int increment) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        if (s == null) {
            if (stream > lastClientStream) {
                throw new Http2Exception(H2.PROTOCOL_ERROR, "WINDOW_UPDATE on an idle stream");
            }
            return; // a closed stream: it may have been in flight
        }
        if (increment == 0) {
            resetStream(s, H2.PROTOCOL_ERROR, true);
            return;
        }
        s.sendWindow += increment;
        if (s.sendWindow > H2.MAX_WINDOW) {
            resetStream(s, H2.FLOW_CONTROL_ERROR, true);
            return;
        }
        if (s.sendWindow > 0) {
            s.blockedSince = 0;
            sender.schedule(s);
        }
    }

    /** The client's SETTINGS_INITIAL_WINDOW_SIZE: every stream's window moves by the change (6.9.2). */
    void peerInitialWindow(int value) throws Http2Exception {
        long delta = value - peerInitialWindow;
        peerInitialWindow = value;
        if (delta == 0) {
            return;
        }
        Http2Exception[] overflow = new Http2Exception[1];
        streams.forEach(s -> {
            s.sendWindow += delta;
            if (s.sendWindow > H2.MAX_WINDOW) {
                overflow[0] = new Http2Exception(H2.FLOW_CONTROL_ERROR, "a stream window above 2^31-1");
            } else if (s.sendWindow > 0) {
                s.blockedSince = 0;
                sender.schedule(s);
            }
        });
        if (overflow[0] != null) {
            throw overflow[0];
        }
    }

    // ---- DATA ---------------------------------------------------------------------------------

    void dataFrame(int stream, int length, boolean endStream) throws Http2Exception {
        if (length > connRecvWindow) {
            throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "DATA beyond the connection's window");
        }
        connRecvWindow -= length;
        connRecvUnacked += length;
        dataTarget = null;
        Http2Stream s = streams.get(stream);
        if (s == null) {
            if (stream > lastClientStream) {
                throw new Http2Exception(H2.PROTOCOL_ERROR, "DATA on an idle stream");
            }
            if (!wasResetByUs(stream)) {
                rstClosed(stream, H2.STREAM_CLOSED, false);
                FloodGuard.enforce(flood.control(wire.clock()));
            }
            return;
        }
        if (s.remoteClosed) {
            resetStream(s, H2.STREAM_CLOSED, true);
            return;
        }
        if (length > s.recvWindow) {
            resetStream(s, H2.FLOW_CONTROL_ERROR, true);
            return;
        }
        s.recvWindow -= length;
        if (length == 0 && !endStream) {
            FloodGuard.enforce(flood.control(wire.clock()));
        }
        dataTarget = s;
    }

    void data(byte[] a, int off, int len) {
        Http2Stream s = dataTarget;
        if (s == null || s.closed || s.localClosed) {
            return; // an answer is out already (413, 408): the rest of the body is dropped
        }
        s.received += len;
        if (s.bodyRate != null) {
            s.bodyRate.add(len, wire.clock());
        }
        if (s.contentLength >= 0 && s.received > s.contentLength) {
            dataTarget = null;
            resetStream(s, H2.PROTOCOL_ERROR, true); // more than content-length said (8.1.1)
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
            refuse(s, e.status(), e.getMessage());
        }
    }

    /**
     * The most body bytes {@code ex} may carry: its route's own limit, else {@code max-body-size}; a body
     * is collected whole on HTTP/2 (a streamed route's too), so never more than the budget can hold.
     */
    private long bodyLimit(Exchange ex, boolean streamed) {
        CompiledRoute r = ex.route();
        long limit = r != null && r.maxBodySize() != CompiledRoute.SERVER_LIMIT ? r.maxBodySize()
                : streamed ? Long.MAX_VALUE : maxBody;
        return streamed ? limit : shared.http1.bodies().bufferedLimit(limit);
    }

    /** Whether {@code ex}'s body goes to its handler as it arrives: a streamed route off the blocking engine. */
    private boolean streamsBody(Exchange ex) {
        CompiledRoute r = ex.route();
        return r != null && r.streamBody() && !wire.blocking();
    }

    /**
     * Dispatches {@code s} with its headers, its body to come through a {@link BodyStream} of the
     * stream's window, reserved from the memory budget (503 when it cannot be).
     */
    private void openStreamed(Http2Stream s, boolean expectContinue) {
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
        admit(s);
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
        }
    }

    /** A streamed body cannot go on: its reader fails with {@code status}, and the stream is reset after the answer. */
    private void failStreamed(Http2Stream s, int status, String message) {
        dataTarget = null;
        s.streamed.fail(new HttpException(status, message));
        if (s.localClosed) {
            resetStream(s, H2.CANCEL, false);
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
            } else if (s.windowWanted) {
                openWindow(s);
            }
            return;
        }
        s.remoteClosed = true;
        if (s.localClosed) {
            sent(s); // an early answer went out: the stream can close now
        } else {
            requestWhole(s);
        }
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
    private void dropBody(Http2Stream s) {
        if (s.body != null) {
            s.body.abort();
            s.body = null;
        }
    }

    /** The request's body is whole: checks it against content-length and hands it to the app. */
    private void requestWhole(Http2Stream s) {
        if (s.contentLength >= 0 && s.received != s.contentLength) {
            if (s.streamed != null) {
                s.streamed.fail(new HttpException(400, "Request body shorter than its content-length"));
            }
            resetStream(s, H2.PROTOCOL_ERROR, true);
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
                refuse(s, e.status(), e.getMessage());
                return;
            }
            s.body = null;
        }
        admit(s);
    }

    // ---- to the app ---------------------------------------------------------------------------

    /**
     * The in-flight limit, per stream as per HTTP/1.1 request: a slot now, a place in the queue (the
     * grant dispatches it), or 503 at once. A route that is never shed skips it.
     */
    private void admit(Http2Stream s) {
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

    private void shed(Http2Stream s, ServerStats.ShedReason reason) {
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
            shared.app.runInline(ex); // the blocking engine: this thread is the handler's, as for HTTP/1.1
        } else {
            shared.app.dispatch(ex);
        }
    }

    /** The engine's own answer on {@code s}; when the request is still coming, the stream is reset after it. */
    private void refuse(Http2Stream s, int status, String message) {
        s.resetAfterResponse = !s.remoteClosed;
        sender.refusal(s, StreamRecorder.REFUSED, status, message);
    }

    /** The handler's answer on {@code s}: sent, or the stream reset when it cannot be. */
    void answer(Http2Stream s, Exchange ex) {
        if (!sender.answer(s, ex)) {
            sender.refusal(s, StreamRecorder.REFUSED, 500, "Response headers too large");
        }
    }

    /** The response's END_STREAM is queued: the stream closes when the request is over too. */
    void sent(Http2Stream s) {
        s.localClosed = true;
        if (s.remoteClosed) {
            closeStream(s);
        } else if (s.resetAfterResponse || s.streamed != null) {
            frames.rstStream(s.id, H2.NO_ERROR); // "stop sending the body" (8.1)
            rememberReset(s.id);
            closeStream(s);
        }
    }

    // ---- resets and ends ----------------------------------------------------------------------

    /** Resets {@code s} with {@code code}; {@code clientFault}: counted against the reset cap. */
    void resetStream(Http2Stream s, int code, boolean clientFault) {
        frames.rstStream(s.id, code);
        rememberReset(s.id);
        closeStream(s);
        if (clientFault && flood.reset(wire.clock())) {
            conn.connectionError(H2.ENHANCE_YOUR_CALM, "too many resets");
        }
    }

    /** Resets a stream this side keeps no state for. */
    private void rstClosed(int id, int code, boolean clientFault) throws Http2Exception {
        frames.rstStream(id, code);
        rememberReset(id);
        if (clientFault) {
            FloodGuard.enforce(flood.reset(wire.clock()));
        }
    }

    private void rememberReset(int id) {
        resetByUs[resetCursor] = id;
        resetCursor = (resetCursor + 1) % RESET_MEMORY;
    }

    private boolean wasResetByUs(int id) {
        for (int r : resetByUs) {
            if (r == id) {
                return true;
            }
        }
        return false;
    }

    private void closeStream(Http2Stream s) {
        if (s.closed) {
            return;
        }
        s.closed = true;
        s.localClosed = true;
        streams.remove(s.id);
        dropBody(s);
        if (s.streamed != null) {
            s.streamed.fail(new ClientDisconnectedException("the stream closed before its request body ended"));
            s.streamed = null;
        }
        if (s.handed != null) {
            s.handed.release(); // the connection's hold; the handler lets go of its own
            s.handed = null;
        }
        sender.release(s);
        if (s.ticket != null) {
            s.ticket.abandon(shared.admission); // if a grant won the race, granted() passes the slot on
            s.ticket = null;
        }
        if (dataTarget == s) {
            dataTarget = null;
        }
        if (streams.size() == 0) {
            conn.lastStreamClosed();
        }
    }

    /** Every stream ends with the connection. */
    void closeAll() {
        streams.forEach(this::closeStream);
        streams.clear();
        dataTarget = null;
    }

    /**
     * The streams' deadlines: a body that stopped coming (408), a wait in the admission queue (503),
     * a window the client kept shut for {@code write-timeout} (reset).
     */
    void timers(long now) {
        streams.forEach(s -> {
            if (!s.remoteClosed && !s.localClosed && !s.dispatched && now - s.lastInput > bodyNanos) {
                wire.counters().timedOut();
                dropBody(s);
                refuse(s, 408, "Request body read timeout");
            } else if (!s.remoteClosed && !s.localClosed && !s.dispatched && s.bodyRate != null
                    && s.bodyRate.tooSlow(now)) {
                wire.counters().slowBody();
                dropBody(s);
                refuse(s, 408, "Request body arrives below the minimum data rate");
            } else if (s.streamed != null && !s.remoteClosed && s.recvWindow > 0 && now - s.lastInput > bodyNanos) {
                // the client stopped sending with room to send: not the handler's slowness, its own
                wire.counters().timedOut();
                s.lastInput = now;
                failStreamed(s, 408, "Request body read timeout");
            } else if (s.ticket != null && now - s.queuedAt > queueNanos) {
                if (s.ticket.abandon(shared.admission)) {
                    s.ticket = null;
                    shed(s, ServerStats.ShedReason.QUEUE_TIMEOUT);
                }
            } else if (s.blockedSince != 0 && now - s.blockedSince > writeNanos) {
                wire.counters().timedOut(); // the client kept the stream's window shut for write-timeout
                resetStream(s, H2.CANCEL, false);
            }
        });
        long connBlocked = sender.connBlockedSince();
        if (connBlocked != 0 && now - connBlocked > writeNanos) {
            wire.counters().timedOut(); // the connection's window: every stream waiting for it is reset
            for (Http2Stream s : sender.ready().toArray(new Http2Stream[0])) {
                if (!s.closed) {
                    resetStream(s, H2.CANCEL, false);
                }
            }
        }
    }
}
