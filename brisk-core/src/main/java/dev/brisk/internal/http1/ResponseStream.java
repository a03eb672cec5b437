package dev.brisk.internal.http1;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A response body given as a stream, on its way out: a {@link StreamPump} on another thread reads the
 * stream and hands each piece to the loop, which writes it through the connection's {@link Output};
 * one piece in flight at a time. A chunked stream ends with the last chunk; one that fails, or an
 * HTTP/1.0 one, ends with the connection.
 *
 * <p>Loop thread, except {@link #write} and {@link #end}, which the pump calls from its thread.
 */
final class ResponseStream {
    private static final ByteBuffer LAST_CHUNK = ByteBuffer.wrap(
            "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    private final Http1Connection conn;
    private final Output output;
    private final Runnable responseWritten;
    private StreamPump pump;
    /** A body stream whose head is still being written: closed if the connection goes first. */
    private InputStream pending;
    private CompletableFuture<Void> waiter;

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
    }

    /** The head is written: pump {@code in} on {@code executor}. */
    void start(InputStream in, boolean chunked, Executor executor) {
        pending = null;
        pump = new StreamPump(conn.channel(), in, chunked);
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

    /** The pump is done: the stream ended ({@code ok}) or failed. Any thread. */
    void end(boolean chunked, boolean ok) {
        conn.execute(() -> {
            pump = null;
            if (conn.isClosed()) {
                return;
            }
            if (!ok || !chunked) {
                // a failed stream cannot be reported in-band; closing tells the client it is incomplete
                conn.closeAfterResponse();
                responseWritten.run();
            } else {
                output.send(LAST_CHUNK.duplicate(), null, responseWritten);
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
