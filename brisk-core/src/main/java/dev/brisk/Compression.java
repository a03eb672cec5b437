package dev.brisk;

import dev.brisk.internal.compress.Coding;
import dev.brisk.internal.http.AcceptEncoding;
import java.util.List;
import java.util.Locale;

/**
 * Response compression, as middleware: {@code cfg.use(Compression.defaults())} compresses the answers
 * of every route, {@code group.use(...)} or {@code route.use(...)} those of some, and
 * {@code route.use(Compression.off())} exempts one (the innermost one wins). Immutable: every refining
 * method returns a new value.
 *
 * <p>A response is compressed when all of these hold, checked once its handler, after filters and
 * error page are done, on the handler's thread:
 * <ul>
 *   <li>the request's {@code Accept-Encoding} takes {@code gzip} or {@code deflate} (by q-value;
 *       {@code *} counts; {@code gzip} wins a tie; no header means no compression). When it excludes
 *       every coding, even {@code identity}, the answer goes uncompressed anyway, as RFC 9110 allows;</li>
 *   <li>its {@code Content-Type} is in {@link #types} (parameters ignored; {@code text/*} style
 *       wildcards; by default text, JSON, JavaScript, XML, SVG and WebAssembly). Already compressed
 *       formats (images, video, archives, fonts but SVG) are never on it;</li>
 *   <li>its body has at least {@link #minSize} bytes (a stream of unknown length always qualifies);</li>
 *   <li>it has a body to compress: not {@code 204}, {@code 304} or {@code 1xx}; not a {@code 206}
 *       range (ranges count bytes of the uncompressed file); not already encoded
 *       ({@code Content-Encoding}); not marked {@code Cache-Control: no-transform}.</li>
 * </ul>
 * Every response whose type and size qualify carries {@code Vary: Accept-Encoding}, compressed or not,
 * so caches keep the variants apart. A compressed answer gets {@code Content-Encoding}, and a strong
 * {@code ETag} becomes weak (the bytes differ from the identity representation's, the resource does
 * not; {@code If-None-Match} still validates it). A body given as bytes is compressed at once into
 * bytes ({@code Content-Length}), and so is a static file of up to 256 KiB, read whole on the handler's
 * thread (its {@code HEAD} answer then omits the length, which only compressing would tell). A stream
 * ({@link Context#stream}, a larger file) is compressed as it is sent, in chunks: what its source has
 * ready is compressed on without a flush, and whenever the source has nothing ready the output so far
 * is flushed, so a slow producer's output is not held back. A {@code HEAD} answer otherwise gets the
 * same headers its {@code GET} would. Deflaters (zlib state, about 256 KiB
 * each) are pooled, a few per core.
 *
 * <p>Brotli is not offered: no maintained pure-Java Brotli encoder exists, and brisk-core has no
 * dependencies. Precompressed {@code .br} files are served by {@link StaticFiles}.
 */
public final class Compression implements Middleware {
    /** The request attribute under which this middleware leaves its settings for the server. */
    public static final String ATTRIBUTE = "dev.brisk.compression";
    /** The default of {@link #minSize}: smaller bodies gain too little to pay for the CPU. */
    public static final int DEFAULT_MIN_SIZE = 1024;
    /** The default of {@link #level}: zlib's own default, a balance of CPU and size. */
    public static final int DEFAULT_LEVEL = 6;
    /** The default of {@link #types}. */
    public static final List<String> DEFAULT_TYPES = List.of("text/*", "application/json", "application/*+json",
            "application/javascript", "application/xml", "application/*+xml", "image/svg+xml", "application/wasm",
            "application/x-ndjson", "application/yaml");

    private static final Compression OFF = new Compression(false, false, DEFAULT_MIN_SIZE, DEFAULT_LEVEL, DEFAULT_TYPES);

    private final boolean gzip;
    private final boolean deflate;
    private final int minSize;
    private final int level;
    private final List<String> types;

    private Compression(boolean gzip, boolean deflate, int minSize, int level, List<String> types) {
        this.gzip = gzip;
        this.deflate = deflate;
        this.minSize = minSize;
        this.level = level;
        this.types = types;
    }

    /** {@return gzip and deflate, at level {@value #DEFAULT_LEVEL}, from {@value #DEFAULT_MIN_SIZE} bytes, for the {@link #DEFAULT_TYPES}} */
    public static Compression defaults() {
        return new Compression(true, true, DEFAULT_MIN_SIZE, DEFAULT_LEVEL, DEFAULT_TYPES);
    }

    /** {@return no compression: for a route or group inside an app that compresses} */
    public static Compression off() {
        return OFF;
    }

    /**
     * The smallest body compressed.
     *
     * @param bytes 0 or more
     * @return a copy with this threshold
     * @throws IllegalArgumentException when negative
     */
    public Compression minSize(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("min size must be >= 0: " + bytes);
        }
        return new Compression(gzip, deflate, bytes, level, types);
    }

    /**
     * The zlib level.
     *
     * @param level 1 (fastest) to 9 (smallest)
     * @return a copy with this level
     * @throws IllegalArgumentException when out of range
     */
    public Compression level(int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("level must be 1..9: " + level);
        }
        return new Compression(gzip, deflate, minSize, level, types);
    }

    /**
     * The content types compressed, replacing the list.
     *
     * @param mediaTypes types such as {@code application/json}, or with a wildcard: {@code text/*},
     *     {@code application/*+json}; any case
     * @return a copy with these types
     * @throws IllegalArgumentException when one is not a type/subtype
     */
    public Compression types(String... mediaTypes) {
        for (String t : mediaTypes) {
            int slash = t == null ? -1 : t.indexOf('/');
            if (slash <= 0 || slash == t.length() - 1 || t.indexOf(';') >= 0) {
                throw new IllegalArgumentException("a media type without parameters, such as text/*: " + t);
            }
        }
        return new Compression(gzip, deflate, minSize, level,
                java.util.Arrays.stream(mediaTypes).map(t -> t.trim().toLowerCase(Locale.ROOT)).toList());
    }

    /**
     * Whether {@code gzip} is offered (default true).
     *
     * @param on false to never use it
     * @return a copy with this setting
     */
    public Compression gzip(boolean on) {
        return new Compression(on, deflate, minSize, level, types);
    }

    /**
     * Whether {@code deflate} is offered (default true).
     *
     * @param on false to never use it
     * @return a copy with this setting
     */
    public Compression deflate(boolean on) {
        return new Compression(gzip, on, minSize, level, types);
    }

    /** {@return whether anything is compressed at all} */
    public boolean enabled() {
        return gzip || deflate;
    }

    /** {@return the smallest body compressed} */
    public int minSize() {
        return minSize;
    }

    /** {@return the zlib level} */
    public int level() {
        return level;
    }

    /** {@return the content types compressed, lower case} */
    public List<String> types() {
        return types;
    }

    /** {@return whether gzip is offered} */
    public boolean gzip() {
        return gzip;
    }

    /** {@return whether deflate is offered} */
    public boolean deflate() {
        return deflate;
    }

    /**
     * {@return whether {@link #types} takes {@code contentType}} Its parameters are ignored.
     *
     * @param contentType a {@code Content-Type} value; null never qualifies
     */
    public boolean compresses(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String t = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        int slash = t.indexOf('/');
        if (slash <= 0) {
            return false;
        }
        for (String pattern : types) {
            if (matches(pattern, t, slash)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String pattern, String type, int slash) {
        if (pattern.equals(type)) {
            return true;
        }
        int ps = pattern.indexOf('/');
        if (!pattern.regionMatches(0, type, 0, Math.max(ps, slash)) || ps != slash) {
            return false;
        }
        String sub = pattern.substring(ps + 1);
        if (sub.equals("*")) {
            return true;
        }
        return sub.startsWith("*+") && type.endsWith(sub.substring(1)); // application/*+json
    }

    /**
     * {@return whether an {@code Accept-Encoding} value admits {@code coding}} By q-value, as the
     * middleware decides: {@code *} counts, {@code x-gzip} is {@code gzip}, {@code q=0} or a malformed
     * weight refuses; no header admits nothing. For a handler that keeps encoded forms of its own.
     *
     * @param acceptEncoding the request's header value, or null
     * @param coding {@code gzip} or {@code deflate} (any case)
     */
    public static boolean accepts(String acceptEncoding, String coding) {
        return acceptEncoding != null && AcceptEncoding.q(acceptEncoding, coding.toLowerCase(Locale.ROOT)) > 0;
    }

    /**
     * {@return {@code data}'s remaining bytes in the gzip format, at {@code level}} Made with the
     * deflaters the middleware pools, for a handler that encodes a body once and keeps it (a cache),
     * then answers with it and {@code Content-Encoding: gzip} itself. {@code data}'s position is not
     * moved.
     *
     * @param data the bytes to encode, from its position to its limit
     * @param level 1 (fastest) to 9 (smallest)
     * @throws IllegalArgumentException when the level is out of range
     */
    public static java.nio.ByteBuffer gzip(java.nio.ByteBuffer data, int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("level must be 1..9: " + level);
        }
        return Coding.gzip(level).encode(data);
    }

    /** Marks the request, so its answer is compressed by these settings once it is complete. */
    @Override
    public Handler apply(Handler next) {
        return ctx -> {
            ctx.attribute(ATTRIBUTE, this);
            next.handle(ctx);
        };
    }

    @Override
    public String toString() {
        return "Compression[" + (gzip ? "gzip " : "") + (deflate ? "deflate " : "") + "level=" + level
                + ", minSize=" + minSize + ", types=" + types + "]";
    }
}
