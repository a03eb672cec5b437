package dev.brisk.internal.http2;

import dev.brisk.Http2Options;
import dev.brisk.TlsInfo;
import dev.brisk.internal.http1.LingeringClose;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

/**
 * HTTP/2 (RFC 9113) on one {@link Wire}: the connection's state machine. Frames come in through a
 * {@link FrameReader}; the connection keeps what is the connection's (the preface, SETTINGS, PING,
 * GOAWAY, its window, its deadlines, the drain) and hands what is a stream's to
 * {@link RequestStreams}, which turns header blocks and DATA into {@link Exchange}s for the app,
 * dispatched as HTTP/1.1 requests are (on the blocking engine right on this thread). Answers go out
 * through the {@link ResponseSender}; frames through the {@link FrameWriter} into one ordered
 * {@link Http2Output}, written at the end of each event; a {@link FloodGuard} caps what a client can
 * make it do for nothing.
 *
 * <pre>
 *   (open: SETTINGS sent) ─▶ PREFACE ──the preface's 24 bytes──▶ OPEN
 *                              │ timeout: closed                   │ drain(): GOAWAY(2^31-1) + PING, then at the
 *                              │                                   │ ping's answer or drain-grace GOAWAY(last id);
 *                              │                                   │ max-requests-per-connection; the client's GOAWAY
 *                              │                                   ▼
 *                              │                  final GOAWAY sent: streams finish; none left ──────────┐
 *                              ▼                                                                          ▼
 *   wrong preface, connection error, idle-timeout: GOAWAY(code) ──▶ CLOSING ──written──▶ lingering close
 *   close(), an I/O error, the end of the stream, a write stall, in any state ──▶ CLOSED
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

    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final FrameReader reader;
    private final Http2Output out;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final RequestStreams streams;
    private final FloodGuard flood;
    private final long writeNanos;
    private final long idleNanos;
    private final long headerNanos;

    private int state = PREFACE;
    private ByteBuffer in; // write mode: unread bytes from inStart to position
    private int inStart;
    private int prefaceSeen;
    private final long prefaceDeadline;

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
    private final Runnable flushTask = this::flushTask;

    Http2Connection(Wire wire, Http2Shared shared, ByteBuffer buffered) {
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.writeNanos = shared.options.writeTimeout().toNanos();
        this.idleNanos = shared.options.idleTimeout().toNanos();
        this.headerNanos = shared.options.headerReadTimeout().toNanos();
        // the connection's window: four streams' worth, so a few uploads at once need not wait for each other
        int connWindowTarget = (int) Math.min(H2.MAX_WINDOW, 4L * Math.max(H2.DEFAULT_WINDOW, h2.initialWindowSize()));
        this.reader = new FrameReader(this, h2.maxFrameSize());
        this.out = new Http2Output(wire);
        this.frames = new FrameWriter(out);
        this.sender = new ResponseSender(this, frames, out, new StreamRecorder(wire, shared.accessLog),
                wire.blocking(), shared.options.requestIds());
        long now = wire.clock();
        this.flood = new FloodGuard(h2.maxConcurrentStreams(), now);
        this.streams = new RequestStreams(this, wire, shared, frames, sender, flood, connWindowTarget);
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
            frames.goAway(streams.lastClientStream(), H2.NO_ERROR, null);
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
        if (out.pending() > 0 || streams.open() > 0 || reader.inHeaderBlock() || state == CLOSING) {
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
                streams.peerInitialWindow(value);
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

    @Override
    public void settingsEnd(boolean ack) throws Http2Exception {
        if (ack) {
            return;
        }
        FloodGuard.enforce(flood.control(wire.clock()));
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
        FloodGuard.enforce(flood.control(wire.clock()));
        frames.ping(true, payload);
    }

    @Override
    public void goAway(int lastStream, int code) {
        peerGoAway = true; // no new streams will come; those in flight finish
    }

    @Override
    public void unknownFrame(int type) throws Http2Exception {
        FloodGuard.enforce(flood.control(wire.clock()));
    }

    @Override
    public void emptyContinuation() throws Http2Exception {
        FloodGuard.enforce(flood.control(wire.clock()));
    }

    @Override
    public void windowUpdate(int stream, int increment) throws Http2Exception {
        if (stream != 0) {
            streams.windowUpdate(stream, increment);
            return;
        }
        if (increment == 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "WINDOW_UPDATE of 0 for the connection");
        }
        if (!sender.connWindowUpdate(increment)) {
            throw new Http2Exception(H2.FLOW_CONTROL_ERROR, "connection window above 2^31-1");
        }
    }

    // ---- frames in: streams (RequestStreams) --------------------------------------------------

    @Override
    public void headers(int stream, boolean endStream, int dependency) {
        streams.headers(stream, endStream, dependency);
    }

    @Override
    public void headerBytes(byte[] a, int off, int len) throws Http2Exception {
        streams.headerBytes(a, off, len);
    }

    @Override
    public void headersEnd(int stream) throws Http2Exception {
        streams.headersEnd(stream);
    }

    @Override
    public void priority(int stream, int dependency) throws Http2Exception {
        streams.priority(stream, dependency);
    }

    @Override
    public void rstStream(int stream, int code) throws Http2Exception {
        streams.rstStream(stream, code);
    }

    @Override
    public void streamError(int stream, int code) throws Http2Exception {
        streams.streamError(stream, code);
    }

    @Override
    public void dataFrame(int stream, int length, boolean endStream) throws Http2Exception {
        streams.dataFrame(stream, length, endStream);
    }

    @Override
    public void data(int stream, byte[] a, int off, int len) {
        streams.data(a, off, len);
    }

    @Override
    public void dataEnd(int stream, boolean endStream) {
        streams.dataEnd(endStream);
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
            streams.answer(s, ex);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "writing an HTTP/2 response failed", e);
            if (!s.responded) {
                streams.resetStream(s, H2.INTERNAL_ERROR, false);
            } else {
                connectionError(H2.INTERNAL_ERROR, "internal error");
            }
        }
        if (!inEvent && !flushQueued) {
            flushQueued = true;
            wire.execute(flushTask); // after the other answers already queued: one write for all
        }
    }

    /** The response's END_STREAM is queued. */
    void sent(Http2Stream s) {
        streams.sent(s);
    }

    /** A response body stream failed: the client learns the body is incomplete. */
    void bodyFailed(Http2Stream s) {
        streams.resetStream(s, H2.INTERNAL_ERROR, false);
    }

    void pumped(Http2Stream s, byte[] buf, int n) {
        if (state == CLOSED) {
            return;
        }
        inEvent = true;
        sender.pumped(s, buf, n);
        afterEvent();
    }

    /** Runs {@code task} as an event of this connection (its writes follow it). Loop thread. */
    void event(Runnable task) {
        if (state == CLOSED) {
            return;
        }
        inEvent = true;
        task.run();
        afterEvent();
    }

    /** Whether the connection still serves its streams. */
    boolean isOpen() {
        return state == OPEN;
    }

    /** Whether stream {@code id} is served: false for one opened after the final GOAWAY. */
    boolean serves(int id) {
        return !goAwayFinal || id <= goAwayLast;
    }

    /** Stream {@code id} is the last one served: the final GOAWAY names it (unless one already went out). */
    void lastStream(int id) {
        if (!goAwayFinal) {
            goAwayFinal = true;
            goAwayLast = id;
            frames.goAway(id, H2.NO_ERROR, null);
        }
    }

    /** No stream is open any more: the idle timeout runs from now. */
    void lastStreamClosed() {
        idleSince = wire.clock();
    }

    /** A connection error: GOAWAY with {@code code}, then the connection closes once it is out. */
    void connectionError(int code, String message) {
        if (state >= CLOSING) {
            return;
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 connection error " + code + " from "
                + wire.remoteAddress() + ": " + message);
        frames.goAway(streams.lastClientStream(), code, message);
        abandonStreams();
        state = CLOSING;
        reader.stop();
        // afterEvent flushes and hands the wire to a lingering close once the GOAWAY is out
    }

    private void abandonStreams() {
        streams.closeAll();
        sender.ready().clear();
    }

    /** With the final GOAWAY sent (or the client's), closes once no stream is left. */
    private void maybeFinish() {
        if ((goAwayFinal || peerGoAway) && streams.open() == 0 && !reader.inHeaderBlock() && out.pending() == 0) {
            if (!goAwayFinal) {
                frames.goAway(streams.lastClientStream(), H2.NO_ERROR, null);
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
        goAwayLast = streams.lastClientStream();
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
        if (reader.inHeaderBlock() && now - streams.blockStarted() > headerNanos) {
            wire.counters().timedOut();
            connectionError(H2.PROTOCOL_ERROR, "header block not finished within header-read-timeout");
            return;
        }
        if (draining && !goAwayFinal && now - graceEnd > 0) {
            finalGoAway();
        }
        streams.timers(now);
        if (streams.open() == 0 && out.pending() == 0 && !reader.inHeaderBlock() && now - idleSince > idleNanos) {
            wire.counters().timedOut();
            frames.goAway(streams.lastClientStream(), H2.NO_ERROR, "idle");
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
        abandonStreams();
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
        return state == OPEN && streams.open() == 0 && out.pending() == 0 && !reader.inHeaderBlock()
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
}
