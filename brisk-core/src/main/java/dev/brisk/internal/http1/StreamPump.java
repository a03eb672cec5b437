package dev.brisk.internal.http1;

import dev.brisk.internal.http.ResponseEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Copies a response body stream to its connection, one chunk in flight at a time, so a slow client
 * holds at most one chunk in memory. Runs on a virtual thread because reading the stream may block.
 * Three framings: chunks, raw bytes up to the end of the connection (HTTP/1.0), or raw bytes of a
 * known length (a {@link dev.brisk.internal.files.SizedBody} under {@code Content-Length}: a stream
 * that yields fewer or more bytes fails, and the connection ends, since the framing cannot be kept).
 */
final class StreamPump implements Runnable {
    private static final int CHUNK = 16 * 1024;

    private final Http1Channel connection;
    private final InputStream in;
    private final boolean chunked;
    /** The exact byte count under {@code Content-Length}, or -1. */
    private final long length;
    private volatile Thread runner;
    private volatile boolean cancelled;

    /**
     * @param chunked whether each piece is framed as a chunk
     * @param length the byte count announced in {@code Content-Length}, or -1 when none was
     */
    StreamPump(Http1Channel connection, InputStream in, boolean chunked, long length) {
        this.connection = connection;
        this.in = in;
        this.chunked = chunked;
        this.length = length;
    }

    /** The connection closed: stop, even if blocked reading the source. Any thread. */
    void cancel() {
        cancelled = true;
        Thread t = runner;
        if (t != null) {
            t.interrupt(); // the pump closes the stream itself, once
        }
    }

    /** A shutdown began: a body that would never end by itself ends now. Any thread. */
    void drain() {
        if (in instanceof dev.brisk.internal.web.DrainableBody d) {
            d.drain();
        }
    }

    /** One piece of the body: a copy, framed as a chunk when {@code chunked}. */
    static ByteBuffer frame(byte[] data, int n, boolean chunked) {
        if (!chunked) {
            return ByteBuffer.wrap(Arrays.copyOf(data, n));
        }
        byte[] size = ResponseEncoder.chunkHeader(n);
        ByteBuffer b = ByteBuffer.allocate(size.length + n + 2);
        b.put(size).put(data, 0, n).put((byte) '\r').put((byte) '\n').flip();
        return b;
    }

    @Override
    public void run() {
        runner = Thread.currentThread();
        if (cancelled) {
            dev.brisk.internal.web.Exchange.closeQuietly(in); // nobody else will
            return;
        }
        boolean ok = false;
        try (InputStream s = in) {
            byte[] buf = new byte[CHUNK];
            long sent = 0;
            int n;
            while ((n = s.read(buf, 0, length < 0 ? CHUNK : (int) Math.min(CHUNK, length - sent + 1))) >= 0) {
                if (length >= 0 && sent + n > length) {
                    throw new IOException("the body stream is longer than its length " + length);
                }
                if (n > 0) {
                    // the loop completes each write, or fails it when the write times out or the connection closes
                    connection.await(connection.stream().write(frame(buf, n, chunked)));
                    sent += n;
                }
            }
            if (length >= 0 && sent != length) {
                throw new IOException("the body stream ended after " + sent + " of its " + length + " bytes");
            }
            ok = true;
        } catch (IOException | RuntimeException | java.util.concurrent.ExecutionException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.DEBUG, "response stream ended early", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.stream().end(chunked || length >= 0, ok);
    }
}
