package dev.brisk.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response body of known length read from another stream (a resource inside a jar), at most
 * {@code length} bytes of it. Owns the stream and a release task (an open-file permit), run once on
 * {@link #close}. One reader at a time; close from any thread.
 */
final class StreamSlice extends SizedBody {
    private final InputStream in;
    private final long length;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();
    private long read;

    StreamSlice(InputStream in, long length, Runnable release) {
        this.in = in;
        this.length = length;
        this.release = release;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int read() throws IOException {
        if (read >= length) {
            return -1;
        }
        int b = in.read();
        if (b >= 0) {
            read++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        long left = length - read;
        if (left <= 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
            read += n;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            try {
                in.close();
            } finally {
                release.run();
            }
        }
    }
}
