package dev.brisk.internal.ws;

import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * WebSocket (RFC 6455) on one {@link Wire}, after the HTTP/1.1 handshake's {@code 101}: the protocol's
 * state machine. {@link Inbound} turns bytes into messages and control frames, {@link Outbound} queues
 * and writes frames, {@link HandlerQueue} runs the route's handlers on its dispatch; this class answers
 * pings, runs the closing handshake, the timers and the limits.
 *
 * <pre>
 *   OPEN ──server closes (app, idle, shutdown, too slow a receiver): close frame queued──▶ CLOSE_SENT
 *    │                                                  peer's close ──▶ CLOSED (LINGER while ours
 *    │                                                    or what came before it is not all written)
 *    │                                                  protocol error ──▶ LINGER
 *    │                                                  ws-close-timeout ──▶ CLOSED
 *    ├──peer's close: the reply queued (after the handlers of the messages before it, within
 *    │    ws-close-timeout; meanwhile still OPEN for their sends) ──────────▶ LINGER
 *    ├──protocol error or limit (1002, 1003, 1007, 1009, 1013): close queued ─▶ LINGER
 *    │      LINGER: input read and dropped; once the last frame is written, the output is shut
 *    │      (FIN); the peer's end of stream (once the last frame is written), or
 *    │      ws-close-timeout ──▶ CLOSED
 *    ├──write stalled past write-timeout (a receiver too slow) ──────────────▶ CLOSED (1008)
 *    └──end of stream, I/O error ────────────────────────────────────────────▶ CLOSED (1006)
 * </pre>
 *
 * Lingering rather than closing at once keeps a close frame from being lost to a reset: closing a socket
 * with unread input makes the kernel send RST, which may overtake what was written.
 *
 * <p>{@code onClose} reports the code that ended the session: the peer's when it closed first, else the
 * server's, 1006 when the connection ended without a close frame.
 *
 * <p>Threads: the {@link Protocol} methods on the wire's loop thread; {@link #send}, {@link #closeBy},
 * {@link #isOpen} and {@link #bufferedAmount} from any thread (they hop to the loop for what they change).
 */
public final class WebSocketConnection implements Protocol, Inbound.Listener {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final int OPEN = 0;
    private static final int CLOSE_SENT = 1;
    private static final int LINGER = 2;
    private static final int CLOSED = 3;
    /** Messages waiting for their handler at which reading pauses, and resumes. */
    private static final int PAUSE_AT = 16;
    private static final int RESUME_AT = 4;
    private static final byte[] EMPTY = new byte[0];
    private static final String SLOW = "outbound limit exceeded: the receiver is too slow";

    private final Wire wire;
    private final WebSockets ws;
    private final WebSocketSpec spec;
    private final Session session;
    private final Inbound inbound;
    private final Sender sender;
    private final HandlerQueue handlers;
    private final long closeNanos;
    private final Heartbeat heartbeat;
    private volatile int state = OPEN;
    /** The app asked to close ({@link #closeBy}): sends are refused from then on, before the loop sends the close. */
    private volatile boolean closeAsked;
    private static final int NO_REPLY = -1;
    /** The peer's close code once its close came (answered at once, or after the handlers before it). */
    private int replyCode = NO_REPLY;
    /** Bytes read and not yet taken (write mode), or null. */
    private ByteBuffer in;
    private boolean paused;
    private boolean outputShut;
    /** Lingering, the peer ended its side before our close frame was written: closed once it is. */
    private boolean peerEnded;
    private final AtomicInteger waiting = new AtomicInteger();
    private long closeDeadline;
    private int endCode = CloseCodes.ABNORMAL;
    private String endReason = "";
    private boolean endSet;
    /** The close this server sent (CLOSE_SENT): the session's end once the peer answers it. */
    private int sentCode;
    private String sentReason;
    private boolean closeReported;

    private WebSocketConnection(Wire wire, WebSockets ws, WebSocketSpec spec, Session session, DeflateOffer deflate,
            HandlerQueue handlers) {
        this.wire = wire;
        this.ws = ws;
        this.spec = spec;
        this.session = session;
        this.handlers = handlers;
        dev.brisk.WebSocketOptions o = ws.options();
        this.inbound = new Inbound(new FrameParser(o.maxFrameSize(), deflate != null),
                deflate == null ? null : new MessageInflater(deflate, ws.budget()), o.maxMessageSize(), ws.budget(), this);
        this.sender = new Sender(wire, this, ws, deflate == null ? null : new MessageDeflater(deflate, ws.deflaters(), ws.budget()));
        this.closeNanos = o.closeTimeout().toNanos();
        this.heartbeat = new Heartbeat(o.idleTimeout().toNanos(), o.pingInterval().toNanos(), wire.clock());
    }

    /**
     * The WebSocket protocol of {@code wire}, which the {@code 101} was just written to: {@code onOpen}
     * is handed to the handlers, then the bytes the client sent right behind its handshake are taken.
     * Loop thread.
     *
     * @param buffered bytes already read after the handshake (read mode)
     * @param handlers where the session's handlers run
     */
    static WebSocketConnection open(Wire wire, ByteBuffer buffered, WebSockets ws, WebSocketSpec spec,
            Session session, DeflateOffer deflate, HandlerQueue handlers) {
        wire.duplex();
        WebSocketConnection c = new WebSocketConnection(wire, ws, spec, session, deflate, handlers);
        session.connection(c);
        ws.stats().opened.increment();
        c.start(buffered);
        return c;
    }

    private void start(ByteBuffer buffered) {
        if (spec.onOpen != null) {
            handlers.submit(() -> {
                try {
                    spec.onOpen.onOpen(session);
                } catch (Throwable t) {
                    handlerFailed(t);
                }
            });
        }
        if (buffered.hasRemaining() && state != CLOSED) {
            take(buffered);
            if (buffered.hasRemaining() && state != CLOSED) {
                in = ByteBuffer.allocate(Math.max(wire.inPool().bufferSize(), buffered.remaining()));
                in.put(buffered);
            }
        }
        afterEvent();
    }

    // ---- bytes in -----------------------------------------------------------------------------------

    @Override
    public void onReadable() {
        if (state == CLOSED) {
            return;
        }
        for (int round = 0; round < 8 && state != CLOSED && !paused; round++) {
            if (in == null) {
                in = wire.inPool().acquire();
            }
            int n;
            try {
                n = wire.read(in); // on a blocking loop another thread may have the turn meanwhile
            } catch (IOException e) {
                ended("connection lost: " + e.getMessage());
                return;
            }
            if (n < 0) {
                endOfStream();
                return;
            }
            if (n == 0) {
                break;
            }
            wire.counters().bytesIn(n);
            heartbeat.heard(wire.clock());
            in.flip();
            take(in);
            if (in == null) {
                return; // closed meanwhile (by a handler, or the protocol)
            }
            in.compact();
            if (wire.blocking()) {
                break; // one read per turn: the loop reads again, with the deadline in mind
            }
        }
        afterEvent();
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (n < 0) {
            endOfStream();
            return;
        }
        heartbeat.heard(wire.clock());
        ByteBuffer b = ByteBuffer.wrap(java.util.Arrays.copyOf(src, n));
        take(b);
        if (b.hasRemaining() && state != CLOSED) {
            in = ByteBuffer.allocate(Math.max(wire.inPool().bufferSize(), b.remaining()));
            in.put(b);
        }
        afterEvent();
    }

    /**
     * Takes frames from {@code b} (read mode): all of them while lingering, which drops them. What inline
     * handlers send meanwhile is written once, after (not while waiting in a read: another thread with
     * a blocking loop's turn then writes at once).
     */
    private void take(ByteBuffer b) {
        if (state == LINGER) {
            b.position(b.limit());
            return;
        }
        sender.hold();
        try {
            inbound.process(b);
        } catch (ProtocolError e) {
            fail(e.code(), e.getMessage());
            b.position(b.limit());
        } finally {
            sender.release();
        }
    }

    /** After an event: what inline handlers sent goes out, a spent input buffer goes back, the deadline moves. */
    private void afterEvent() {
        if (in != null && in.position() == 0) {
            wire.inPool().release(in);
            in = null;
        }
        if (state != CLOSED) {
            scheduleDeadline();
        }
    }

    @Override
    public boolean accepting() {
        return (state == OPEN || state == CLOSE_SENT) && !paused;
    }

    @Override
    public void message(int type, byte[] data, long reserved) {
        ws.stats().messagesIn.increment();
        if (state != OPEN) {
            ws.budget().release(reserved);
            return;
        }
        boolean text = type == FrameParser.TEXT;
        if (text ? spec.onText == null : spec.onBinary == null) {
            ws.budget().release(reserved);
            fail(CloseCodes.UNSUPPORTED_DATA, text ? "text messages are not accepted" : "binary messages are not accepted");
            return;
        }
        boolean queued = !handlers.inline();
        if (queued && waiting.incrementAndGet() >= PAUSE_AT) {
            paused = true; // too many wait for their handler: read on once they are handled
            wire.readInterest(false);
        }
        handlers.submit(() -> {
            try {
                if (text) {
                    spec.onText.onText(session, new String(data, StandardCharsets.UTF_8));
                } else {
                    spec.onBinary.onBinary(session, data);
                }
            } catch (Throwable t) {
                handlerFailed(t);
            } finally {
                ws.budget().release(reserved);
                if (queued && waiting.decrementAndGet() == RESUME_AT) {
                    wire.execute(this::resume);
                }
            }
        });
    }

    private void resume() {
        if (!paused || state == CLOSED) {
            return;
        }
        paused = false;
        wire.readInterest(true);
        if (in != null && in.position() > 0) {
            in.flip();
            take(in);
            if (in != null) {
                in.compact();
            }
            afterEvent();
        }
    }

    @Override
    public void control(int opcode, byte[] payload, int len) throws ProtocolError {
        switch (opcode) {
            case FrameParser.PING -> {
                if (state == OPEN) {
                    sender.control(FrameParser.PONG, java.util.Arrays.copyOf(payload, len));
                }
            }
            case FrameParser.PONG -> {
                // the heartbeat heard its bytes arrive: that is all a pong is for
            }
            default -> peerClosed(payload, len);
        }
    }

    private void peerClosed(byte[] p, int len) throws ProtocolError {
        int code;
        String reason;
        if (len == 0) {
            code = CloseCodes.NO_STATUS;
            reason = "";
        } else if (len == 1) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "close frame with a 1-byte payload");
        } else {
            code = ((p[0] & 0xFF) << 8) | (p[1] & 0xFF);
            if (!CloseCodes.validOnWire(code)) {
                throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "invalid close code " + code);
            }
            if (!Utf8Validator.valid(p, 2, len - 2)) {
                throw new ProtocolError(CloseCodes.INVALID_DATA, "close reason is not valid UTF-8");
            }
            reason = new String(p, 2, len - 2, StandardCharsets.UTF_8);
        }
        if (state == CLOSE_SENT) {
            end(sentCode, sentReason); // the answer to our close: the handshake is done, with our code
            if (sender.queued() > 0) {
                // our close, and what was sent before it, is not all out (held while this read's handlers ran,
                // or the socket full): closes that crossed; it goes out first, then the output is shut
                state = LINGER;
                inbound.discardData();
                sender.flush();
                return;
            }
            close();
            return;
        }
        if (replyCode != NO_REPLY) {
            return; // a second close while the first waits for the handlers: already answered in turn
        }
        end(code, reason);
        inbound.discardData();
        closeDeadline = wire.clock() + closeNanos;
        replyCode = code;
        if (handlers.inline() || handlers.pending() == 0) {
            replyToPeerClose();
        } else {
            // messages read before the close still wait for their handlers: what they send goes out
            // before our close (RFC 6455 5.5.1: a close may wait for the message being sent), at most
            // until ws-close-timeout, after which the timer replies anyway
            handlers.submit(() -> wire.execute(() -> {
                replyToPeerClose();
                afterEvent();
            }));
        }
    }

    /** The peer's close is answered (echoing its code, none for none): from now on the session lingers. Loop thread. */
    private void replyToPeerClose() {
        if (state != OPEN) {
            return;
        }
        state = LINGER;
        sender.last(Frames.close(replyCode, ""));
    }

    // ---- closing -------------------------------------------------------------------------------------

    /** The server closes: {@code code} and {@code reason} go out after what was already sent. Any thread. */
    void closeBy(int code, String reason) {
        closeAsked = true; // from here on no send is taken, whichever thread asked and when the loop acts
        if (wire.inLoop()) {
            initiate(code, reason);
        } else {
            wire.execute(() -> initiate(code, reason));
        }
    }

    private void initiate(int code, String reason) {
        if (state != OPEN) {
            return;
        }
        if (replyCode != NO_REPLY) {
            replyToPeerClose(); // the peer closed first: its close is answered, not a new one started
            return;
        }
        sentCode = code; // what the session ends with once the peer answers; 1006 if it never does
        sentReason = reason;
        state = CLOSE_SENT;
        inbound.discardData();
        closeDeadline = wire.clock() + closeNanos;
        sender.last(Frames.close(code, reason));
        scheduleDeadline();
    }

    /** The peer broke the protocol or a limit: the connection is failed with {@code code}. */
    private void fail(int code, String reason) {
        ws.stats().protocolErrors.increment();
        LOG.log(System.Logger.Level.DEBUG, () -> "WebSocket from " + session.remoteAddress() + " failed: " + code + " " + reason);
        if (state != OPEN && state != CLOSE_SENT) {
            return;
        }
        boolean open = state == OPEN;
        state = LINGER;
        inbound.discardData();
        closeDeadline = wire.clock() + closeNanos;
        end(code, reason); // open, or our close sent and not answered: the failure is what ended it
        if (open) {
            sender.last(Frames.close(code, reason));
        } else {
            sender.flush(); // our close is queued already: once it is out, the output is shut
        }
    }

    /**
     * A send went past the outbound limits (counted by the sender): the session is closed with 1008, on
     * the loop. On a blocking engine the loop may be in a write the peer does not take; then the write
     * timeout ends it, and the session still reports 1008. Any thread, once.
     */
    void tooSlowReceiver() {
        if (wire.inLoop()) {
            slowReceiver();
        } else {
            wire.execute(this::slowReceiver);
        }
    }

    private void slowReceiver() {
        if (state != OPEN) {
            return;
        }
        sender.dropUnstarted();
        initiate(CloseCodes.POLICY, SLOW);
    }

    /** The connection ended without a closing handshake (or before it finished). */
    private void ended(String why) {
        end(CloseCodes.ABNORMAL, why);
        close();
    }

    /**
     * The peer's end of stream. Lingering with our close frame still queued (a non-blocking wire takes
     * nothing while a send is in flight), the peer may still read: the frame goes out first and the session
     * closes once it is written ({@link #allWritten}), at most at ws-close-timeout. What the wire has taken
     * it sends before it closes. Otherwise the session is over now.
     */
    private void endOfStream() {
        if (state == LINGER && !outputShut && !wire.blocking()) { // a blocking wire's writes are done when they return
            peerEnded = true;
            wire.readInterest(false);
            sender.flush();
            if (state != CLOSED) {
                scheduleDeadline();
            }
            return;
        }
        ended("connection closed without a close frame");
    }

    /** Remembers what ended the session: the first decisive event wins. */
    private void end(int code, String reason) {
        if (!endSet && sender.tooSlow()) {
            code = CloseCodes.POLICY; // decided when the send was refused, before the loop could act on it
            reason = SLOW;
        }
        if (!endSet) {
            endSet = true;
            endCode = code;
            endReason = reason;
        }
    }

    private void handlerFailed(Throwable t) {
        try {
            if (spec.onError != null) {
                spec.onError.onError(session, t);
            } else {
                LOG.log(System.Logger.Level.ERROR, "WebSocket handler failed on " + session, t);
            }
        } catch (Throwable again) {
            LOG.log(System.Logger.Level.ERROR, "WebSocket onError handler failed on " + session, again);
        }
        closeBy(CloseCodes.INTERNAL_ERROR, "internal error");
    }

    @Override
    public void drain() {
        initiate(CloseCodes.GOING_AWAY, "server shutting down");
    }

    @Override
    public void close() {
        if (state == CLOSED) {
            return;
        }
        state = CLOSED;
        if (in != null) {
            if (!wire.blocking()) {
                // a blocking wire's reader may be in a read into it right now, the turn let go (a duplex read)
                // while a task closes: pooled, another connection could take it mid-read; the GC takes it instead
                wire.inPool().release(in);
            }
            in = null;
        }
        inbound.release();
        sender.close();
        wire.close();
        ws.stats().closed.increment();
        if (!closeReported) {
            closeReported = true;
            if (spec.onClose != null) {
                int code = endCode;
                String reason = endReason;
                handlers.submit(() -> spec.onClose.onClose(session, code, reason));
            }
        }
    }

    // ---- bytes out -----------------------------------------------------------------------------------

    /** Queues a data message and has it written. Any thread. */
    CompletableFuture<Void> send(int opcode, byte[] data, int off, int len) {
        return sender.message(opcode, data, off, len);
    }

    /**
     * The write failed: the peer is gone, or (on a blocking engine, whose writes block) it took too
     * little for the write timeout or the minimum rate, which is a receiver too slow: 1008, counted, as
     * where the outbound limit finds it first. Loop thread.
     */
    void writeFailed(IOException e) {
        if (e instanceof dev.brisk.internal.transport.PeerTooSlowException) {
            endTooSlow();
            return;
        }
        ended("connection lost while writing: " + e.getMessage());
    }

    /** A selector loop found the peer taking bytes below {@code min-response-rate}: a receiver too slow. */
    @Override
    public void tooSlow() {
        if (state != CLOSED) {
            endTooSlow();
        }
    }

    /** A write the peer did not take in time ended the session: 1008, counted once (a refused send counted already). */
    private void endTooSlow() {
        if (!sender.tooSlow()) {
            ws.stats().slowReceivers.increment();
        }
        end(CloseCodes.POLICY, SLOW);
        close();
    }

    /** Everything queued is written: a lingering session shuts its output (FIN) and waits for the peer's end. */
    void allWritten() {
        if (state == LINGER && !outputShut) {
            outputShut = true;
            if (peerEnded) {
                close(); // the wire sends what it took before it closes
                return;
            }
            try {
                wire.shutdownOutput();
            } catch (IOException e) {
                close();
            }
        }
    }

    @Override
    public void onWritable() {
        sender.flush();
        if (state != CLOSED) {
            scheduleDeadline();
        }
    }

    // ---- time -----------------------------------------------------------------------------------------

    /** The reading thread was in a blocking write from {@code from} to {@code to} (see {@link Heartbeat#deaf}). Loop thread. */
    void deaf(long from, long to) {
        heartbeat.deaf(from, to);
    }

    @Override
    public void onTimer(long now) {
        if (state == CLOSED) {
            return;
        }
        if (sender.stalled(now)) {
            // the peer took nothing for the whole write timeout: a receiver too slow (1008, counted), as a
            // blocking engine's timed-out write reports it, not a peer that left (1006)
            wire.counters().timedOut();
            wire.discardUnsent();
            endTooSlow();
            return;
        }
        if (state == OPEN && replyCode != NO_REPLY) {
            if (now - closeDeadline > 0) {
                replyToPeerClose(); // the handlers before the peer's close took ws-close-timeout: answer now
            }
        } else if (state == OPEN) {
            int due = heartbeat.due(now);
            if (due == Heartbeat.IDLE) {
                ws.stats().idleClosed.increment();
                initiate(CloseCodes.GOING_AWAY, "idle timeout");
            } else if (due == Heartbeat.PING) {
                heartbeat.pinged(now);
                sender.control(FrameParser.PING, EMPTY);
            }
        } else if (now - closeDeadline > 0) {
            if (state == CLOSE_SENT) {
                end(CloseCodes.ABNORMAL, "no close frame from the peer in time");
            }
            close();
            return;
        }
        if (state != CLOSED) {
            scheduleDeadline();
        }
    }

    /** Tells the wire the next deadline (a blocking loop bounds its read by it; a selector loop scans anyway). */
    private void scheduleDeadline() {
        long next;
        if (state == OPEN && replyCode != NO_REPLY) {
            next = closeDeadline; // the peer closed: its answer waits for the handlers, at most until then
        } else if (state == OPEN) {
            next = heartbeat.next();
        } else {
            next = closeDeadline;
        }
        wire.deadline(sender.stallDeadline(next));
    }

    // ---- what a transport asks ------------------------------------------------------------------------

    /** Whether the session is open for sending: open, and its app has not asked to close it. Any thread. */
    boolean isOpen() {
        return state == OPEN && !closeAsked;
    }

    /** Bytes queued and not yet written. Any thread. */
    long bufferedAmount() {
        return sender.queued();
    }

    @Override
    public boolean idle() {
        return false; // a session is never "between requests": a drain closes it with 1001
    }

    @Override
    public boolean holdsInput() {
        return in != null;
    }

    @Override
    public boolean awaitsTask() {
        return false;
    }

    @Override
    public boolean isClosed() {
        return state == CLOSED;
    }
}
