package dev.brisk.internal.http1;

import dev.brisk.internal.http.TrailerFields;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A response body given as a stream, on its way out: a {@link StreamPump} on another thread reads the
 * stream and hands each piece to the loop, which writes it through the connection's {@link Output};
 * one piece in flight at a time. A chunked stream ends with the last chunk, a sized one (under
 * {@code Content-Length}) with its last byte; one that fails, or an HTTP/1.0 one, ends with the connection.
 *
 * <p>Loop thread, except {@link #write} and {@link #end}, which the pump calls from its thread.
 */
final class ResponseStream {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final ByteBuffer LAST_CHUNK = ByteBuffer.wrap(
            "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    private final Http1Connection conn;
    private final Output output;
    private final Runnable responseWritten;
    private StreamPump pump;
    /** Whether the stream being pumped is chunked (else raw: sized or until the connection closes). */
    private boolean chunked;
    /** A body stream whose head is still being written: closed if the connection goes first. */
    private InputStream pending;
    private CompletableFuture<Void> waiter;
    /** What makes the trailer fields after the last chunk, or null. */
    private Supplier<Map<String, String>> trailers;

    ResponseStream(Http1Connection conn, Output output, Runnable responseWritten) {
        this.conn = conn;
        this.output = output;
        this.responseWritten = responseWritten;
    }

    /** Whether a stream is being pumped. */
    boolean active() {
        return pump != null;
    }

    /** {@code in} follows a head now being written: {@link #start} or {@link #close} takes it. */
    void pending(InputStream in) {
        pending = in;
        if (conn.draining()) {
            drain(); // begun in a drain (a request received before it): an event stream ends as it starts
        }
    }

    /**
     * The head is written: pump {@code in} on {@code executor}, as chunks, or raw bytes of exactly
     * {@code length} (when not -1), or raw bytes until the connection closes; a chunked one ends with
     * the fields {@code trailers} makes (null: none).
     */
    void start(InputStream in, boolean chunked, long length, Executor executor,
            Supplier<Map<String, String>> trailers) {
        pending = null;
        this.chunked = chunked;
        this.trailers = chunked ? trailers : null;
        pump = new StreamPump(conn.channel(), in, chunked, length);
        executor.execute(pump);
    }

    /** One framed piece from the pump; the future completes once it is written. Any thread. */
    CompletableFuture<Void> write(ByteBuffer data) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        conn.execute(() -> {
            if (conn.isClosed()) {
                f.completeExceptionally(new IOException("connection closed"));
                return;
            }
            waiter = f;
            output.send(data, null, () -> {
                waiter = null;
                f.complete(null);
            });
        });
        return f;
    }

    /**
     * The pump is done: the stream ended ({@code ok}) or failed. {@code framed}: the body's end is
     * known to the client without the connection's (chunks, or a length). Any thread.
     */
    void end(boolean framed, boolean ok) {
        conn.execute(() -> {
            pump = null;
            Supplier<Map<String, String>> t = trailers;
            trailers = null;
            if (conn.isClosed()) {
                return;
            }
            ByteBuffer last = LAST_CHUNK;
            boolean whole = ok;
            if (ok && framed && chunked && t != null) {
                try {
                    List<String> fields = TrailerFields.make(t);
                    last = fields.isEmpty() ? LAST_CHUNK : ByteBuffer.wrap(TrailerFields.lastChunk(fields));
                } catch (Throwable e) { // the app's code, on the loop: whatever it throws cuts this answer only
                    LOG.log(System.Logger.Level.ERROR, "a response's trailer fields failed: the answer is cut", e);
                    whole = false; // as a failing stream: the client must not take the body for whole
                }
            }
            if (!whole || !framed) {
                // a failed stream cannot be reported in-band; closing tells the client it is incomplete
                conn.closeAfterResponse();
                responseWritten.run();
            } else if (chunked) {
                output.send(last.duplicate(), null, responseWritten);
            } else {
                responseWritten.run(); // the last of its Content-Length is written
            }
        });
    }

    /** A shutdown began: an endless body (an event stream) ends, so the response can finish. */
    void drain() {
        if (pending instanceof dev.brisk.internal.web.DrainableBody d) {
            d.drain();
        }
        StreamPump p = pump;
        if (p != null) {
            p.drain();
        }
    }

    /** The connection closed: the pump stops, a piece waiting to be written fails. */
    void close() {
        trailers = null;
        InputStream p0 = pending;
        pending = null;
        dev.brisk.internal.web.Exchange.closeQuietly(p0);
        CompletableFuture<Void> w = waiter;
        waiter = null;
        if (w != null) {
            w.completeExceptionally(new IOException("connection closed"));
        }
        StreamPump p = pump;
        pump = null;
        if (p != null) {
            p.cancel();
        }
    }
}
