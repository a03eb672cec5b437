package dev.brisk.internal.http;

/**
 * Where a body decoder puts the bytes it decodes: a buffer, a file, a stream's window. The sink owns
 * the limits (size, memory) and refuses with the status to answer.
 */
public interface BodySink {
    /**
     * Takes {@code len} bytes of body from {@code b[off..off+len)}.
     *
     * @throws HttpParseException when they cannot be taken (413 over the limit, 503 out of memory, 500)
     */
    void append(byte[] b, int off, int len) throws HttpParseException;

    /**
     * Fails at once when {@code more} bytes (a chunk just announced) would not fit under the size limit.
     *
     * @throws HttpParseException 413
     */
    void ensureRoom(long more) throws HttpParseException;
}
