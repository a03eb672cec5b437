package dev.brisk.internal.http;

import java.util.Arrays;

/** A growable byte array with a hard limit; appending past it fails with 413. For tests and benchmarks of the decoder. Not thread-safe. */
public final class BodyBuffer implements BodySink {
    private final long limit;
    private byte[] bytes;
    private int size;

    public BodyBuffer(long limit, int initial) {
        this.limit = limit;
        this.bytes = new byte[(int) Math.max(16, Math.min(initial, limit))];
    }

    @Override
    public void append(byte[] b, int off, int len) throws HttpParseException {
        ensureRoom(len);
        if (size + len > bytes.length) {
            long grown = Math.max(size + (long) len, (long) bytes.length * 2);
            bytes = Arrays.copyOf(bytes, (int) Math.min(grown, limit));
        }
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    /** Fails with 413 at once when {@code more} bytes would not fit under the limit. */
    @Override
    public void ensureRoom(long more) throws HttpParseException {
        if (size + more > limit) {
            throw new HttpParseException(413, "Request body is larger than " + limit + " bytes");
        }
    }

    public int size() {
        return size;
    }

    /** The bytes appended so far, as an array of exactly that length. */
    public byte[] toArray() {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }
}
