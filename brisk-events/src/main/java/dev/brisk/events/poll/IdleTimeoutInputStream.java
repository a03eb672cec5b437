package dev.brisk.events.poll;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * A response body that fails once no byte has arrived for the read timeout, or once the whole body has
 * taken longer than its total bound: a provider that sends headers and then stalls, or trickles slower
 * than the read timeout, or just faster than it (a byte every 29 s of a 30 s timeout), cannot hold a
 * poll forever. The watchdog ({@link #expired}) is checked by a timer; on expiry the reading thread is
 * interrupted and the stream closed, which unblocks the read.
 */
final class IdleTimeoutInputStream extends FilterInputStream {
    private final long timeoutNanos;
    private final long totalNanos;
    private final long started = System.nanoTime();
    private final Thread reader;
    private volatile long lastProgress = started;
    private volatile boolean timedOut;
    /** What {@link #expired} found: the idle timeout's message, or the total bound's. */
    private volatile String why;
    private boolean finished;

    IdleTimeoutInputStream(InputStream in, long timeoutNanos, long totalNanos, Thread reader) {
        super(in);
        this.timeoutNanos = timeoutNanos;
        this.totalNanos = totalNanos;
        this.reader = reader;
    }

    /** Why the stream timed out (after {@link #finish} answered true). */
    String why() {
        return why;
    }

    @Override
    public int read() throws IOException {
        try {
            int b = super.read();
            progressed();
            return b;
        } catch (IOException e) {
            throw timedOut ? timeout(e) : e;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            int n = super.read(b, off, len);
            progressed();
            return n;
        } catch (IOException e) {
            throw timedOut ? timeout(e) : e;
        }
    }

    /** Called by the timer: true (and the read aborted) when the stream has been idle too long. */
    synchronized boolean expired() {
        long now = System.nanoTime();
        boolean idle = now - lastProgress > timeoutNanos;
        if (!timedOut && !finished && (idle || now - started > totalNanos)) {
            why = idle ? "no data from the provider for " + timeoutNanos / 1_000_000 + " ms"
                    : "the feed took longer than " + totalNanos / 1_000_000 + " ms to arrive";
            timedOut = true;
            reader.interrupt();
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is only to unblock the reader
            }
        }
        return timedOut;
    }

    /**
     * Called by the reader once done (the timer cancelled): no interrupt can come after this, and one
     * that came from a timeout is cleared, so it cannot cut the reader's next wait short.
     *
     * @return whether the stream timed out
     */
    synchronized boolean finish() {
        finished = true;
        if (timedOut) {
            Thread.interrupted();
        }
        return timedOut;
    }

    private void progressed() throws IOException {
        if (timedOut) {
            throw timeout(null);
        }
        lastProgress = System.nanoTime();
    }

    private IOException timeout(IOException cause) {
        IOException e = new InterruptedIOException(why);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }
}
