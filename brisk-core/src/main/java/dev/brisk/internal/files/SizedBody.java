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
    /** {@return how many bytes the stream yields: the response's {@code Content-Length}} */
    public abstract long length();
}
