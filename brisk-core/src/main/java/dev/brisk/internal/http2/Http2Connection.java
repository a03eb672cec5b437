package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.TlsInfo;
import dev.brisk.internal.http.BodyBuffer;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http1.LingeringClose;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

/**
 * HTTP/2 (RFC 9113) on one {@link Wire}: the connection's state machine. Frames come in through a
 * {@link FrameReader}; a header block is decoded by the connection's {@link HpackDecoder} into
 * {@link RequestFields}, and a valid request becomes an {@link Http2Stream} whose {@link Exchange}
 * goes to the app once its body is whole, dispatched as an HTTP/1.1 request is (on the blocking
 * engine right on this thread). Answers go out through the {@link ResponseSender}; control frames
 * through the {@link FrameWriter}; a {@link FloodGuard} caps what a client can make it do for nothing.
 *
 * <pre>
 *   (open: SETTINGS sent) ─▶ PREFACE ──24 bytes of preface──▶ OPEN ──────────────────────────────────┐
 *                              │ wrong bytes, timeout             │ drain(): GOAWAY(2^31-1) + PING     │
 *                              ▼                                  ▼  (ack or drain-grace)             │
 *                            CLOSED ◀── close(), I/O error,    DRAINING ─▶ GOAWAY(last stream id) ───┤
 *                                       end of stream              (streams finish; none left)       │
 *   connection error: GOAWAY(code) ──▶ CLOSING (output flushed) ──▶ lingering close ◀─────────────────┘
 *   idle for idle-timeout: GOAWAY(NO_ERROR) ──▶ lingering close
 * </pre>
 *
 * <p>Threads: every method on the wire's loop thread, except {@link #execute}, {@link #inLoop},
 * {@link #remoteAddress} and {@link #tls}.
 */
final class Http2Connection implements Protocol, FrameReader.Listener {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final int PREFACE = 0;
    private static final int OPEN = 1;
    /** A GOAWAY for an error is on its way out: nothing more is read or served. */
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;
    /** The payload of the PING that measures the drain's round trip. */
    private static final long DRAIN_PING = 0x6272_6973_6b2d_6472L;
    /** How often a blocking loop looks at the timers while streams are open. */
    private static final long TICK_NANOS = 100_000_000L;
    /** How many streams reset by this side are remembered: frames the client sent before it saw the reset are ignored. */
    private static final int RESET_MEMORY = 64;

    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final FrameReader reader;
    private final HpackDecoder decoder = new HpackDecoder(H2.DEFAULT_HEADER_TABLE_SIZE);
    private final RequestFields fields;
    private final Http2Output out;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final StreamMap streams = new StreamMap();
    private final FloodGuard flood;
    private final long writeNanos;
    private final long idleNanos;
    private final long headerNanos;
    private final long bodyNanos;
    private final int blockCap;
    private final int connWindowTarget;
    private final long maxBody;

    private int state = PREFACE;
    private ByteBuffer in; // write mode: unread bytes from inStart to position
    private int inStart;
    private int prefaceSeen;
    private final long prefaceDeadline;

    // the header block being received
    private byte[] block = new byte[1024];
    private int blockLen;
    private boolean blockEndStream;
    private int blockDependency;
    private long blockStarted;

    /** The highest stream id the client opened. */
    private int lastClientStream;
    private final int[] resetByUs = new int[RESET_MEMORY];
    private int resetCursor;

    // flow control of what the client sends
    private int connRecvWindow = H2.DEFAULT_WINDOW;
    private int connRecvUnacked;
    private long peerInitialWindow = H2.DEFAULT_WINDOW;
    /** The stream DATA bytes go to, or null when they are dropped. */
    private Http2Stream dataTarget;

    // lifecycle
    private boolean draining;
    private boolean goAwayFinal;
    private int goAwayLast = Integer.MAX_VALUE;
    private long graceEnd;
    private boolean peerGoAway;
    private long idleSince;
    /** When a blocking loop next checks the timers while streams are open (see {@link #nextDeadline}). */
    private long tickAt;
    private boolean flushQueued;
    /** An event is being handled: it writes at its end, so an answer made meanwhile needs no flush task. */
    private boolean inEvent;
    private volatile boolean closedFlag;
    private final Runnable flushTask = this::flushTask;

    Http2Connection(Wire wire, Http2Shared shared, ByteBuffer buffered) {
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.writeNanos = shared.options.writeTimeout().toNanos();
        this.idleNanos = shared.options.idleTimeout().toNanos();
        this.headerNanos = shared.options.headerReadTimeout().toNanos();
        this.bodyNanos = shared.options.bodyReadTimeout().toNanos();
        this.maxBody = shared.options.maxBodySize();
        this.blockCap = 2 * h2.maxHeaderListSize();
        this.connWindowTarget = (int) Math.min(H2.MAX_WINDOW, 4L * Math.max(H2.DEFAULT_WINDOW, h2.initialWindowSize()));
        this.reader = new FrameReader(this, h2.maxFrameSize());
        this.fields = new RequestFields(h2.maxHeaderListSize(), shared.options.maxHeaders());
        this.out = new Http2Output(wire);
        this.frames = new FrameWriter(out);
        this.sender = new ResponseSender(this, frames, out, new StreamRecorder(wire, shared.accessLog),
                wire.blocking(), shared.options.requestIds());
        long now = wire.clock();
        this.flood = new FloodGuard(h2.maxConcurrentStreams(), now);
        this.prefaceDeadline = now + headerNanos;
        this.idleSince = now;
        // the server's preface: SETTINGS first, then the connection's larger window
        int[] settings = h2.maxFrameSize() != H2.MIN_MAX_FRAME_SIZE
                ? new int[] {H2.SETTINGS_MAX_CONCURRENT_STREAMS, h2.maxConcurrentStreams(),
                        H2.SETTINGS_INITIAL_WINDOW_SIZE, h2.initialWindowSize(),
                        H2.SETTINGS_MAX_HEADER_LIST_SIZE, h2.maxHeaderListSize(),
                        H2.SETTINGS_MAX_FRAME_SIZE, h2.maxFrameSize()}
                : new int[] {H2.SETTINGS_MAX_CONCURRENT_STREAMS, h2.maxConcurrentStreams(),
                        H2.SETTINGS_INITIAL_WINDOW_SIZE, h2.initialWindowSize(),
                        H2.SETTINGS_MAX_HEADER_LIST_SIZE, h2.maxHeaderListSize()};
        frames.settings(settings);
        if (connWindowTarget > H2.DEFAULT_WINDOW) {
            frames.windowUpdate(0, connWindowTarget - H2.DEFAULT_WINDOW);
            connRecvWindow = connWindowTarget;
        }
        if (buffered != null && buffered.hasRemaining()) {
            holdInput();
            if (in.remaining() < buffered.remaining()) {
                ByteBuffer bigger = ByteBuffer.allocate(buffered.remaining() + in.capacity());
                wire.inPool().release(in);
                in = bigger;
            }
            in.put(buffered);
        }
        wire.readInterest(true);
        // the bytes already read (and our SETTINGS) must not wait for a readiness event that may never come
        wire.execute(() -> {
            if (state != CLOSED) {
                inEvent = true;
                process();
                releaseInputIfEmpty();
                afterEvent();
            }
        });
    }

    // ---- the transport's events ----------------------------------------------------------------

    @Override
    public void onReadable() {
        if (state == CLOSED) {
            return;
        }
        inEvent = true;
        for (int round = 0; round < 8; round++) {
            holdInput();
            int n;
            try {
                n = wire.read(in);
            } catch (IOException e) {
                close();
                return;
            }
            if (n < 0) {
                onEof();
                return;
            }
            if (n == 0) {
                break;
            }
            wire.counters().bytesIn(n);
            process();
            if (state == CLOSED || in == null || in.hasRemaining() || wire.blocking()) {
                break; // the buffer was not filled: nothing more is likely waiting
            }
        }
        releaseInputIfEmpty();
        afterEvent();
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (state == CLOSED) {
            return;
        }
        if (n < 0) {
            onEof();
            return;
        }
        inEvent = true;
        holdInput();
        in.put(src, 0, n);
        wire.counters().bytesIn(n);
        process();
        releaseInputIfEmpty();
        afterEvent();
    }

    @Override
    public void onWritable() {
        if (state == CLOSED) {
            return;
        }
        afterEvent();
    }

    private void onEof() {
        if (state == OPEN && shared.http1.draining() && !goAwayFinal) {
            // the drain ended an idle read: say so before closing
            frames.goAway(lastClientStream, H2.NO_ERROR, null);
            out.flush();
        }
        close();
    }

    private void holdInput() {
        if (in == null) {
            in = wire.inPool().acquire();
            inStart = 0;
        } else if (!in.hasRemaining() && inStart > 0) {
            in.flip().position(inStart);
            in.compact();
            inStart = 0;
        }
    }

    private void releaseInputIfEmpty() {
        if (in != null && in.position() == inStart) {
            wire.inPool().release(in);
            in = null;
            inStart = 0;
        }
    }

    /** Consumes the frames buffered, as far as they go. */
    private void process() {
        if (in == null) {
            return;
        }
        if (state >= CLOSING) {
            in.position(inStart); // closing: what still arrives is dropped
            return;
        }
        byte[] a = in.array();
        int end = in.position();
        try {
            if (state == PREFACE) {
                int n = Math.min(H2.PREFACE.length - prefaceSeen, end - inStart);
                for (int i = 0; i < n; i++) {
                    if (a[inStart + i] != H2.PREFACE[prefaceSeen + i]) {
                        throw new Http2Exception(H2.PROTOCOL_ERROR, "invalid connection preface");
                    }
                }
                prefaceSeen += n;
                inStart += n;
                if (prefaceSeen < H2.PREFACE.length) {
                    return;
                }
                state = OPEN;
            }
            inStart = reader.read(a, inStart, end);
        } catch (Http2Exception e) {
            connectionError(e.code, e.getMessage());
        }
    }

    /** After an event: makes DATA while the windows allow, writes, and sets the next deadline. */
    private void afterEvent() {
        inEvent = false;
        if (state == CLOSED) {
            return;
        }
        long now = wire.clock();
        for (int round = 0; ; round++) {
            if (state == OPEN) {
                sender.sendData(now);
            }
            if (!out.flush()) {
                close();
                return;
            }
            if (state != OPEN || out.pending() > 0 || !sender.hasWork()) {
                break;
            }
            if (!wire.blocking() && round == 64) {
                wire.writeInterest(true); // more to send: go on after the loop's other connections
                break;
            }
        }
        if (state == CLOSING && out.pending() == 0) {
            lingerClose();
            return;
        }
        if (state == OPEN) {
            maybeFinish();
        }
        if (state != CLOSED && wire.blocking()) {
            wire.deadline(nextDeadline(now));
        }
    }

    private long nextDeadline(long now) {
        if (state == PREFACE) {
            return prefaceDeadline;
        }
        if (out.pending() > 0 || streams.size() > 0 || reader.inHeaderBlock() || state == CLOSING) {
            // a fixed beat, not pushed back by every read that ends with nothing: onTimer moves it on
            if (tickAt == 0 || tickAt - now > TICK_NANOS) {
                tickAt = now + TICK_NANOS;
            }
            return tickAt;
        }
        if (draining && !goAwayFinal) {
            return graceEnd;
        }
        return idleSince + idleNanos;
    }

    /** Writes what responses queued from other threads made, once per burst of them. */
    private void flushTask() {
        flushQueued = false;
        afterEvent();
    }

    // ---- frames in: the connection ------------------------------------------------------------

    @Override
    public void setting(int id, int value) throws Http2Exception {
        switch (id) {
            case H2.SETTINGS_HEADER_TABLE_SIZE -> sender.encoder().peerTableSize(value < 0 ? Integer.MAX_VALUE : value);
            case H2.SETTINGS_ENABLE_PUSH -> {
                if (value != 0 && value != 1) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH must be 0 or 1");
                }
            }
            case H2.SETTINGS_INITIAL_WINDOW_SIZE -> {
                if (value < 0) {
                    throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1");
                }
                long delta = value - peerInitialWindow;
                peerInitialWindow = value;
                if (delta != 0) {
                    windowsChanged(delta);
                }
            }
            case H2.SETTINGS_MAX_FRAME_SIZE -> {
                if (value < H2.MIN_MAX_FRAME_SIZE || value > H2.MAX_MAX_FRAME_SIZE) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE out of range");
                }
                frames.peerMaxFrame(value);
            }
            default -> {
                // SETTINGS_MAX_CONCURRENT_STREAMS limits pushes, which this server never makes;
                // SETTINGS_MAX_HEADER_LIST_SIZE is advisory; unknown settings are ignored (6.5.2)
            }
        }
    }

    /** The client's initial window changed by {@code delta}: every stream's window moves with it (6.9.2). */
    private void windowsChanged(long delta) throws Http2Exception {
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

    @Override
    public void settingsEnd(boolean ack) throws Http2Exception {
        if (ack) {
            return;
        }
        calm(flood.control(wire.clock()));
        frames.settingsAck();
    }

    @Override
    public void ping(boolean ack, long payload) throws Http2Exception {
        if (ack) {
            if (payload == DRAIN_PING && draining && !goAwayFinal) {
                finalGoAway(); // a round trip since the first GOAWAY: what the client sent before it is here
            }
            return;
        }
        calm(flood.control(wire.clock()));
        frames.ping(true, payload);
    }

    @Override
    public void goAway(int lastStream, int code) {
        peerGoAway = true; // no new streams will come; those in flight finish
    }

    @Override
    public void unknownFrame(int type) throws Http2Exception {
        calm(flood.control(wire.clock()));
    }

    @Override
    public void emptyContinuation() throws Http2Exception {
        calm(flood.control(wire.clock()));
    }

    @Override
    public void windowUpdate(int stream, int increment) throws Http2Exception {
        if (stream == 0) {
            if (increment == 0) {
                throw new Http2Exception(H2.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 for the connection");
            }
            if (!sender.connWindowUpdate(increment)) {
                throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "connection window above 2^31-1");
            }
            return;
        }
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

    // ---- frames in: streams -------------------------------------------------------------------

    @Override
    public void headers(int stream, boolean endStream, int dependency) {
        blockLen = 0;
        blockEndStream = endStream;
        blockDependency = dependency;
        blockStarted = wire.clock();
    }

    @Override
    public void headerBytes(byte[] a, int off, int len) throws Http2Exception {
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

    @Override
    public void headersEnd(int stream) throws Http2Exception {
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
        if (goAwayFinal && id > goAwayLast) {
            return; // after the final GOAWAY: not served, the client knows to retry it
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
        Http2Stream s = new Http2Stream(id, this, peerInitialWindow, h2.initialWindowSize());
        streams.put(id, s);
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
        if (s.contentLength > maxBody) {
            refuse(s, 413, "Request body is larger than " + maxBody + " bytes");
            return;
        }
        if (s.remoteClosed) {
            dispatch(s);
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

    @Override
    public void priority(int stream, int dependency) throws Http2Exception {
        calm(flood.control(wire.clock()));
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
            calm(flood.reset(wire.clock()));
        }
    }

    @Override
    public void streamError(int stream, int code) throws Http2Exception {
        Http2Stream s = streams.get(stream);
        if (s != null) {
            resetStream(s, code, true);
        } else {
            rstClosed(stream, code, true);
        }
    }

    @Override
    public void dataFrame(int stream, int length, boolean endStream) throws Http2Exception {
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
                calm(flood.control(wire.clock()));
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
            calm(flood.control(wire.clock()));
        }
        dataTarget = s;
    }

    @Override
    public void data(int stream, byte[] a, int off, int len) throws Http2Exception {
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
        try {
            if (s.body == null) {
                // drawn from the server's body budget like an HTTP/1.1 body: held, or spooled past the threshold
                dev.brisk.internal.body.BodyWriter w = new dev.brisk.internal.body.BodyWriter(shared.http1.bodies());
                if (s.contentLength > maxBody) {
                    throw new HttpParseException(413, "Request body is larger than " + maxBody + " bytes");
                }
                if (w.begin(s.contentLength, maxBody) != null) {
                    refuse(s, 503, "Service Unavailable: no request-body memory free, retry shortly");
                    return;
                }
                s.body = w;
            }
            s.body.append(a, off, len);
        } catch (HttpParseException e) {
            if (s.body != null) {
                s.body.abort();
                s.body = null;
            }
            refuse(s, e.status(), e.getMessage());
        }
    }

    @Override
    public void dataEnd(int stream, boolean endStream) throws Http2Exception {
        Http2Stream s = dataTarget;
        dataTarget = null;
        ackConnectionWindow();
        if (s == null || s.closed) {
            return;
        }
        s.lastInput = wire.clock();
        if (!endStream) {
            ackStreamWindow(s);
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

    /** The request's body is whole: checks it against content-length and hands it to the app. */
    private void requestWhole(Http2Stream s) {
        if (s.contentLength >= 0 && s.received != s.contentLength) {
            resetStream(s, H2.PROTOCOL_ERROR, true);
            return;
        }
        dispatch(s);
    }

    private void dispatch(Http2Stream s) {
        Exchange ex = s.exchange;
        if (s.body != null) {
            try {
                s.handed = s.body.finish();
            } catch (HttpParseException e) {
                s.body = null;
                refuse(s, e.status(), e.getMessage());
                return;
            }
            s.body = null;
            ex.setBody(s.handed);
        }
        s.dispatched = true;
        if (wire.blocking()) {
            shared.app.runInline(ex); // the blocking engine: this thread is the handler's, as for HTTP/1.1
        } else {
            shared.app.dispatch(ex);
        }
    }

    // ---- answers ------------------------------------------------------------------------------

    /** The handler's answer on {@code s} is ready. Loop thread. */
    void respond(Http2Stream s, Exchange ex) {
        if (state >= CLOSING || s.closed || s.responded) {
            Exchange.closeQuietly(ex.responseStream());
            ex.release();
            return;
        }
        try {
            if (!sender.answer(s, ex)) {
                sender.refusal(s, StreamRecorder.REFUSED, 500, "Response headers too large");
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "writing an HTTP/2 response failed", e);
            if (!s.responded) {
                resetStream(s, H2.INTERNAL_ERROR, false);
            } else {
                connectionError(H2.INTERNAL_ERROR, "internal error");
            }
        }
        if (!inEvent && !flushQueued) {
            flushQueued = true;
            wire.execute(flushTask); // after the other answers already queued: one write for all
        }
    }

    /** The engine's own answer on {@code s}; when the request is still coming, the stream is reset after it. */
    private void refuse(Http2Stream s, int status, String message) {
        s.resetAfterResponse = !s.remoteClosed;
        sender.refusal(s, StreamRecorder.REFUSED, status, message);
    }

    /** The response's END_STREAM is queued: the stream closes when the request is over too. */
    void sent(Http2Stream s) {
        s.localClosed = true;
        if (s.remoteClosed) {
            closeStream(s);
        } else if (s.resetAfterResponse) {
            frames.rstStream(s.id, H2.NO_ERROR); // "stop sending the body" (8.1)
            rememberReset(s.id);
            closeStream(s);
        }
    }

    /** A response body stream failed: the client learns the body is incomplete. */
    void bodyFailed(Http2Stream s) {
        resetStream(s, H2.INTERNAL_ERROR, false);
    }

    void pumped(Http2Stream s, byte[] buf, int n) {
        if (state == CLOSED) {
            return;
        }
        inEvent = true;
        sender.pumped(s, buf, n);
        afterEvent();
    }

    // ---- stream errors and closing -------------------------------------------------------------

    /** Resets {@code s} with {@code code}; {@code clientFault}: counted against the reset cap. */
    private void resetStream(Http2Stream s, int code, boolean clientFault) {
        frames.rstStream(s.id, code);
        rememberReset(s.id);
        closeStream(s);
        if (clientFault) {
            calmQuietly(flood.reset(wire.clock()));
        }
    }

    /** Resets a stream this side keeps no state for. */
    private void rstClosed(int id, int code, boolean clientFault) throws Http2Exception {
        frames.rstStream(id, code);
        rememberReset(id);
        if (clientFault) {
            calm(flood.reset(wire.clock()));
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
        if (s.body != null) {
            s.body.abort(); // a body still arriving: its memory or file back
            s.body = null;
        }
        if (s.handed != null) {
            s.handed.release(); // the connection's hold; the handler lets go of its own
            s.handed = null;
        }
        sender.release(s);
        if (dataTarget == s) {
            dataTarget = null;
        }
        if (streams.size() == 0) {
            idleSince = wire.clock();
        }
    }

    /** Over a flood cap: the connection ends (an exception the reader passes on). */
    private static void calm(boolean over) throws Http2Exception {
        if (over) {
            throw new Http2Exception(H2.ENHANCE_YOUR_CALM, "too many resets or control frames");
        }
    }

    /** As {@link #calm} where no exception can pass: the connection ends here. */
    private void calmQuietly(boolean over) {
        if (over && state == OPEN) {
            connectionError(H2.ENHANCE_YOUR_CALM, "too many resets or control frames");
        }
    }

    /** A connection error: GOAWAY with {@code code}, then the connection closes once it is out. */
    private void connectionError(int code, String message) {
        if (state >= CLOSING) {
            return;
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 connection error " + code + " from "
                + wire.remoteAddress() + ": " + message);
        frames.goAway(lastClientStream, code, message);
        abandonStreams();
        state = CLOSING;
        reader.stop();
        // afterEvent flushes and hands the wire to a lingering close once the GOAWAY is out
    }

    private void abandonStreams() {
        streams.forEach(this::closeStream);
        sender.ready().clear();
        dataTarget = null;
    }

    /** With the final GOAWAY sent (or the client's), closes once no stream is left. */
    private void maybeFinish() {
        if ((goAwayFinal || peerGoAway) && streams.size() == 0 && !reader.inHeaderBlock() && out.pending() == 0) {
            if (!goAwayFinal) {
                frames.goAway(lastClientStream, H2.NO_ERROR, null);
                goAwayFinal = true;
                if (!out.flush() || out.pending() > 0) {
                    state = CLOSING;
                    return;
                }
            }
            lingerClose();
        }
    }

    private void finalGoAway() {
        goAwayFinal = true;
        goAwayLast = lastClientStream;
        frames.goAway(goAwayLast, H2.NO_ERROR, null);
    }

    /** Everything is sent: the output is shut and what the client still sends is read and dropped, briefly. */
    private void lingerClose() {
        release();
        LingeringClose.takeOver(wire, shared.http1, null);
    }

    @Override
    public void onTimer(long now) {
        if (state == CLOSED) {
            return;
        }
        if (out.stalled(now, writeNanos)) {
            wire.counters().timedOut();
            close();
            return;
        }
        if (state == PREFACE) {
            if (now - prefaceDeadline > 0) {
                wire.counters().timedOut();
                close();
            }
            return;
        }
        inEvent = true;
        tickAt = now + TICK_NANOS;
        if (state == OPEN) {
            timers(now);
        }
        afterEvent();
    }

    private void timers(long now) {
        if (reader.inHeaderBlock() && now - blockStarted > headerNanos) {
            wire.counters().timedOut();
            connectionError(H2.PROTOCOL_ERROR, "header block not finished within header-read-timeout");
            return;
        }
        if (draining && !goAwayFinal && now - graceEnd > 0) {
            finalGoAway();
        }
        streams.forEach(s -> {
            if (!s.remoteClosed && !s.localClosed && !s.dispatched && now - s.lastInput > bodyNanos) {
                wire.counters().timedOut();
                refuse(s, 408, "Request body read timeout");
            } else if (!s.remoteClosed && !s.localClosed && !s.dispatched && s.bodyRate != null
                    && s.bodyRate.tooSlow(now)) {
                wire.counters().slowBody();
                refuse(s, 408, "Request body arrives below the minimum data rate");
            } else if (s.blockedSince != 0 && now - s.blockedSince > writeNanos) {
                wire.counters().timedOut(); // the client kept the stream's window shut for write-timeout
                resetStream(s, H2.CANCEL, false);
            }
        });
        long connBlocked = sender.connBlockedSince();
        if (connBlocked != 0 && now - connBlocked > writeNanos) {
            wire.counters().timedOut(); // the connection's window: every waiting stream is reset
            for (Http2Stream s : sender.ready().toArray(new Http2Stream[0])) {
                if (!s.closed) {
                    resetStream(s, H2.CANCEL, false);
                }
            }
        }
        if (streams.size() == 0 && out.pending() == 0 && !reader.inHeaderBlock() && now - idleSince > idleNanos) {
            wire.counters().timedOut();
            frames.goAway(lastClientStream, H2.NO_ERROR, "idle");
            goAwayFinal = true;
            state = CLOSING;
        }
    }

    /**
     * Graceful shutdown: {@code GOAWAY} with the largest stream id and a {@code PING}; once the ping
     * comes back (a round trip: requests the client sent before it saw the GOAWAY are here) or
     * {@code drain-grace} has passed, the final {@code GOAWAY} with the last stream id: no new stream
     * is served after it, and every one before it is answered. The connection closes when none is left.
     */
    @Override
    public void drain() {
        if (state == PREFACE) {
            close();
            return;
        }
        if (state != OPEN || draining) {
            return;
        }
        draining = true;
        long grace = shared.options.drainGrace().toNanos();
        if (grace == 0) {
            finalGoAway();
        } else {
            frames.goAway(Integer.MAX_VALUE, H2.NO_ERROR, null);
            frames.ping(false, DRAIN_PING);
            graceEnd = wire.clock() + grace;
        }
        afterEvent();
    }

    @Override
    public void close() {
        if (state == CLOSED) {
            return;
        }
        release();
        wire.close();
    }

    /** Lets go of everything; the wire stays open for whoever takes it. */
    private void release() {
        state = CLOSED;
        closedFlag = true;
        abandonStreams();
        streams.clear();
        out.close();
        if (in != null) {
            wire.inPool().release(in);
            in = null;
        }
    }

    @Override
    public boolean isClosed() {
        return state == CLOSED;
    }

    @Override
    public boolean idle() {
        return state == OPEN && streams.size() == 0 && out.pending() == 0 && !reader.inHeaderBlock()
                && (in == null || in.position() == inStart);
    }

    @Override
    public boolean holdsInput() {
        return in != null;
    }

    @Override
    public boolean awaitsTask() {
        return false; // on the blocking engine, handlers and body streams run on this thread
    }

    // ---- for streams and pumps -----------------------------------------------------------------

    boolean inLoop() {
        return wire.inLoop();
    }

    /** The loop's clock (see {@link Wire#clock}). Loop thread. */
    long clock() {
        return wire.clock();
    }

    /** Runs {@code task} on the loop. Any thread. */
    void execute(Runnable task) {
        wire.execute(task);
    }

    String remoteAddress() {
        return wire.remoteAddress();
    }

    TlsInfo tls() {
        return wire.tls();
    }

    Executor streamsExecutor() {
        return shared.http1.streams();
    }

    /** Whether the connection is gone, for other threads. */
    boolean gone() {
        return closedFlag;
    }
}
