package dev.brisk;

/**
 * The limits on request forms ({@link ServerOptions#forms()}): the options {@code form-*}. They bound
 * what {@link Context#formParam}, {@link Context#multipart()} and {@link Context#parts()} read, on top
 * of the route's body limit ({@code max-body-size}, {@link Route#maxBodySize}), which still holds. A
 * size beyond its limit is answered {@code 413}, a malformed form {@code 400}.
 *
 * @param maxParts most parts of a {@code multipart/form-data} body, and most name/value pairs of an
 *     {@code application/x-www-form-urlencoded} one ({@code form-max-parts}, default 1000)
 * @param maxPartSize largest content of one multipart part ({@code form-max-part-size}, default 16 MiB)
 * @param maxSize largest multipart body, counted as it is read: preamble, delimiters, part headers,
 *     contents and epilogue ({@code form-max-size}, default 64 MiB)
 * @param maxPartHeaderSize largest header block of one multipart part, its closing empty line included
 *     ({@code form-max-part-header-size}, default 8 KiB)
 * @param spoolThreshold {@link Context#parts()} holds a part of at most this many bytes in memory
 *     (drawn from {@code body-memory-budget}), a larger one in a temporary file under
 *     {@code body-spool-dir} and {@code body-spool-disk} ({@code form-spool-threshold}, default 64 KiB)
 */
public record FormOptions(int maxParts, long maxPartSize, long maxSize, int maxPartHeaderSize, long spoolThreshold) {

    /** Default of the option {@code form-max-parts}. */
    public static final int DEFAULT_MAX_PARTS = 1000;
    /** Default of the option {@code form-max-part-size}. */
    public static final long DEFAULT_MAX_PART_SIZE = 16L << 20;
    /** Default of the option {@code form-max-size}. */
    public static final long DEFAULT_MAX_SIZE = 64L << 20;
    /** Default of the option {@code form-max-part-header-size}. */
    public static final int DEFAULT_MAX_PART_HEADER_SIZE = 8 * 1024;
    /** Default of the option {@code form-spool-threshold}. */
    public static final long DEFAULT_SPOOL_THRESHOLD = 64 * 1024;
    /** The defaults. */
    public static final FormOptions DEFAULTS = new FormOptions(DEFAULT_MAX_PARTS, DEFAULT_MAX_PART_SIZE,
            DEFAULT_MAX_SIZE, DEFAULT_MAX_PART_HEADER_SIZE, DEFAULT_SPOOL_THRESHOLD);

    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException when a value is out of its range, naming the option
     */
    public FormOptions {
        check("form-max-parts", maxParts, 1, 10_000_000);
        check("form-max-part-size", maxPartSize, 0, Long.MAX_VALUE);
        check("form-max-size", maxSize, 0, Long.MAX_VALUE);
        check("form-max-part-header-size", maxPartHeaderSize, 64, 1 << 20);
        check("form-spool-threshold", spoolThreshold, 0, Integer.MAX_VALUE - 16);
    }

    private static void check(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + ServerOptions.where(name) + " must be between " + min + " and " + max + ": " + v);
        }
    }
}
