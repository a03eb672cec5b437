package dev.brisk.internal.compress;

import dev.brisk.internal.files.FileRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One content coding the server can apply: {@code gzip} (RFC 1952: a 10-byte header, raw deflate data,
 * then the CRC-32 and length of the input) or {@code deflate} (RFC 9110 section 8.4.1.2: the zlib
 * format of RFC 1950, which {@link Deflater} writes itself), at one level. Immutable; thread-safe.
 */
public final class Coding {
    /** The gzip header: magic, deflate, no flags, no time, no extra flags, unknown OS. */
    static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private final String name;
    private final boolean gzip;
    private final Deflaters deflaters;

    private Coding(String name, boolean gzip, int level) {
        this.name = name;
        this.gzip = gzip;
        this.deflaters = new Deflaters(level, gzip);
    }

    private static final Coding[] GZIP = new Coding[10];
    private static final Coding[] DEFLATE = new Coding[10];

    static {
        for (int level = 1; level <= 9; level++) {
            GZIP[level] = new Coding("gzip", true, level);
            DEFLATE[level] = new Coding("deflate", false, level);
        }
    }

    /** {@return gzip at {@code level} (1 to 9): one per level, its deflaters shared by every user} */
    public static Coding gzip(int level) {
        return GZIP[level];
    }

    /** {@return deflate (zlib) at {@code level} (1 to 9): one per level, shared} */
    public static Coding deflate(int level) {
        return DEFLATE[level];
    }

    /** {@return the coding's name, as {@code Content-Encoding} gives it} */
    public String name() {
        return name;
    }

    boolean isGzip() {
        return gzip;
    }

    Deflaters deflaters() {
        return deflaters;
    }

    /** {@return {@code in}'s remaining bytes encoded; {@code in}'s position is not moved} */
    public ByteBuffer encode(ByteBuffer in) {
        ByteBuffer src = in.duplicate();
        int length = src.remaining();
        byte[] out = new byte[Math.max(64, length / 4 + 32)];
        int n = 0;
        if (gzip) {
            System.arraycopy(GZIP_HEADER, 0, out, 0, GZIP_HEADER.length);
            n = GZIP_HEADER.length;
        }
        CRC32 crc = null;
        if (gzip) {
            crc = new CRC32();
            crc.update(src.duplicate());
        }
        Deflater d = deflaters.acquire();
        try {
            d.setInput(src);
            d.finish();
            while (!d.finished()) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                n += d.deflate(out, n, out.length - n);
            }
        } finally {
            deflaters.release(d);
        }
        if (gzip) {
            if (out.length - n < 8) {
                out = Arrays.copyOf(out, n + 8);
            }
            n = trailer(out, n, crc.getValue(), length);
        }
        return ByteBuffer.wrap(out, 0, n);
    }

    /**
     * {@return all {@code length} bytes of {@code in} encoded, as one deflate stream without flushes}
     * Reads {@code in} in 16 KiB pieces with a pooled deflater and pooled buffers, so what it allocates
     * is the encoded bytes alone; a {@link FileRegion} of up to {@value Deflaters#WHOLE} bytes is read
     * whole into a pooled direct buffer instead, while one is free. Does not close {@code in}.
     *
     * @throws IOException when {@code in} fails, or ends before {@code length} bytes (a file that shrank)
     */
    public ByteBuffer encode(java.io.InputStream in, long length) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("length out of range: " + length);
        }
        // a file that fits a pooled direct buffer is read into it whole and deflated from there: no copy
        // through the heap, no 16 KiB pieces (one positional read, from the page cache)
        ByteBuffer direct = in instanceof FileRegion && length > 0 && length <= Deflaters.WHOLE
                ? deflaters.acquireDirect() : null;
        try {
            return encode(in, length, direct);
        } finally {
            if (direct != null) {
                deflaters.releaseDirect(direct);
            }
        }
    }

    private ByteBuffer encode(java.io.InputStream in, long length, ByteBuffer direct) throws IOException {
        // deflate's worst case: stored blocks, 5 bytes each per 16 KiB, plus the framing
        int bound = (int) (length + 5 * (length / 16_384 + 1) + 32);
        CRC32 crc = gzip ? new CRC32() : null;
        long left = length;
        if (direct != null) {
            direct.limit((int) length);
            while (direct.hasRemaining()) {
                if (((FileRegion) in).read(direct) < 0) {
                    throw new IOException("the body ended after " + direct.position() + " of its " + length + " bytes");
                }
            }
            direct.flip();
            if (crc != null) {
                crc.update(direct.duplicate());
            }
        }
        Deflater d = deflaters.acquire();
        byte[] pair = deflaters.acquireBuffers(); // input in the first half; output in the second, until it overflows
        int base = EncodingStream.PIECE;
        byte[] out = pair;
        int n = base;
        if (gzip) {
            System.arraycopy(GZIP_HEADER, 0, out, n, GZIP_HEADER.length);
            n += GZIP_HEADER.length;
        }
        try {
            if (direct != null) {
                d.setInput(direct);
                left = 0;
            }
            if (left == 0) {
                d.finish();
            }
            while (!d.finished()) {
                if (d.needsInput() && left > 0) {
                    int r = in.read(pair, 0, (int) Math.min(EncodingStream.PIECE, left));
                    if (r < 0) {
                        throw new IOException("the body ended after " + (length - left) + " of its " + length + " bytes");
                    }
                    if (crc != null) {
                        crc.update(pair, 0, r);
                    }
                    d.setInput(pair, 0, r);
                    left -= r;
                    if (left == 0) {
                        d.finish();
                    }
                    continue;
                }
                if (n == out.length) {
                    // past the pooled half: an array of its own, up to the bound at most (past it, should it
                    // ever be, by 1 KiB rather than never)
                    int size = Math.max(n - base + 1024, (int) Math.min((long) bound, 2L * (n - base)));
                    byte[] grown = new byte[size];
                    System.arraycopy(out, base, grown, 0, n - base);
                    n -= base;
                    base = 0;
                    out = grown;
                }
                n += d.deflate(out, n, out.length - n);
            }
            if (gzip) {
                if (out.length - n < 8) {
                    byte[] grown = new byte[n - base + 8];
                    System.arraycopy(out, base, grown, 0, n - base);
                    n -= base;
                    base = 0;
                    out = grown;
                }
                n = trailer(out, n, crc.getValue(), length);
            }
            // what was encoded in the pooled half is copied out at its size: the only allocation
            return out == pair ? ByteBuffer.wrap(Arrays.copyOfRange(pair, base, n)) : ByteBuffer.wrap(out, 0, n);
        } finally {
            deflaters.release(d);
            deflaters.releaseBuffers(pair);
        }
    }

    /** Writes the gzip trailer (CRC-32 and input length mod 2^32, little-endian) at {@code at}; returns the end. */
    static int trailer(byte[] out, int at, long crc, long length) {
        for (int i = 0; i < 4; i++) {
            out[at + i] = (byte) (crc >>> (8 * i));
            out[at + 4 + i] = (byte) (length >>> (8 * i));
        }
        return at + 8;
    }
}
