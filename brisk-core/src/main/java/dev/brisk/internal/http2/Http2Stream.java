package dev.brisk.internal.http2;

import dev.brisk.TlsInfo;
import dev.brisk.internal.http.BodyBuffer;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One stream of an HTTP/2 connection (RFC 9113 5.1, as a server sees it) and the
 * {@link ExchangeOwner} of its request's {@link Exchange}: the handler's answer comes back through
 * {@link #complete} and is framed on the connection's loop.
 *
 * <pre>
 *   (HEADERS) ─▶ OPEN ──END_STREAM received──▶ HALF_CLOSED_REMOTE ──END_STREAM sent──▶ CLOSED
 *                 │                                                         ▲
 *                 └─ an early answer (413, 408, 431...) sent ─▶ HALF_CLOSED_LOCAL ─ RST_STREAM(NO_ERROR) ┘
 *   any ──RST_STREAM received or sent, connection closed──▶ CLOSED
 * </pre>
 *
 * The request is dispatched once its body is whole ({@code END_STREAM}); until then DATA is kept in
 * {@link #body}. The response's body waits in {@link #out} (a view of the bytes to send) or comes
 * from {@link #source} piece by piece; it leaves as the client's windows allow.
 *
 * <p>Threads: the connection's loop thread, except {@link #complete} and the other
 * {@link ExchangeOwner} methods, which any handler thread may call.
 */
final class Http2Stream implements ExchangeOwner {
    final int id;
    private final Http2Connection conn;
    /** The request's exchange: null until its head is whole and valid. */
    Exchange exchange;
    /** The client sent END_STREAM: nothing more comes in. */
    boolean remoteClosed;
    /** The request is a HEAD: no answer on it has a body. */
    boolean head;
    /** This side sent (queued) END_STREAM, or reset the stream. */
    boolean localClosed;
    /** Reset or finished: gone from the connection's table. */
    boolean closed;
    /** The handler has the request. */
    boolean dispatched;
    /** The response's HEADERS are queued. */
    boolean responded;
    /** After the response's END_STREAM, a RST_STREAM(NO_ERROR) tells the client to stop sending. */
    boolean resetAfterResponse;

    // request body
    /** The body being received (its memory or file reserved from the server's budget), until dispatch. */
    dev.brisk.internal.body.BodyWriter body;
    /** The body handed to the exchange: the connection's hold, let go when the stream closes. */
    dev.brisk.internal.web.RequestBody handed;
    /** A streamed route's body, fed as DATA arrives (also {@link #handed}), or null. */
    dev.brisk.internal.body.BodyStream streamed;
    /** The handler made room while a DATA frame was half in: the window is opened once the frame is whole. */
    boolean windowWanted;
    long contentLength = -1;
    /** The most body bytes the request may carry: its route's limit (413 beyond). */
    long bodyLimit;
    long received;
    /** Bytes the client may still send on this stream before a WINDOW_UPDATE. */
    int recvWindow;
    /** When the last DATA arrived (or the head): the body-read timeout runs from here. */
    long lastInput;
    /** The body's rate ({@code min-body-rate}) from the head on, while it is received; null when none. */
    dev.brisk.internal.transport.DataRate bodyRate;

    // response
    /** What may still be sent on this stream (the peer's window), possibly negative after a SETTINGS change. */
    long sendWindow;
    /** The body bytes still to send (read mode), or null. */
    ByteBuffer out;
    /** A body given as a stream, read piece by piece, or null. */
    InputStream source;
    /** The {@code content-length} said for {@link #source} (a sized body: a file), else -1. */
    long sourceLength = -1;
    /** Bytes taken from {@link #source} so far. */
    long sourceRead;
    /** The source's pump (on the NIO engine), or null. */
    BodyPump pump;
    /** Whether the last body bytes are known (a byte body, or the source ended): END_STREAM may follow them. */
    boolean bodyComplete;
    /** What makes the trailer fields sent after the body (a HEADERS frame with END_STREAM), or null. */
    java.util.function.Supplier<java.util.Map<String, String>> trailers;
    /** Whether the stream waits in the connection's ready queue. */
    boolean queued;
    /** Since when data waits while the window is closed (0: not blocked). */
    long blockedSince;
    /**
     * {@code min-response-rate} for this stream's answer, measured while it waits for the client's window
     * (null until it first waits, or with no minimum): a client that opens its window a byte at a time
     * keeps making progress, so only a rate bounds it.
     */
    dev.brisk.internal.transport.DataRate sendRate;
    /** When the head was whole: latencies are measured from here. */
    long headAt;
    int status;
    long bodyBytes;

    // admission (the in-flight limit): a place in its queue, or a slot held until the answer
    AdmissionControl.Ticket ticket;
    long queuedAt;
    private final AtomicBoolean holdsSlot = new AtomicBoolean();
    private long admittedAt;
    private AdmissionControl admission;

    Http2Stream(int id, Http2Connection conn, long sendWindow, int recvWindow) {
        this.id = id;
        this.conn = conn;
        this.sendWindow = sendWindow;
        this.recvWindow = recvWindow;
    }

    /** The request holds an in-flight slot of {@code a} from now until its answer (or its end). */
    void admitted(AdmissionControl a) {
        admission = a;
        admittedAt = System.nanoTime();
        holdsSlot.set(true);
    }

    /** Gives the in-flight slot back, once, whichever thread gets here first. Any thread. */
    void releaseSlot() {
        if (holdsSlot.compareAndSet(true, false)) {
            admission.release(System.nanoTime() - admittedAt, false);
        }
    }

    /** Whether body bytes wait to be sent (or the END_STREAM that ends them). */
    boolean hasOutput() {
        return !localClosed && (out != null && out.hasRemaining() || bodyComplete || source != null);
    }

    // ---- ExchangeOwner (any thread) ----------------------------------------------------------

    @Override
    public dev.brisk.internal.web.RequestBody awaitDeferredBody(Exchange ex) {
        // an HTTP/2 body is never deferred: the exchange is dispatched with its body whole
        throw new IllegalStateException("HTTP/2 requests have no deferred body");
    }

    @Override
    public void complete(Exchange ex) {
        releaseSlot();
        if (conn.inLoop()) {
            conn.respond(this, ex);
        } else {
            conn.execute(() -> conn.respond(this, ex));
        }
    }

    @Override
    public String remoteAddress() {
        return conn.remoteAddress();
    }

    @Override
    public TlsInfo tls() {
        return conn.tls();
    }
}
