package dev.brisk.internal.http1;

import dev.brisk.ServerOptions;
import dev.brisk.internal.http.BodyBuffer;
import dev.brisk.internal.http.ChunkedDecoder;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;

/**
 * Reads one request body into memory as its bytes arrive: a declared length, or chunks (decoded, to
 * the {@code max-body-size} limit). The buffer grows with the bytes received, so a declared length
 * alone never reserves memory. Loop thread only; one body at a time.
 */
final class BodyReader {
    private final ServerOptions options;
    private ChunkedDecoder chunks;
    private long remaining;
    private BodyBuffer body;

    BodyReader(ServerOptions options) {
        this.options = options;
    }

    /** Starts reading the body {@code parser}'s head announced. */
    void begin(RequestParser parser) {
        if (parser.chunked()) {
            chunks = new ChunkedDecoder(options.maxChunkExtension(), options.maxHeaderSize());
            body = new BodyBuffer(options.maxBodySize(), 1024);
        } else {
            remaining = parser.contentLength();
            body = new BodyBuffer(remaining, (int) Math.min(remaining, 16 * 1024));
        }
    }

    /**
     * Takes body bytes from {@code a[from..end)}: returns where the unconsumed bytes start (the next
     * request's, once the body is {@link #done}).
     *
     * @throws HttpParseException on bad chunk framing or a body over the limit
     */
    int read(byte[] a, int from, int end) throws HttpParseException {
        if (chunks != null) {
            return end > from ? chunks.decode(a, from, end, body) : from;
        }
        int n = (int) Math.min(remaining, end - from);
        if (n > 0) {
            body.append(a, from, n); // cannot fail: the limit is the declared length
            remaining -= n;
        }
        return from + Math.max(n, 0);
    }

    boolean done() {
        return chunks != null ? chunks.done() : remaining <= 0;
    }

    /** The whole body, once {@link #done}; the reader is idle afterwards. */
    byte[] take() {
        byte[] b = body.toArray();
        body = null;
        chunks = null;
        return b;
    }

    /** Drops a body being read (refused, or the connection closed). */
    void abort() {
        body = null;
        chunks = null;
    }
}
