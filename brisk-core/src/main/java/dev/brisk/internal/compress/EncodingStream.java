package dev.brisk.internal.compress;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A response body stream encoded as it is read: each piece read from the source is deflated and
 * flushed ({@code SYNC_FLUSH}), so a streamed response (events, a long export) reaches the client as
 * it is produced, not when a compression window fills. Holds one pooled {@link Deflater} and a 16 KiB
 * input buffer; owns the source. {@link #close} (once, any thread) closes the source and returns the
 * deflater. One reader at a time.
 */
public final class EncodingStream extends InputStream {
    private static final int PIECE = 16 * 1024;

    private final InputStream source;
    private final Coding coding;
    private final Deflater deflater;
    private final CRC32 crc;
    private final byte[] in = new byte[PIECE];
    /**
     * Encoded bytes not yet read. zlib needs room to flush into (with less than six bytes free, a flush
     * repeats its marker forever), so it deflates here, never into a caller's small buffer.
     */
    private final byte[] out = new byte[PIECE + 64];
    private int outPos;
    private int outLen;
    private final AtomicBoolean closed = new AtomicBoolean();
    private boolean headerDone;
    private boolean trailerDone;
    private long total;
    private boolean inputDone;
    /** The last input has been given with SYNC_FLUSH and its output may not all be out yet. */
    private boolean flushing;

    public EncodingStream(InputStream source, Coding coding) {
        this.source = source;
        this.coding = coding;
        this.deflater = coding.deflaters().acquire();
        this.crc = coding.isGzip() ? new CRC32() : null;
        this.headerDone = !coding.isGzip();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed.get()) {
            throw new IOException("stream closed");
        }
        if (len == 0) {
            return 0;
        }
        if (outPos == outLen && !fill()) {
            return -1;
        }
        int n = Math.min(len, outLen - outPos);
        System.arraycopy(out, outPos, b, off, n);
        outPos += n;
        return n;
    }

    /** Refills {@link #out}; false at the end. */
    private boolean fill() throws IOException {
        outPos = 0;
        outLen = 0;
        if (!headerDone) {
            System.arraycopy(Coding.GZIP_HEADER, 0, out, 0, Coding.GZIP_HEADER.length);
            outLen = Coding.GZIP_HEADER.length;
            headerDone = true;
            return true;
        }
        while (!deflater.finished()) {
            if (!inputDone && !flushing && deflater.needsInput()) {
                int r = source.read(in, 0, PIECE);
                if (r < 0) {
                    inputDone = true;
                    deflater.finish();
                } else if (r > 0) {
                    if (crc != null) {
                        crc.update(in, 0, r);
                    }
                    total += r;
                    deflater.setInput(in, 0, r);
                    flushing = true;
                }
                continue;
            }
            int n = deflater.deflate(out, 0, out.length, inputDone ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
            if (n < out.length) {
                flushing = false; // everything given so far is out
            }
            if (n > 0) {
                outLen = n;
                return true;
            }
        }
        if (crc != null && !trailerDone) {
            trailerDone = true;
            outLen = Coding.trailer(out, 0, crc.getValue(), total);
            return true;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            try {
                source.close();
            } finally {
                coding.deflaters().release(deflater);
            }
        }
    }
}
