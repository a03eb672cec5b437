package dev.brisk.events.search;

import dev.brisk.Compression;
import java.nio.ByteBuffer;

/**
 * One rendered {@code /search} body and, made on first demand and then kept with it, its gzip form:
 * a month of events is some 150 KB of JSON that compresses about tenfold, so clients that accept gzip
 * cost the server and the network a tenth of the bytes, and the compression is paid once per cached
 * window and catalog version, not per request.
 *
 * <p>Both forms are read-only buffers handed to {@code Context.bytes(ByteBuffer)}, which never consumes
 * them. A body {@linkplain #kept() kept} in the cache lives in direct memory: it is sent thousands of
 * times, and the JDK copies heap bytes into a direct buffer on every socket write (measured at some 8 %
 * of the server's CPU for a 71 KB body). A body sent once stays on the heap.
 */
public final class SearchBody {
    /** Bodies below this are sent as they are: gzip would save little and cost a header. */
    public static final int GZIP_MIN = 1024;

    private final ByteBuffer identity;
    private volatile ByteBuffer gzip;

    public SearchBody(byte[] identity) {
        this(ByteBuffer.wrap(identity).asReadOnlyBuffer(), null);
    }

    private SearchBody(ByteBuffer identity, ByteBuffer gzip) {
        this.identity = identity;
        this.gzip = gzip;
    }

    /** This body in direct memory, for a cache that will send it many times. */
    public SearchBody kept() {
        if (identity.isDirect()) {
            return this;
        }
        ByteBuffer g = gzip;
        return new SearchBody(direct(identity), g == null ? null : direct(g));
    }

    private static ByteBuffer direct(ByteBuffer src) {
        ByteBuffer d = ByteBuffer.allocateDirect(src.remaining());
        d.put(src.duplicate()).flip();
        return d.asReadOnlyBuffer();
    }

    /** The JSON, as a read-only buffer (shared: read it through a duplicate). */
    public ByteBuffer identity() {
        return identity;
    }

    /** The JSON's size in bytes. */
    public int length() {
        return identity.remaining();
    }

    /** Whether a gzip form is worth sending. */
    public boolean compressible() {
        return length() >= GZIP_MIN;
    }

    /**
     * The gzip form, as a read-only buffer in the same memory as {@link #identity()}: computed once and
     * kept, concurrent first callers may both compute it, harmlessly. A gzip form larger than the
     * identity (data that does not compress) is made afresh for each call and never kept, so a body
     * never holds more than twice its length (what {@link ResponseCache} budgets for it).
     */
    public ByteBuffer gzip() {
        ByteBuffer g = gzip;
        if (g == null) {
            byte[] compressed = compress(identity);
            g = ByteBuffer.wrap(compressed).asReadOnlyBuffer();
            if (compressed.length > length()) {
                return g;
            }
            if (identity.isDirect()) {
                g = direct(g);
            }
            gzip = g;
        }
        return g;
    }

    /** Whether the gzip form is made and kept, so {@link #gzip()} costs nothing. */
    public boolean gzipReady() {
        return gzip != null;
    }

    private static byte[] compress(ByteBuffer data) {
        // the fastest level: the JSON is repetitive enough that level 1 already gains most of it; the
        // core's encoder, with the deflaters its compression middleware pools
        ByteBuffer g = Compression.gzip(data, 1);
        byte[] out = new byte[g.remaining()];
        g.get(out);
        return out;
    }

    /**
     * Whether an {@code Accept-Encoding} value admits gzip: a {@code gzip} or {@code *} coding whose
     * {@code q} is not zero (RFC 9110 §12.5.3).
     */
    public static boolean acceptsGzip(String acceptEncoding) {
        return Compression.accepts(acceptEncoding, "gzip");
    }
}
