package dev.brisk.events.feed;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Passes bytes through and fails once more than a bound has been read, so that an oversized feed is
 * cut off while streaming instead of after it has been consumed. Never reads more than one byte past
 * the bound from the underlying stream. Closing it does not close the underlying stream: the caller
 * who opened that stream closes it.
 */
final class SizeLimitedInputStream extends InputStream {
    private final InputStream in;
    private final long maxBytes;
    private long count;
    private boolean exceeded;

    SizeLimitedInputStream(InputStream in, long maxBytes) {
        this.in = Objects.requireNonNull(in, "in");
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " is negative");
        }
        this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
        checkNotExceeded();
        int b = in.read();
        if (b >= 0) {
            add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        checkNotExceeded();
        if (len == 0) {
            return 0;
        }
        // at most one byte beyond the bound: enough to know it was exceeded
        int n = in.read(b, off, (int) Math.min(len, maxBytes - count + 1));
        if (n > 0) {
            add(n);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    /** Whether the bound was exceeded: the failure a parser reports was caused by the size, not the content. */
    boolean exceeded() {
        return exceeded;
    }

    /** Bytes read so far. */
    long count() {
        return count;
    }

    private void add(int n) throws IOException {
        count += n;
        if (count > maxBytes) {
            exceeded = true;
            throw tooLarge();
        }
    }

    private void checkNotExceeded() throws IOException {
        // sticky: a parser that retries after the failure must not get more bytes
        if (exceeded) {
            throw tooLarge();
        }
    }

    private IOException tooLarge() {
        return new IOException("feed is larger than " + maxBytes + " bytes");
    }
}
