package dev.brisk.internal.engine;

import java.io.IOException;
import java.io.InputStream;

/**
 * Copies a response body stream to its connection, one chunk in flight at a time, so a slow client
 * holds at most one chunk in memory. Runs on a virtual thread because reading the stream may block.
 */
final class StreamPump implements Runnable {
    private static final int CHUNK = 16 * 1024;

    private final Connection connection;
    private final InputStream in;
    private final boolean chunked;
    private volatile Thread runner;
    private volatile boolean cancelled;

    StreamPump(Connection connection, InputStream in, boolean chunked) {
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

    @Override
    public void run() {
        runner = Thread.currentThread();
        if (cancelled) {
            return;
        }
        boolean ok = false;
        try (InputStream s = in) {
            byte[] buf = new byte[CHUNK];
            int n;
            while ((n = s.read(buf)) >= 0) {
                if (n > 0) {
                    // the loop completes each write, or fails it when the write times out or the connection closes
                    connection.await(connection.writeChunk(Connection.frame(buf, n, chunked)));
                }
            }
            ok = true;
        } catch (IOException | RuntimeException | java.util.concurrent.ExecutionException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.DEBUG, "response stream ended early", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.endStream(chunked, ok);
    }
}
