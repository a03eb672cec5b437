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
 * HTTP/2 (RFC 9113) on one {@link Wire}: the connection's state machine (below). Its parts: an
 * {@link Http2Input} holds what is read and checks the client's preface; a {@link FrameReader} hands
 * control frames (SETTINGS, PING, WINDOW_UPDATE, the client's GOAWAY) to {@link ControlFrames} and
 * what is a stream's to {@link RequestStreams}, which turns header blocks and DATA into
 * {@link Exchange}s for the app, dispatched as HTTP/1.1 requests are (on the blocking engine right on
 * this thread). Answers go out through the {@link ResponseSender}; frames through the
 * {@link FrameWriter} into one ordered {@link Http2Output}, written at the end of each event. A
 * {@link FloodGuard} caps what a client can make it do for nothing; {@link Http2Deadlines} keeps the
 * clocks; {@link GoAway} says how the connection ends when nothing went wrong.
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
 *   close(), an I/O error, a write stall, in any state ──▶ CLOSED
 *   the end of the client's stream: OPEN on a selector loop ──▶ final GOAWAY sent, requests not yet whole
 *   reset (those whole are answered, an event stream ended), closed when none is left; CLOSING ──▶ its GOAWAY written, then
 *   closed; otherwise what is queued is written and ──▶ CLOSED
 * </pre>
 *
 * <p>Threads: every method on the wire's loop thread, except {@link #execute}, {@link #inLoop},
 * {@link #remoteAddress} and {@link #tls}. On a blocking wire made duplex ({@link #pumpsOnThisThread})
 * "the loop thread" is whoever holds the wire's turn: posted tasks run on another thread while the
 * connection's own waits in a read, which is why that read's buffer is never released under it.
 */
final class Http2Connection implements Protocol {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final int PREFACE = 0;
    private static final int OPEN = 1;
    /** A GOAWAY for an error is on its way out: nothing more is read or served. */
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;

    private final Wire wire;
    private final Http2Shared shared;
    private final Http2Options h2;
    private final FrameReader reader;
    private final Http2Output out;
    private final FrameWriter frames;
    private final ResponseSender sender;
    private final RequestStreams streams;
    private final FloodGuard flood;
    private final GoAway goAway;
    private final long writeNanos;
    private final Http2Input input;
    private final Http2Deadlines deadlines;

    private int state = PREFACE;
    private boolean flushQueued;
    /** An event is being handled: it writes at its end, so an answer made meanwhile needs no flush task. */
    private boolean inEvent;
    /** A write between inline handlers failed ({@link #flushBetweenHandlers}): close at the event's end. */
    private boolean writeFailed;
    private final Runnable flushTask = this::flushTask;
    /** The client's stream ended on a selector loop: no frame will come, a header block in progress never ends. */
    private boolean inputEnded;
    /** The blocking wire runs posted tasks while this thread waits in a read (see {@link #pumpsOnThisThread}). */
    private boolean duplex;

    Http2Connection(Wire wire, Http2Shared shared, ByteBuffer buffered) {
        this.wire = wire;
        this.shared = shared;
        this.h2 = shared.h2;
        this.writeNanos = shared.options.writeTimeout().toNanos();
        this.input = new Http2Input(wire);
        // the connection's window: four streams' worth, so a few uploads at once need not wait for each other
        int connWindowTarget = (int) Math.min(H2.MAX_WINDOW, 4L * Math.max(H2.DEFAULT_WINDOW, h2.initialWindowSize()));
        this.out = new Http2Output(wire);
        this.frames = new FrameWriter(out);
        this.goAway = new GoAway(frames);
        this.sender = new ResponseSender(this, frames, out, new StreamRecorder(wire, shared.accessLog),
                wire.blocking(), shared.options.requestIds(), shared.responseRate);
        long now = wire.clock();
        this.flood = new FloodGuard(h2.maxConcurrentStreams(), now);
        this.streams = new RequestStreams(this, wire, shared, frames, sender, flood, connWindowTarget);
        ControlFrames control = new ControlFrames(frames, sender, streams, flood, goAway, wire::clock);
        this.reader = new FrameReader(control, streams, h2.maxFrameSize());
        this.deadlines = new Http2Deadlines(shared.options, now);
        control.preface(h2, connWindowTarget);
        input.putFirst(buffered);
        wire.readInterest(true);
        // the bytes already read (and our SETTINGS) must not wait for a readiness event that may never come
        wire.execute(() -> {
            if (state != CLOSED) {
                inEvent = true;
                process();
                input.releaseIfEmpty();
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
            int n;
            try {
                n = input.read();
            } catch (IOException e) {
                close();
                input.release(); // a task may have closed the connection while this thread read
                return;
            }
            if (state == CLOSED) {
                input.release(); // closed by a task while this thread read (a duplex blocking wire)
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
            if (state == CLOSED || !input.filled() || wire.blocking()) {
                break; // the buffer was not filled: nothing more is likely waiting
            }
        }
        input.releaseIfEmpty();
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
        input.put(src, n);
        wire.counters().bytesIn(n);
        process();
        input.releaseIfEmpty();
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
        inEvent = true;
        if (state < CLOSING && !input.empty()) {
            process(); // the bytes handed over with the wire (an h2c preface) may not have been read yet
        }
        if (state == OPEN && !wire.blocking()) {
            // the client sent its last byte (a half-close): what it asked whole is still answered, as on
            // HTTP/1.1; what it left unfinished never will be. A blocking wire answered inline already
            inputEnded = true;
            wire.readInterest(false);
            streams.inputEnded();
            streams.drainBodies(); // an event stream ends, as on HTTP/1.1: a client that ended its side is taken to have gone
            goAway.sendFinal(streams.lastClientStream(), null);
            input.drop(); // part of a frame, which will never be whole
            input.releaseIfEmpty();
            afterEvent(); // closes once no stream is left (maybeFinish)
            return;
        }
        if (state == CLOSING) {
            // a connection error's GOAWAY, and the frames before it, are still to go out: then the close
            wire.readInterest(false);
            input.releaseIfEmpty();
            afterEvent();
            return;
        }
        inEvent = false;
        if (state == OPEN && shared.http1.draining() && !goAway.sentFinal()) {
            // the drain ended an idle read: say so before closing
            goAway.sendFinal(streams.lastClientStream(), null);
        }
        if (state != CLOSED) {
            out.flush(); // what is queued (our SETTINGS, acknowledgements, that GOAWAY) goes before the close
        }
        close();
    }

    /** Consumes the frames buffered, as far as they go. */
    private void process() {
        if (state >= CLOSING) {
            input.drop(); // closing: what still arrives is dropped
            return;
        }
        try {
            if (state == PREFACE) {
                if (!input.preface()) {
                    return;
                }
                state = OPEN;
            }
            input.frames(reader);
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
        if (writeFailed) {
            close(); // a write between inline handlers failed (a later one may not fail again: TLS)
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
        if (state == OPEN && inputEnded && streams.endBlocked() && !out.flush()) {
            close(); // the resets could not be written either
            return;
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
            return deadlines.prefaceDeadline();
        }
        if (out.pending() > 0 || streams.open() > 0 || reader.inHeaderBlock() || state == CLOSING) {
            return deadlines.beat(now);
        }
        if (goAway.inGrace()) {
            return goAway.graceEnd();
        }
        return deadlines.idleEnd();
    }

    /**
     * On a blocking wire, after a handler ran inline while frames are being read: sends what is ready
     * (its answer's frames as the windows allow, PING acks, SETTINGS acks) now. After a failed write
     * (the peer gone, or closed for not reading) no frame after the current one is read, and the
     * event's end ({@link #afterEvent}) closes the connection: not the middle of reading. Loop thread.
     */
    void flushBetweenHandlers() {
        if (state != OPEN || writeFailed) {
            return;
        }
        sender.sendData(wire.clock());
        if (!out.flush()) {
            writeFailed = true;
            reader.stop();
        }
    }

    /** Writes what responses queued from other threads made, once per burst of them. */
    private void flushTask() {
        flushQueued = false;
        afterEvent();
    }

    // ---- answers ------------------------------------------------------------------------------

    /** The handler's answer on {@code s} is ready. Loop thread. */
    void respond(Http2Stream s, Exchange ex) {
        if (state >= CLOSING || s.closed || s.responded) {
            if (!s.responded) {
                sender.dropped(s, ex); // reset by the client, or the connection ends: still one log line, as over HTTP/1.1
            }
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

    /**
     * A body stream of this blocking connection is read by a pump on another thread: from now on the
     * wire runs posted tasks (the pump's pieces) while this thread waits in a read, under the wire's
     * turn, so a piece goes out when it is made, not at the next frame from the client. Loop thread.
     */
    void pumpsOnThisThread() {
        if (!duplex) {
            duplex = true;
            wire.duplex();
        }
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
        return goAway.serves(id);
    }

    /** Stream {@code id} is the last one served: the final GOAWAY names it (unless one already went out). */
    void lastStream(int id) {
        goAway.sendFinal(id, null);
    }

    /** No stream is open any more: the idle timeout runs from now. */
    void lastStreamClosed() {
        deadlines.idleFrom(wire.clock());
    }

    /** A connection error: GOAWAY with {@code code}, then the connection closes once it is out. */
    void connectionError(int code, String message) {
        if (state >= CLOSING) {
            return;
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 connection error " + code + " from "
                + wire.remoteAddress() + ": " + message);
        frames.goAway(goAway.lastStream(streams.lastClientStream()), code, message);
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
        if (goAway.ending() && streams.open() == 0 && (!reader.inHeaderBlock() || inputEnded) && out.pending() == 0) {
            if (!goAway.sentFinal()) {
                goAway.sendFinal(streams.lastClientStream(), null);
                if (!out.flush() || out.pending() > 0) {
                    state = CLOSING;
                    return;
                }
            }
            lingerClose();
        }
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
            wire.discardUnsent();
            close();
            return;
        }
        if (state == PREFACE) {
            if (deadlines.prefacePassed(now)) {
                wire.counters().timedOut();
                close();
            }
            return;
        }
        inEvent = true;
        deadlines.ticked(now);
        if (state == OPEN) {
            timers(now);
        }
        afterEvent();
    }

    private void timers(long now) {
        if (!inputEnded && reader.inHeaderBlock() && deadlines.headerBlockPassed(now, streams.blockStarted())) {
            wire.counters().timedOut();
            connectionError(H2.PROTOCOL_ERROR, "header block not finished within header-read-timeout");
            return;
        }
        goAway.timers(now, streams.lastClientStream());
        streams.timers(now);
        if (streams.open() == 0 && out.pending() == 0 && !reader.inHeaderBlock() && deadlines.idlePassed(now)) {
            wire.counters().timedOut();
            goAway.sendFinal(streams.lastClientStream(), "idle");
            state = CLOSING;
        }
    }

    /**
     * Graceful shutdown ({@link GoAway}): no new stream is served after the final {@code GOAWAY}, and
     * every one before it is answered. The connection closes when none is left.
     */
    @Override
    public void drain() {
        if (state == PREFACE) {
            close();
            return;
        }
        if (state == OPEN && goAway.drain(wire.clock(), shared.options.drainGrace().toNanos(), streams.lastClientStream())) {
            streams.drainBodies(); // an event stream never ends by itself: it would hold the drain to its timeout
            afterEvent();
        }
    }

    /** Whether a graceful shutdown has begun (an answer that begins now and would never end is ended). Any thread. */
    boolean draining() {
        return shared.http1.draining();
    }

    /** Whether the client's stream has ended (an answer that begins now and would never end is ended). Loop thread. */
    boolean inputEnded() {
        return inputEnded;
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
        input.releaseUnlessReading(); // a reading thread gives it back when its read returns
    }

    @Override
    public boolean isClosed() {
        return state == CLOSED;
    }

    @Override
    public boolean idle() {
        return state == OPEN && streams.open() == 0 && out.pending() == 0 && !reader.inHeaderBlock()
                && input.empty();
    }

    @Override
    public boolean holdsInput() {
        return input.held();
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
