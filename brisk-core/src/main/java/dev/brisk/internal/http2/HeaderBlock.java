package dev.brisk.internal.http2;

/**
 * The header block a client is sending on one connection: the HEADERS frame's fragment and its
 * CONTINUATIONs assembled into one run of bytes, bounded across all of them (a CONTINUATION flood is
 * stopped at {@code 2 × max-header-list-size}), then decoded by the connection's one HPACK decoder,
 * whose dynamic table every block on the connection shares (so even a block for a stream that is not
 * served must be decoded). A large block's buffer is dropped once decoded: an idle connection keeps
 * 1 KiB.
 *
 * <pre>
 *   begin (HEADERS) ──append* (its fragment, CONTINUATIONs)──▶ decode ──▶ done ──▶ begin ...
 * </pre>
 *
 * <p>Loop thread only.
 */
final class HeaderBlock {
    private static final int SMALL = 1024;
    private static final int KEEP_AT_MOST = 16 * 1024;

    private final HpackDecoder decoder = new HpackDecoder(H2.DEFAULT_HEADER_TABLE_SIZE);
    private final int cap;
    private byte[] bytes = new byte[SMALL];
    private int length;
    private boolean endStream;
    private int dependency;
    private long started;

    /** @param cap the most bytes one block may have, CONTINUATIONs included */
    HeaderBlock(int cap) {
        this.cap = cap;
    }

    /**
     * A HEADERS frame starts a block.
     *
     * @param endStream its END_STREAM flag
     * @param dependency the stream its priority names (0: none)
     * @param now the loop's clock, for the header deadline
     */
    void begin(boolean endStream, int dependency, long now) {
        length = 0;
        this.endStream = endStream;
        this.dependency = dependency;
        this.started = now;
    }

    /** Adds a fragment; a block past its cap is a connection error ({@code ENHANCE_YOUR_CALM}). */
    void append(byte[] a, int off, int len) throws Http2Exception {
        if (length + len > cap) {
            // HPACK cannot skip part of a block: the only safe answer to a flood is to stop the connection
            throw new Http2Exception(H2.ENHANCE_YOUR_CALM, "header block larger than " + cap + " bytes");
        }
        if (length + len > bytes.length) {
            bytes = java.util.Arrays.copyOf(bytes, Math.max(length + len, bytes.length * 2));
        }
        System.arraycopy(a, off, bytes, length, len);
        length += len;
    }

    /** Decodes the whole block into {@code fields} (reset first: a request's head, or its trailers). */
    void decode(RequestFields fields, boolean trailers) throws Http2Exception {
        fields.reset(trailers);
        decoder.decode(bytes, 0, length, fields);
        fields.finish();
    }

    /** The block has been used: a large buffer goes. */
    void done() {
        if (bytes.length > KEEP_AT_MOST) {
            bytes = new byte[SMALL];
        }
    }

    boolean endStream() {
        return endStream;
    }

    int dependency() {
        return dependency;
    }

    /** When the block began (the loop's clock). */
    long started() {
        return started;
    }
}
