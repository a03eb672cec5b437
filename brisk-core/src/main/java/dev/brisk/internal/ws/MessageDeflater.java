package dev.brisk.internal.ws;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * Compresses one session's outgoing messages for permessage-deflate (RFC 7692 section 7.2.1): deflate
 * with a sync flush, the flush's closing {@code 00 00 FF FF} cut off. With context takeover the session
 * keeps its compressor, whose window spans messages (better for many small, similar ones), counted in
 * {@code ws-memory} while it is kept; without it, or while {@code ws-memory} cannot take it, each message
 * is compressed alone by a pooled compressor. A message below {@link #MIN_SIZE}, one
 * beyond a window narrower than 15 bits, or one that would not shrink goes uncompressed: null.
 *
 * <p>Threads: {@link #compress} is called under the session's send lock, so one at a time and in the
 * order the messages are queued (with context takeover, the order of compression is the order of
 * decompression). {@link #end} once the session is over.
 */
final class MessageDeflater {
    /** Smaller messages are not worth a compressor's time (and rarely shrink). */
    static final int MIN_SIZE = 32;

    /**
     * What a session's own compressor is counted as in {@code ws-memory}: zlib's deflate state at the
     * default level, a 32 KiB window and its hash and pending buffers (about 256 KiB of native memory),
     * rounded up.
     */
    static final int CONTEXT_BYTES = 272 << 10;

    private final DeflaterPool pool;
    private final MemoryBudget budget;
    private final boolean contextTakeover;
    private final int windowLimit;
    private Deflater own;

    MessageDeflater(DeflateOffer offer, DeflaterPool pool, MemoryBudget budget) {
        this.pool = pool;
        this.budget = budget;
        this.contextTakeover = !offer.serverNoContext() && offer.serverWindowBits() == 15;
        this.windowLimit = offer.serverWindowBits() == 15 ? Integer.MAX_VALUE : 1 << offer.serverWindowBits();
    }

    /** {@code data[off..off+len)} compressed, or null to send it as it is. */
    byte[] compress(byte[] data, int off, int len) {
        if (len < MIN_SIZE || (!contextTakeover && len > windowLimit)) {
            return null;
        }
        boolean kept = contextTakeover && (own != null || keepOne());
        Deflater d = kept ? own : pool.take();
        try {
            d.setInput(data, off, len);
            byte[] out = new byte[Math.max(64, len / 2 + 64)];
            int n = 0;
            while (true) {
                n += d.deflate(out, n, out.length - n, Deflater.SYNC_FLUSH);
                if (n < out.length) {
                    break; // the flush is complete only when the output did not fill up
                }
                out = Arrays.copyOf(out, out.length * 2);
            }
            int size = n - 4; // the sync flush ends with 00 00 FF FF, which the receiver adds back
            if (!kept && size >= len) {
                return null; // no gain; with a kept compressor the window needs the message all the same
            }
            return Arrays.copyOf(out, size);
        } finally {
            if (!kept) {
                pool.give(d);
            }
        }
    }

    /**
     * Makes the session's own compressor if {@code ws-memory} can take it ({@link #CONTEXT_BYTES});
     * else the message is compressed alone by a pooled one, which the client reads all the same (its
     * window simply goes unused), and the next message tries again.
     */
    private boolean keepOne() {
        if (!budget.reserveContext(CONTEXT_BYTES)) {
            return false;
        }
        own = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        return true;
    }

    void end() {
        if (own != null) {
            own.end();
            own = null;
            budget.releaseContext(CONTEXT_BYTES);
        }
    }
}
