package dev.brisk.internal.files;

import java.io.InputStream;

/**
 * A response body given as a stream whose length is known before the first byte: the connection frames
 * it with {@code Content-Length} rather than chunks, and a stream that ends early (or runs long) ends
 * the connection, since its framing can no longer be kept. Whoever reads it as a plain stream (a
 * wrapper, the compressor) still gets its bytes.
 *
 * <p>Ownership: set as a response body, it belongs to the server, which closes it exactly once, after
 * the last byte is written or when the response is abandoned. Read by one thread at a time.
 */
public abstract class SizedBody extends InputStream {
    private Object contentKey;

    /** {@return how many bytes the stream yields: the response's {@code Content-Length}} */
    public abstract long length();

    /**
     * {@return a value equal for every body with these same bytes (a whole file: its path, size,
     * modification time and file key), by which an encoding of them may be reused; or null when the
     * bytes cannot be told apart so (part of a file, a file changed too lately to be trusted)}
     */
    public final Object contentKey() {
        return contentKey;
    }

    /** Sets {@link #contentKey} before the body is handed on; returns this. */
    final SizedBody keyed(Object key) {
        this.contentKey = key;
        return this;
    }
}
