package dev.brisk.internal.http1;

import dev.brisk.internal.http.ResponseEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Copies a response body stream to its connection, one chunk in flight at a time, so a slow client
 * holds at most one chunk in memory. Runs on a virtual thread because reading the stream may block.
 */
final class StreamPump implements Runnable {
    private static final int CHUNK = 16 * 1024;

    private final Http1Channel connection;
    private final InputStream in;
    private final boolean chunked;
    private volatile Thread runner;
    private volatile boolean cancelled;

    StreamPump(Http1Channel connection, InputStream in, boolean chunked) {
        this.connection = connection;
        this.in = in;
        this.chunked = chunked;
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
            int n;
            while ((n = s.read(buf)) >= 0) {
                if (n > 0) {
                    // the loop completes each write, or fails it when the write times out or the connection closes
                    connection.await(connection.stream().write(frame(buf, n, chunked)));
                }
            }
            ok = true;
        } catch (IOException | RuntimeException | java.util.concurrent.ExecutionException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.DEBUG, "response stream ended early", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.stream().end(chunked, ok);
    }
}
