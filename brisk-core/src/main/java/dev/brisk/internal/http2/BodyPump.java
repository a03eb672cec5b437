package dev.brisk.internal.http2;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

/**
 * Reads a response body stream for a stream of a non-blocking connection, on a thread of its own (the
 * read may block): one piece at a time into one array, handed to the loop, and the next read only
 * once the loop has framed that piece ({@link #next}), so a slow client holds one piece in memory.
 * The loop calls {@link Http2Connection#pumped} with each piece, then with the end (-1) or a
 * failure (-2).
 *
 * <p>Threads: {@link #run} on the pump's thread; {@link #next} and {@link #cancel} on the loop.
 */
final class BodyPump implements Runnable {
    static final int END = -1;
    static final int FAILED = -2;

    private final Http2Connection conn;
    private final Http2Stream stream;
    private final InputStream in;
    private final byte[] buf;
    private final Semaphore turn = new Semaphore(0);
    private volatile boolean cancelled;
    private volatile Thread runner;

    BodyPump(Http2Connection conn, Http2Stream stream, InputStream in, int pieceSize) {
        this.conn = conn;
        this.stream = stream;
        this.in = in;
        this.buf = new byte[pieceSize];
    }

    void start(Executor executor) {
        executor.execute(this);
    }

    /** The loop has framed the last piece: read the next. */
    void next() {
        turn.release();
    }

    /** The stream is gone: stop, even when blocked reading the source. */
    void cancel() {
        cancelled = true;
        Thread t = runner;
        if (t != null) {
            t.interrupt();
        }
        turn.release();
    }

    @Override
    public void run() {
        runner = Thread.currentThread();
        int result = FAILED;
        try (InputStream s = in) {
            while (!cancelled) {
                int n = s.read(buf, 0, buf.length);
                if (n < 0) {
                    result = END;
                    break;
                }
                if (n > 0) {
                    int size = n;
                    conn.execute(() -> conn.pumped(stream, buf, size));
                    turn.acquire();
                }
            }
        } catch (IOException | RuntimeException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.DEBUG, "response stream ended early", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            runner = null;
        }
        if (!cancelled) {
            int r = result;
            conn.execute(() -> conn.pumped(stream, buf, r));
        }
    }
}
