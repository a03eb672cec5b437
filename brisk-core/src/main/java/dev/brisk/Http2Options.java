package dev.brisk;

/**
 * The HTTP/2 settings of a server ({@link ServerOptions#http2()}): the options {@code http2},
 * {@code h2c} and {@code h2-*}. HTTP/2 is offered over TLS by ALPN ({@code h2} before
 * {@code http/1.1}) and, with {@code h2c}, in the clear to a client that opens with the HTTP/2
 * connection preface (prior knowledge). The four limits are announced to every client in the
 * server's {@code SETTINGS} and enforced.
 *
 * @param enabled whether HTTP/2 is served at all ({@code http2}, default true)
 * @param h2c whether a plain connection that opens with the HTTP/2 preface is served as HTTP/2
 *     ({@code h2c}, default true)
 * @param maxConcurrentStreams streams a client may have open at once on one connection; more are
 *     refused with {@code REFUSED_STREAM} ({@code h2-max-concurrent-streams}, default 100)
 * @param initialWindowSize bytes of a request body a client may send on a stream before the server
 *     acknowledges them ({@code h2-initial-window-size}, default 1 MiB; the connection's window is
 *     four times it)
 * @param maxFrameSize largest frame payload a client may send ({@code h2-max-frame-size}, default
 *     16 KiB, at least 16 KiB and below 16 MiB)
 * @param maxHeaderListSize largest request header list, counted as HPACK counts (name, value and 32
 *     bytes per field); a request with more is answered 431 ({@code h2-max-header-list-size}, default
 *     32 KiB)
 */
public record Http2Options(boolean enabled, boolean h2c, int maxConcurrentStreams, int initialWindowSize,
        int maxFrameSize, int maxHeaderListSize) {

    /** Default of the option {@code h2-max-concurrent-streams}. */
    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;
    /** Default of the option {@code h2-initial-window-size}. */
    public static final int DEFAULT_INITIAL_WINDOW_SIZE = 1 << 20;
    /** Default of the option {@code h2-max-frame-size}. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 1 << 14;
    /** Default of the option {@code h2-max-header-list-size}. */
    public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 32 * 1024;
    /** The defaults: HTTP/2 on, h2c on. */
    public static final Http2Options DEFAULTS = new Http2Options(true, true, DEFAULT_MAX_CONCURRENT_STREAMS,
            DEFAULT_INITIAL_WINDOW_SIZE, DEFAULT_MAX_FRAME_SIZE, DEFAULT_MAX_HEADER_LIST_SIZE);

    /**
     * Checks the ranges.
     *
     * @throws IllegalArgumentException when a value is out of its range, naming the option
     */
    public Http2Options {
        check("h2-max-concurrent-streams", maxConcurrentStreams, 1, 10_000);
        check("h2-initial-window-size", initialWindowSize, 1, Integer.MAX_VALUE / 4);
        check("h2-max-frame-size", maxFrameSize, 1 << 14, (1 << 24) - 1);
        check("h2-max-header-list-size", maxHeaderListSize, 1024, 1 << 24);
    }

    private static void check(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + ServerOptions.where(name) + " must be between " + min + " and " + max + ": " + v);
        }
    }

    /** {@return whether a plain connection opening with the HTTP/2 preface is served as h2c} */
    public boolean priorKnowledge() {
        return enabled && h2c;
    }
}
