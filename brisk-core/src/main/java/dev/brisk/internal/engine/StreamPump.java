package dev.brisk.internal.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * Copies a response body stream to its connection, one chunk in flight at a time, so a slow client
 * holds at most one chunk in memory. Runs on a virtual thread because reading the stream may block.
 */
final class StreamPump implements Runnable {
    private static final int CHUNK = 16 * 1024;

    private final Connection connection;
    private final InputStream in;
    private final boolean chunked;
    private final long waitMillis;

    StreamPump(Connection connection, InputStream in, boolean chunked, long waitMillis) {
        this.connection = connection;
        this.in = in;
        this.chunked = chunked;
        this.waitMillis = waitMillis;
    }

    @Override
    public void run() {
        boolean ok = false;
        try (InputStream s = in) {
            byte[] buf = new byte[CHUNK];
            int n;
            while ((n = s.read(buf)) >= 0) {
                if (n > 0) {
                    connection.writeChunk(Connection.frame(buf, n, chunked)).get(waitMillis, TimeUnit.MILLISECONDS);
                }
            }
            ok = true;
        } catch (IOException | RuntimeException | java.util.concurrent.ExecutionException
                 | java.util.concurrent.TimeoutException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.DEBUG, "response stream ended early", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.endStream(chunked, ok);
    }
}
