package dev.brisk.events.search;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * One rendered {@code /search} body and, made on first demand and then kept with it, its gzip form:
 * a month of events is some 150 KB of JSON that compresses about tenfold, so clients that accept gzip
 * cost the server and the network a tenth of the bytes, and the compression is paid once per cached
 * window and catalog version, not per request.
 */
public final class SearchBody {
    /** Bodies below this are sent as they are: gzip would save little and cost a header. */
    public static final int GZIP_MIN = 1024;

    private final byte[] identity;
    private volatile byte[] gzip;

    public SearchBody(byte[] identity) {
        this.identity = identity;
    }

    public byte[] identity() {
        return identity;
    }

    /** Whether a gzip form is worth sending. */
    public boolean compressible() {
        return identity.length >= GZIP_MIN;
    }

    /** The gzip form (computed once; concurrent first callers may both compute it, harmlessly). */
    public byte[] gzip() {
        byte[] g = gzip;
        if (g == null) {
            g = compress(identity);
            gzip = g;
        }
        return g;
    }

    private static byte[] compress(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 6 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 16 * 1024) {
            {
                // fast level: the JSON is repetitive enough that level 1 already gains most of it
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen writing to memory
        }
        return out.toByteArray();
    }

    /**
     * Whether an {@code Accept-Encoding} value admits gzip: a {@code gzip} or {@code *} coding whose
     * {@code q} is not zero (RFC 9110 §12.5.3).
     */
    public static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] fields = part.split(";");
            String coding = fields[0].strip();
            if (coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip") || coding.equals("*")) {
                boolean zero = false;
                for (int i = 1; i < fields.length; i++) {
                    String p = fields[i].strip();
                    if (p.regionMatches(true, 0, "q=", 0, 2)) {
                        try {
                            zero = Double.parseDouble(p.substring(2).strip()) <= 0;
                        } catch (NumberFormatException e) {
                            zero = true; // a malformed weight is not consent
                        }
                    }
                }
                if (!zero) {
                    return true;
                }
            }
        }
        return false;
    }
}
