package dev.brisk.internal.tls;

import dev.brisk.TlsInfo;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * TLS on one connection: the {@link Protocol} of the plain wire under it and the {@link Wire} of the
 * protocol above it (HTTP/1.1), which sees plaintext and nothing else of TLS. The protocol above is
 * opened once the handshake is done, so it never runs for a client that does not finish one.
 *
 * <pre>
 *   HANDSHAKE ──finished (ALPN agreed)──▶ OPEN ──close(): waiting records, close_notify, all taken──▶ CLOSED
 *       │                                     │                                                      ▲
 *       │                                     └──close(), the socket full──▶ CLOSING ──the rest out───┤
 *       │                                          (no reading)                  └──write timeout, a   │
 *       │                                                                           second close()─────┤
 *       │  deadline passed, alert, garbage, end of stream: closed, counted as a failed handshake       │
 *       ├──────────────────────────────────────────────────────────────────────────────────────────────┘
 *       └──plain HTTP (a letter first): counted as failed, the wire to {@link PlainHttpRefusal} (400)
 *   OPEN: a TLS 1.2 renegotiation (a new handshake) is refused: closed
 * </pre>
 *
 * <p>Buffers: {@code netIn} holds ciphertext read and not yet decrypted, {@code appIn} plaintext the
 * protocol above has not read yet; each is held only while it holds bytes ({@link TlsBuffers}). What
 * goes out is {@link OutgoingRecords}': a write is wrapped record by record, and reports as written only
 * what went into records; records the socket cannot take yet wait there, and are flushed on the plain
 * wire's next {@code onWritable} before anything else.
 *
 * <p>Threads: the wire's loop thread only, like every wire and protocol, except {@link #execute} and
 * {@link #inLoop}.
 */
public final class TlsWire implements Wire, Protocol {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final Wire plain;
    private final SSLEngine engine;
    private final ProtocolFactory next;
    private final TlsCounters counters;
    private final TlsBuffers buffers;
    private final long handshakeDeadline;
    private final long writeTimeoutNanos;
    private final OutgoingRecords out;
    private Protocol upper;
    private ByteBuffer netIn; // write mode: ciphertext from position 0 to position
    private ByteBuffer appIn; // write mode: plaintext from position 0 to position
    private boolean upperReads = true;
    private boolean upperWrites;
    private boolean inputEnded;
    private boolean closed;
    /**
     * Closed for the protocol above, with records the socket has not taken yet (the last answer's, then
     * {@code close_notify}): the socket closes once they are out, or at the write timeout.
     */
    private boolean closing;
    private boolean tls12;
    /** The client's first byte was looked at: a TLS record, not plain HTTP ({@link PlainHttpRefusal}). */
    private boolean recordSeen;
    private long consumed; // plaintext handed up, to tell whether the protocol above took any
    private TlsInfo info;

    private TlsWire(Wire plain, SSLEngine engine, ProtocolFactory next, TlsCounters counters, long handshakeNanos,
            long writeTimeoutNanos) {
        this.plain = plain;
        this.engine = engine;
        this.next = next;
        this.counters = counters;
        this.buffers = plain.blocking() ? TlsBuffers.SHARED : TlsBuffers.ofThisLoop();
        this.out = new OutgoingRecords(plain, engine, buffers);
        this.handshakeDeadline = plain.clock() + handshakeNanos;
        this.writeTimeoutNanos = writeTimeoutNanos;
        plain.deadline(handshakeDeadline);
    }

    /**
     * The TLS protocol of a new connection on {@code plain}; {@code next} opens the protocol above once
     * the handshake is done. Loop thread.
     */
    public static Protocol open(Wire plain, SSLEngine engine, ProtocolFactory next, TlsCounters counters,
            long handshakeNanos, long writeTimeoutNanos) {
        try {
            engine.beginHandshake(); // else the engine says "not handshaking" until the first record
        } catch (SSLException e) {
            throw new IllegalStateException("TLS engine cannot begin a handshake", e);
        }
        return new TlsWire(plain, engine, next, counters, handshakeNanos, writeTimeoutNanos);
    }

    // ---- the plain wire's events (Protocol) ------------------------------------------------------

    @Override
    public void onReadable() {
        if (closed) {
            return;
        }
        if (upper == null && !handshake()) {
            return;
        }
        deliver();
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (closed) {
            return;
        }
        if (n < 0) {
            inputEnded = true;
        } else if (n > 0) {
            if (netIn == null) {
                netIn = buffers.take(n);
            }
            if (netIn.remaining() < n) {
                netIn = buffers.grow(netIn, n);
            }
            netIn.put(src, 0, n);
        }
        onReadable();
    }

    @Override
    public void onWritable() {
        if (closing) {
            closedOut();
            return;
        }
        if (closed) {
            return;
        }
        try {
            if (!out.flush()) {
                return;
            }
        } catch (IOException e) {
            close();
            return;
        }
        plain.writeInterest(upper != null && upperWrites);
        if (upper == null) {
            plain.readInterest(true); // off while the handshake's records waited for the socket
            if (handshake()) {
                deliver();
            }
            return;
        }
        if (!tls12 && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
            try {
                afterHandshake(); // a key update's answer that waited for the socket
            } catch (IOException e) {
                close();
                return;
            }
        }
        if (upperWrites) {
            upper.onWritable();
        }
    }

    @Override
    public void onTimer(long now) {
        if (closing) {
            if (out.stalled(now, writeTimeoutNanos)) {
                plain.counters().timedOut();
                plain.discardUnsent();
                end();
            }
            return;
        }
        if (closed) {
            return;
        }
        if (upper == null) {
            if (now - handshakeDeadline > 0) {
                plain.counters().timedOut();
                counters.failed();
                close();
            }
            return;
        }
        if (out.stalled(now, writeTimeoutNanos)) {
            plain.counters().timedOut(); // records the socket has not taken for the whole write timeout
            plain.discardUnsent();
            close();
            return;
        }
        upper.onTimer(now);
    }

    @Override
    public void drain() {
        if (closed) {
            return; // closing: what is left goes out, then the socket closes
        }
        if (upper == null) {
            close(); // no request can be under way before the handshake is done
        } else {
            upper.drain();
        }
    }

    @Override
    public boolean idle() {
        return upper != null && upper.idle() && !buffered() && !out.pending();
    }

    @Override
    public boolean holdsInput() {
        return upper == null || netIn != null || appIn != null || upper.holdsInput();
    }

    @Override
    public boolean awaitsTask() {
        return upper != null && upper.awaitsTask();
    }

    @Override
    public boolean isClosed() {
        return closed && !closing; // while closing the transport still brings writability and timers
    }

    /** The protocol above ends its too slow peer its own way (it closes this wire as it does). */
    @Override
    public void tooSlow() {
        if (upper != null && !closed) {
            upper.tooSlow();
        }
        close();
    }

    /**
     * Closes the protocol above (if open), then sends the records the socket has not taken yet (the
     * protocol above was told they were written) and {@code close_notify} after them, and closes the plain
     * wire once they are out; a socket that does not take them within the write timeout is closed then.
     * Idempotent; also what the protocol above calls as its wire's close. A close while records are still
     * going out (a server stopping) closes the plain wire at once.
     */
    @Override
    public void close() {
        if (closed) {
            if (closing) {
                end();
            }
            return;
        }
        closed = true;
        if (upper != null) {
            upper.close(); // idempotent: it calls back here as its wire's close, and returns
        }
        if (!closedOut()) {
            closing = true;
            plain.readInterest(false);
            plain.deadline(plain.clock() + writeTimeoutNanos);
        }
    }

    /**
     * Sends what is waiting, then {@code close_notify}; once all is out (or the peer is gone, so nothing
     * more can go out) closes the plain wire. False while the socket is full.
     */
    private boolean closedOut() {
        boolean sent;
        try {
            engine.closeOutbound(); // once; again while closing does nothing
            sent = out.closeOutput(false);
        } catch (IOException | RuntimeException e) {
            sent = true;
        }
        if (sent) {
            end();
        }
        return sent;
    }

    private void end() {
        closing = false;
        release();
        plain.close();
    }

    // ---- the protocol above's wire (Wire) ---------------------------------------------------------

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (closed) {
            return -1;
        }
        int n = take(dst);
        if (n > 0) {
            return n;
        }
        int r = fill();
        return r < 0 && (appIn == null || appIn.position() == 0) ? -1 : take(dst);
    }

    @Override
    public long write(ByteBuffer[] srcs, int count) throws IOException {
        if (closed) {
            throw new IOException("connection closed");
        }
        return out.write(srcs, count);
    }

    @Override
    public void readsOnlyLook(boolean on) {
        plain.readsOnlyLook(on); // a record's rest still on its way is not waited for either
    }

    @Override
    public void readInterest(boolean on) {
        upperReads = on;
        plain.readInterest(on);
        if (on && buffered() && !plain.blocking()) {
            // bytes already decrypted or read: no readiness event will come for them (a blocking loop
            // calls onReadable anyway while this wire holds input)
            plain.execute(() -> {
                if (!closed && upperReads && upper != null) {
                    deliverGuarded();
                }
            });
        }
    }

    @Override
    public void writeInterest(boolean on) {
        upperWrites = on;
        plain.writeInterest(on || out.pending());
    }

    @Override
    public void deadline(long at) {
        plain.deadline(at);
    }

    @Override
    public void noDeadline() {
        plain.noDeadline();
    }

    /**
     * Sends {@code close_notify} after the records the socket has not taken yet, then half-closes the
     * socket (at once, or in the flush that empties them); reading goes on until the peer's own.
     */
    @Override
    public void shutdownOutput() throws IOException {
        engine.closeOutbound();
        out.closeOutput(true);
    }

    /** No: file bytes must be encrypted, so they come through {@link #write} in pieces. */
    @Override
    public boolean transfersFiles() {
        return false;
    }

    @Override
    public long transfer(java.nio.channels.FileChannel file, long position, long count) throws IOException {
        throw new UnsupportedOperationException("a TLS wire encrypts what it sends: no file transfer");
    }

    @Override
    public long clock() {
        return plain.clock();
    }

    @Override
    public void discardUnsent() {
        plain.discardUnsent();
    }

    @Override
    public void execute(Runnable task) {
        plain.execute(task);
    }

    @Override
    public boolean inLoop() {
        return plain.inLoop();
    }

    @Override
    public boolean blocking() {
        return plain.blocking();
    }

    /**
     * A duplex protocol above (a WebSocket, HTTP/2 with a pumped body) writes from other threads while the
     * plain wire's thread waits in a socket read. Those threads write from tasks run under the wire's
     * turn, which the plain wire's thread gives up only inside that read and takes back before it hands
     * the bytes here, so this wire is still entered by one thread at a time: its read side (a key
     * update's answer included) and its write side never run at once.
     */
    @Override
    public void duplex() {
        plain.duplex();
    }

    @Override
    public void runUntil(CompletableFuture<?> f) {
        plain.runUntil(f);
    }

    @Override
    public String remoteAddress() {
        return plain.remoteAddress();
    }

    @Override
    public void protocol(Protocol p) {
        upper = p; // an upgrade: the new protocol reads plaintext from here, as the old one did
    }

    @Override
    public BufferPool inPool() {
        return plain.inPool();
    }

    @Override
    public BufferPool outPool() {
        return plain.outPool();
    }

    @Override
    public LoopCounters counters() {
        return plain.counters();
    }

    @Override
    public AccessLog.Sampler accessLogSampler() {
        return plain.accessLogSampler();
    }

    @Override
    public TlsInfo tls() {
        return info;
    }

    // ---- the handshake ---------------------------------------------------------------------------

    /**
     * Moves the handshake on as far as the bytes at hand allow; true once it is done and the protocol
     * above is open. A failure (an alert, garbage, the end of the stream) closes the connection.
     */
    private boolean handshake() {
        try {
            for (int step = 0; step < 1_000; step++) {
                switch (engine.getHandshakeStatus()) {
                    case NEED_TASK -> runTasks();
                    case NEED_WRAP -> {
                        if (!out.wrapOwn()) {
                            // the rest when the socket takes more (onWritable); reading stops meanwhile, or
                            // a peer that sent more (or its FIN) and takes nothing would wake this loop on
                            // every turn, for nothing, until the handshake deadline
                            plain.readInterest(false);
                            return false;
                        }
                    }
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (!recordSeen && netIn != null && netIn.position() > 0) {
                            if (PlainHttpRefusal.startsPlainHttp(netIn.get(0))) {
                                counters.failed();
                                closed = true;
                                release();
                                PlainHttpRefusal.takeOver(plain, handshakeDeadline);
                                return false;
                            }
                            recordSeen = true;
                        }
                        int r = unwrap();
                        if (r < 0) {
                            counters.failed();
                            close();
                            return false;
                        }
                        if (r == 0 && !readMore()) {
                            return false; // wait for more bytes
                        }
                    }
                    default -> {
                        opened();
                        return !closed;
                    }
                }
            }
            throw new SSLException("handshake made no progress");
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "TLS handshake with " + plain.remoteAddress() + " failed: " + e);
            counters.failed();
            close();
            return false;
        }
    }

    /** Reads ciphertext for an unwrap that needs more: false when none came (or the stream ended). */
    private boolean readMore() throws IOException {
        if (netIn == null) {
            netIn = buffers.take(TlsBuffers.SIZE);
        } else if (!netIn.hasRemaining()) {
            netIn = buffers.grow(netIn, engine.getSession().getPacketBufferSize());
        }
        int n = plain.read(netIn);
        if (n < 0) {
            inputEnded = true;
            if (upper == null) {
                counters.failed(); // a client that leaves mid-handshake
                close();
            }
            return false;
        }
        if (n == 0) {
            releaseIfEmpty();
            return false;
        }
        return true;
    }

    private void opened() throws IOException {
        counters.handshake();
        SSLSession s = engine.getSession();
        tls12 = "TLSv1.2".equals(s.getProtocol());
        info = new TlsInfo(s.getProtocol(), s.getCipherSuite(), serverName(s), alpn(), peer(s));
        plain.noDeadline();
        upper = next.open(this);
    }

    private static String serverName(SSLSession s) {
        if (s instanceof ExtendedSSLSession e) {
            for (SNIServerName n : e.getRequestedServerNames()) {
                if (n instanceof SNIHostName h) {
                    return h.getAsciiName();
                }
            }
        }
        return null;
    }

    private String alpn() {
        String p = engine.getApplicationProtocol();
        return p == null || p.isEmpty() ? null : p;
    }

    private static List<Certificate> peer(SSLSession s) {
        try {
            return List.of(s.getPeerCertificates());
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
    }

    private void runTasks() {
        Runnable t;
        while ((t = engine.getDelegatedTask()) != null) {
            t.run(); // a handshake's signature: on the loop, as its cost is the connection's own
        }
    }

    // ---- records in ------------------------------------------------------------------------------

    /**
     * Lets the protocol above read while it wants to and bytes are at hand: a read event may bring
     * several records, and the protocol above may read fewer bytes than they hold.
     */
    private void deliver() {
        for (int round = 0; round < 64 && !closed && upper != null; round++) {
            long before = consumed;
            boolean ended = inputEnded;
            upper.onReadable();
            if (closed || !upperReads || !buffered() || (consumed == before && ended == inputEnded)) {
                return;
            }
        }
        // still taking bytes, and more at hand: go on after the loop's other connections had their turn
        // (the socket may hold nothing more, so no readiness event would bring this connection back)
        plain.execute(() -> {
            if (!closed && upperReads && upper != null && buffered()) {
                deliverGuarded();
            }
        });
    }

    /**
     * {@link #deliver} from a task posted to the loop: a failure closes the connection, as one from a
     * readiness event does (the loop's task runner would only log it, and leave the connection open).
     */
    private void deliverGuarded() {
        try {
            deliver();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "connection failed", e);
            close();
            if (e instanceof Error err) {
                throw err;
            }
        }
    }

    /** Plaintext into {@code appIn}: > 0 when some is there, 0 when more ciphertext is needed, -1 at the end. */
    private int fill() throws IOException {
        for (int round = 0; round < 1_000; round++) {
            int r = unwrap();
            if (r < 0 || (r > 0 && appIn != null && appIn.position() > 0)) {
                return r;
            }
            if (r > 0) {
                continue; // a record without plaintext (a post-handshake message): the next may have some
            }
            if (inputEnded || !readMore()) {
                return inputEnded ? -1 : 0;
            }
        }
        throw new SSLException("no plaintext from a stream of records");
    }

    /**
     * Decrypts what {@code netIn} holds: > 0 when plaintext was produced or a handshake step made
     * progress, 0 when a whole record is not there yet, -1 when the peer closed ({@code close_notify}).
     */
    private int unwrap() throws IOException {
        if (netIn == null || netIn.position() == 0) {
            return 0;
        }
        if (appIn == null) {
            appIn = buffers.take(engine.getSession().getApplicationBufferSize());
        }
        netIn.flip();
        SSLEngineResult r;
        try {
            r = engine.unwrap(netIn, appIn);
        } finally {
            netIn.compact();
        }
        switch (r.getStatus()) {
            case OK -> {
            }
            case BUFFER_UNDERFLOW -> {
                releaseIfEmpty();
                return 0;
            }
            case BUFFER_OVERFLOW -> {
                if (appIn.position() > 0) {
                    return 1; // the protocol above must read first
                }
                appIn = buffers.grow(appIn, engine.getSession().getApplicationBufferSize());
                return 1;
            }
            case CLOSED -> {
                inputEnded = true;
                return appIn.position() > 0 ? 1 : -1;
            }
        }
        SSLEngineResult.HandshakeStatus hs = r.getHandshakeStatus();
        if (upper != null && hs != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                && hs != SSLEngineResult.HandshakeStatus.FINISHED) {
            if (tls12) {
                // a close_notify queued in the engine behind records the socket has not taken reads as
                // NEED_WRAP too: only a handshake begun (a ClientHello) is a renegotiation
                if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK || engine.getHandshakeSession() != null) {
                    counters.failed();
                    throw new SSLException("TLS 1.2 renegotiation refused");
                }
            } else {
                afterHandshake(); // TLS 1.3: a key update or a ticket to answer
            }
        }
        releaseIfEmpty();
        return r.bytesProduced() > 0 || r.bytesConsumed() > 0 ? 1 : 0;
    }

    /** A post-handshake message (TLS 1.3) may need a task or an answer of its own. */
    private void afterHandshake() throws IOException {
        for (int i = 0; i < 16; i++) {
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> {
                    if (!out.wrapOwn()) {
                        return; // the socket is full: the answer goes on from onWritable, not in a spin here
                    }
                }
                default -> {
                    return;
                }
            }
        }
    }

    /** Moves plaintext from {@code appIn} to {@code dst}. */
    private int take(ByteBuffer dst) {
        if (appIn == null || appIn.position() == 0) {
            return 0;
        }
        appIn.flip();
        int n = Math.min(appIn.remaining(), dst.remaining());
        if (n == appIn.remaining()) {
            dst.put(appIn);
        } else {
            int limit = appIn.limit();
            appIn.limit(appIn.position() + n);
            dst.put(appIn);
            appIn.limit(limit);
        }
        appIn.compact();
        consumed += n;
        releaseIfEmpty();
        return n;
    }

    private boolean buffered() {
        return (appIn != null && appIn.position() > 0) || (netIn != null && netIn.position() > 0);
    }

    private void releaseIfEmpty() {
        if (netIn != null && netIn.position() == 0) {
            buffers.give(netIn);
            netIn = null;
        }
        if (appIn != null && appIn.position() == 0) {
            buffers.give(appIn);
            appIn = null;
        }
    }

    /**
     * Lets go of the buffers at close. On a blocking wire they are left to the garbage collector, never
     * pooled: a duplex protocol's reads run while another thread holds the connection, and that thread may
     * close it while the socket read still fills {@code netIn}, which another connection could meanwhile
     * have taken from the shared pool.
     */
    private void release() {
        boolean pool = !plain.blocking();
        if (netIn != null) {
            if (pool) {
                buffers.give(netIn);
            }
            netIn = null;
        }
        if (appIn != null) {
            if (pool) {
                buffers.give(appIn);
            }
            appIn = null;
        }
        out.release(pool);
    }
}
