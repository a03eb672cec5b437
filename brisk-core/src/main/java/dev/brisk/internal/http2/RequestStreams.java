package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;

/**
 * A connection's streams as the client opens them: header blocks become requests, DATA becomes
 * their bodies, and a whole request goes to the app through the in-flight limit. Owns the table of
 * open streams, the stream windows the client gives this side's answers, and every stream's end: its
 * answer sent, a reset either way, a timeout. What the client did that is its stream's fault resets that stream;
 * what cannot be reconciled (a header block on a closed stream, DATA on an idle one, too many resets)
 * is a connection error, thrown or passed to the connection.
 *
 * <p>Its parts: a {@link HeaderBlock} assembles and decodes header blocks; {@link RequestBodies}
 * takes DATA (the flow control of RFC 9113 6.9 in the client's direction) and the bodies it carries;
 * {@link StreamAdmission} hands whole requests to the app; {@link RecentResets} remembers what this
 * side reset, {@link OpenedIds} which lower ids the client skipped; {@link StreamTimers} keeps the
 * streams' deadlines.
 *
 * <p>Loop thread only.
 */
final class RequestStreams implements FrameReader.StreamFrames {
    private final Http2Connection conn;
    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final RequestFields fields;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final FloodGuard flood;
    private final StreamMap streams = new StreamMap();

    private final HeaderBlock block;

    /** The highest stream id the client opened. */
    private int lastClientStream;
    /** Streams opened so far, for {@code max-requests-per-connection}. */
    private int opened;
    /** Streams this side reset lately: frames the client sent before it saw the reset are ignored. */
    private final RecentResets resets = new RecentResets();
    /** Which lower ids the client skipped: HEADERS on one is a protocol error, not a closed stream's. */
    private final OpenedIds openedIds = new OpenedIds();

    /** The client's SETTINGS_INITIAL_WINDOW_SIZE: each new stream's send window. */
    private long peerInitialWindow = H2.DEFAULT_WINDOW;
    private final RequestBodies bodies;
    private final StreamAdmission admission;
    private final StreamTimers timers;

    RequestStreams(Http2Connection conn, Wire wire, Http2Shared shared, FrameWriter frames, ResponseSender sender,
            FloodGuard flood, int connWindowTarget) {
        this.conn = conn;
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.frames = frames;
        this.sender = sender;
        this.flood = flood;
        this.admission = new StreamAdmission(conn, wire, shared, sender);
        this.bodies = new RequestBodies(this, admission, conn, wire, shared, frames, sender, connWindowTarget);
        this.fields = new RequestFields(h2.maxHeaderListSize(), shared.options.maxHeaders(),
                shared.options.maxHeaderSize());
        this.timers = new StreamTimers(this, wire, shared, bodies, admission, sender);
        this.block = new HeaderBlock(2 * h2.maxHeaderListSize());
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
        return block.started();
    }

    // ---- header blocks ------------------------------------------------------------------------

    @Override
    public void headers(int stream, boolean endStream, int dependency) {
        block.begin(endStream, dependency, wire.clock());
    }

    @Override
    public void headerBytes(byte[] a, int off, int len) throws Http2Exception {
        block.append(a, off, len);
    }

    @Override
    public void headersEnd(int stream) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        try {
            if (s != null) {
                trailers(s);
            } else if (stream <= lastClientStream) {
                decode(false); // keeps the HPACK state in step
                if ((stream & 1) == 0) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "stream " + stream + " is even: clients open odd streams");
                }
                if (openedIds.skipped(stream)) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "HEADERS on stream " + stream
                            + ", which was never opened: a new stream's id must be above every earlier one's");
                }
                if (!resets.contains(stream)) {
                    throw new Http2Exception(H2.STREAM_CLOSED, "HEADERS on closed stream " + stream);
                }
                FloodGuard.enforce(flood.control(wire.clock())); // decoded and dropped: work for nothing
            } else {
                newStream(stream);
            }
        } finally {
            block.done();
        }
    }

    private void decode(boolean trailers) throws Http2Exception {
        block.decode(fields, trailers);
    }

    private void newStream(int id) throws Http2Exception {
        if ((id & 1) == 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "stream " + id + " is even: clients open odd streams");
        }
        lastClientStream = id;
        openedIds.open(id);
        decode(false);
        if (!conn.serves(id)) {
            // after the final GOAWAY: not served, and the client knows it may retry it elsewhere; what it
            // still sends on it (DATA, trailers) is ignored like a reset stream's, never a connection error
            resets.add(id);
            return;
        }
        if (block.dependency() == id) {
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
        s.remoteClosed = block.endStream();
        s.head = fields.isHead();
        if (!block.endStream() && shared.bodyRate != null) {
            s.bodyRate = shared.bodyRate.meter(); // a body follows: the client is waited on from now
            s.bodyRate.start(s.lastInput);
        }
        if (fields.tooLarge()) {
            refuse(s, 431, fields.tooLargeWhy());
            return;
        }
        if (fields.requestLineLength() > shared.options.maxRequestLine()) {
            // as an HTTP/1.1 request line would be: the same request is refused alike on both protocols
            refuse(s, 414, "Request target is longer than " + shared.options.maxRequestLine() + " bytes");
            return;
        }
        if (fields.isConnect()) {
            refuse(s, 501, "CONNECT is not supported");
            return;
        }
        if (fields.expectOther()) {
            refuse(s, 417, "Only Expect: 100-continue is supported");
            return;
        }
        s.contentLength = fields.contentLength();
        if (s.remoteClosed && s.contentLength > 0) {
            resetStream(s, H2.PROTOCOL_ERROR, true); // content-length promises a body that is not there
            return;
        }
        s.exchange = fields.exchange(s);
        shared.app.route(s.exchange);
        boolean streamed = !s.remoteClosed && bodies.streamsBody(s.exchange);
        s.bodyLimit = bodies.bodyLimit(s.exchange, streamed);
        if (s.contentLength > s.bodyLimit) {
            refuse(s, 413, "Request body is larger than " + s.bodyLimit + " bytes");
            return;
        }
        if (streamed) {
            bodies.openStreamed(s, fields.expectContinue());
        } else if (s.remoteClosed) {
            admission.admit(s);
        } else if (fields.expectContinue()) {
            sender.interim100(s); // the body is read whole before its handler: let it come at once
        }
    }

    /** A second header block on an open stream: its trailers, which must end it. */
    private void trailers(Http2Stream s) throws Http2Exception {
        decode(true);
        if (s.remoteClosed) {
            resetStream(s, H2.STREAM_CLOSED, true);
        } else if (!block.endStream() || fields.malformed() != null) {
            resetStream(s, H2.PROTOCOL_ERROR, true);
        } else if (fields.tooLarge()) {
            // as HTTP/1.1's trailer section past max-header-size: 431, whatever came before
            s.remoteClosed = true;
            if (s.streamed != null) {
                bodies.failStreamed(s, 431, "Trailer fields too large");
            } else if (!s.responded && !s.localClosed) {
                bodies.dropBody(s);
                refuse(s, 431, "Trailer fields too large");
            } else if (s.localClosed) {
                sent(s);
            }
        } else {
            s.remoteClosed = true;
            if (s.localClosed) {
                sent(s); // an early answer went out: the stream can close now
            } else if (s.streamed != null || !s.responded) {
                bodies.requestWhole(s);
            } // else refused (413, 431, 503...) and its answer not yet all out: it closes when it is; no handler runs
        }
    }

    // ---- other frames on streams --------------------------------------------------------------

    @Override
    public void priority(int stream, int dependency) throws Http2Exception {
        FloodGuard.enforce(flood.control(wire.clock()));
        if (dependency == stream) {
            streamError(stream, H2.PROTOCOL_ERROR);
        }
        // otherwise ignored: RFC 9113 lets a server ignore priorities (5.3)
    }

    @Override
    public void rstStream(int stream, int code) throws Http2Exception {
        if (stream > lastClientStream) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "RST_STREAM on an idle stream");
        }
        Http2Stream s = streams.get(stream);
        if (s != null) {
            closeStream(s);
            FloodGuard.enforce(flood.reset(wire.clock()));
        }
    }

    @Override
    public void streamError(int stream, int code) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        if (s != null) {
            resetStream(s, code, true);
        } else if (stream > lastClientStream) {
            // RST_STREAM may not name an idle stream (RFC 9113 6.4): the error is the connection's (5.4.1 allows it)
            throw new Http2Exception(code, "a stream error on idle stream " + stream);
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

    @Override
    public void dataFrame(int stream, int length, boolean endStream) throws Http2Exception {
        bodies.frameArrives(length);
        Http2Stream s = streams.get(stream);
        if (s == null) {
            if (stream > lastClientStream) {
                throw new Http2Exception(H2.PROTOCOL_ERROR, "DATA on an idle stream");
            }
            if (!resets.contains(stream)) {
                rstClosed(stream, H2.STREAM_CLOSED, false);
                FloodGuard.enforce(flood.control(wire.clock()));
            } else if (length == 0) {
                FloodGuard.enforce(flood.control(wire.clock())); // ignored, but a frame for nothing all the same
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
        if (s.recvWindow == 0 && s.streamed != null && s.bodyRate != null) {
            s.bodyRate.pause(wire.clock()); // the client has no room to send: until the handler reads, it is not waited on
        }
        if (length == 0 && !endStream) {
            FloodGuard.enforce(flood.control(wire.clock()));
        }
        bodies.target(s);
    }

    @Override
    public void data(int stream, byte[] a, int off, int len) {
        bodies.data(a, off, len);
    }

    @Override
    public void dataEnd(int stream, boolean endStream) {
        bodies.dataEnd(endStream);
    }


    // ---- answers ------------------------------------------------------------------------------

    /** The engine's own answer on {@code s}; when the request is still coming, the stream is reset after it. */
    void refuse(Http2Stream s, int status, String message) {
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
            resets.add(s.id);
            closeStream(s);
        }
    }

    // ---- resets and ends ----------------------------------------------------------------------

    /** Resets {@code s} with {@code code}; {@code clientFault}: counted against the reset cap. */
    void resetStream(Http2Stream s, int code, boolean clientFault) {
        frames.rstStream(s.id, code);
        resets.add(s.id);
        closeStream(s);
        if (clientFault && flood.reset(wire.clock())) {
            conn.connectionError(H2.ENHANCE_YOUR_CALM, "too many resets");
        }
    }

    /** Resets a stream this side keeps no state for. */
    private void rstClosed(int id, int code, boolean clientFault) throws Http2Exception {
        frames.rstStream(id, code);
        resets.add(id);
        if (clientFault) {
            FloodGuard.enforce(flood.reset(wire.clock()));
        }
    }

    private void closeStream(Http2Stream s) {
        if (s.closed) {
            return;
        }
        s.closed = true;
        s.localClosed = true;
        streams.remove(s.id);
        bodies.dropBody(s);
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
            s.ticket.abandon(shared.admission); // if a grant won the race, StreamAdmission.granted passes the slot on
            s.ticket = null;
        }
        bodies.forget(s);
        if (streams.size() == 0) {
            conn.lastStreamClosed();
        }
    }

    /** A shutdown began: answers that would never end by themselves (event streams) end after what they sent. */
    void drainBodies() {
        streams.forEach(s -> {
            if (s.source instanceof dev.brisk.internal.web.DrainableBody d) {
                d.drain();
            }
        });
    }

    /**
     * The client's input ended: a stream whose request has not come whole and is not answered yet never
     * will be, and is reset ({@code CANCEL}); a handler still reading a streamed body after answering sees
     * the client gone, and its stream is reset once the answer is out. Whole requests and answers on their
     * way go on.
     */
    void inputEnded() {
        streams.forEach(s -> {
            if (!s.remoteClosed && !s.responded) {
                resetStream(s, H2.CANCEL, false);
            } else if (!s.remoteClosed && s.streamed != null) {
                s.streamed.fail(new ClientDisconnectedException("the client's input ended before its request body did"));
                s.streamed = null;
                s.resetAfterResponse = true;
            }
        });
    }

    /** Every stream ends with the connection. */
    void closeAll() {
        streams.forEach(this::closeStream);
        streams.clear();
        bodies.forget(null);
    }

    /** After the client's input ended: resets the streams whose answers wait for a window ({@link StreamTimers#endBlocked}). */
    boolean endBlocked() {
        return timers.endBlocked(streams);
    }

    /** The streams' deadlines ({@link StreamTimers}). */
    void timers(long now) {
        timers.check(now, streams);
    }
}
