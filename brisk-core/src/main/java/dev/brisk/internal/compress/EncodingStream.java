package dev.brisk.internal.compress;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A response body stream encoded as it is read. What the source has ready ({@link InputStream#available})
 * is deflated on without a flush, so a file or a buffered body compresses as one stream and comes out
 * in few large pieces; when the source has nothing ready, so that its next read may wait for its
 * producer, what was given so far is flushed ({@code SYNC_FLUSH}) and handed out first, so a streamed
 * response (events, a long export) reaches the client as it is produced, not when a compression
 * window fills.
 *
 * <p>Holds one pooled {@link Deflater} and one pooled pair of 16 KiB buffers (see {@link Deflaters});
 * owns the source. {@link #close} (once, any thread) closes the source and returns the deflater and
 * buffers; a read after it fails; {@link #drain} passes a shutdown on to the source. One reader at a time.
 */
public final class EncodingStream extends InputStream implements dev.brisk.internal.web.DrainableBody {
    static final int PIECE = 16 * 1024;

    private final InputStream source;
    private final Coding coding;
    private final Deflater deflater;
    private final CRC32 crc;
    /** Input in {@code [0, PIECE)}, encoded bytes not yet read in {@code [OUT, OUT + PIECE)} (see {@link #ROOM}). */
    private byte[] buffers;
    /** Where the encoded bytes begin in {@link #buffers}. */
    private static final int OUT = PIECE;
    /**
     * The least room a deflate call is given. zlib needs room to flush into (with less than six bytes
     * free, a flush repeats its marker forever), so it deflates into this stream's buffer, never into a
     * caller's small one, and a fill stops once less than this is left.
     */
    private static final int ROOM = 64;
    /** The buffer pair's size: input, then output. */
    static final int BUFFERS = 2 * PIECE;
    private int outPos;
    private int outLen;
    /**
     * {@link #READING} while a read runs, {@link #CLOSED} once closed. A close during a read (another
     * thread) closes the source at once but leaves the pooled deflater and buffers to the read, which
     * gives them back as it ends: they are never in two streams at once.
     */
    private final AtomicInteger state = new AtomicInteger();
    private static final int READING = 1;
    private static final int CLOSED = 2;
    private boolean headerDone;
    private boolean trailerDone;
    private long total;
    private boolean inputDone;
    /** The last input has been given and its output (flushed or not) may not all be out yet. */
    private boolean flushing;
    /** Whether the last input is flushed: the source had nothing more ready when it was read. */
    private boolean sync;

    public EncodingStream(InputStream source, Coding coding) {
        this.source = source;
        this.coding = coding;
        this.deflater = coding.deflaters().acquire();
        this.buffers = coding.deflaters().acquireBuffers();
        this.crc = coding.isGzip() ? new CRC32() : null;
        this.headerDone = !coding.isGzip();
    }

    /** A shutdown began: an endless source (a compressed event stream) ends, and with it this stream. Any thread. */
    @Override
    public void drain() {
        if (source instanceof dev.brisk.internal.web.DrainableBody d) {
            d.drain();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (!state.compareAndSet(0, READING)) {
            throw new IOException("stream closed");
        }
        try {
            if (len == 0) {
                return 0;
            }
            if (outPos == outLen && !fill()) {
                return -1;
            }
            int n = Math.min(len, outLen - outPos);
            System.arraycopy(buffers, OUT + outPos, b, off, n);
            outPos += n;
            return n;
        } finally {
            if (!state.compareAndSet(READING, 0)) {
                release(); // closed meanwhile: the pooled parts were left to this read
            }
        }
    }

    /** Refills the output; false at the end. */
    private boolean fill() throws IOException {
        outPos = 0;
        outLen = 0;
        if (!headerDone) {
            System.arraycopy(Coding.GZIP_HEADER, 0, buffers, OUT, Coding.GZIP_HEADER.length);
            outLen = Coding.GZIP_HEADER.length;
            headerDone = true;
        }
        while (!deflater.finished() && PIECE - outLen >= ROOM) {
            if (!inputDone && !flushing && deflater.needsInput()) {
                if (outLen > 0 && source.available() <= 0) {
                    return true; // the next read may wait for the producer: what is encoded goes out first
                }
                int r = source.read(buffers, 0, PIECE);
                if (r < 0) {
                    if (source instanceof dev.brisk.internal.files.SizedBody sized && sized.length() >= 0
                            && total != sized.length()) {
                        // a file that shrank while sent: a clean trailer would pass the cut body off as whole
                        throw new IOException("the body ended after " + total + " of its " + sized.length()
                                + " bytes (the file changed while it was sent)");
                    }
                    inputDone = true;
                    deflater.finish();
                } else if (r > 0) {
                    if (crc != null) {
                        crc.update(buffers, 0, r);
                    }
                    total += r;
                    deflater.setInput(buffers, 0, r);
                    flushing = true;
                    sync = source.available() <= 0;
                }
                continue;
            }
            int room = PIECE - outLen;
            int n = deflater.deflate(buffers, OUT + outLen, room,
                    inputDone || !sync ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
            outLen += n;
            if (n < room) {
                flushing = false; // everything given so far is taken (and, flushed, out)
            }
        }
        if (deflater.finished() && crc != null && !trailerDone && PIECE - outLen >= 8) {
            trailerDone = true;
            outLen = Coding.trailer(buffers, OUT + outLen, crc.getValue(), total) - OUT;
        }
        return outLen > 0;
    }

    @Override
    public void close() throws IOException {
        int was = state.getAndUpdate(v -> v | CLOSED);
        if ((was & CLOSED) != 0) {
            return;
        }
        try {
            source.close();
        } finally {
            if (was == 0) {
                release();
            }
        }
    }

    private void release() {
        coding.deflaters().release(deflater);
        coding.deflaters().releaseBuffers(buffers);
        buffers = null;
    }
}
