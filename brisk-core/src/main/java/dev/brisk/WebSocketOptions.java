package dev.brisk;

import java.time.Duration;

/**
 * The WebSocket settings of a server ({@link ServerOptions#webSocket()}): the options {@code ws-*}.
 * Every WebSocket route uses them.
 *
 * @param maxFrameSize the largest frame payload a client may send; beyond it the session is closed with
 *     1009 ({@code ws-max-frame-size}, default 1 MiB)
 * @param maxMessageSize the largest message a client may send, after joining its fragments and
 *     inflating it; beyond it, 1009 ({@code ws-max-message-size}, default 1 MiB)
 * @param idleTimeout how long a peer may send nothing at all (a pong counts) before the session is
 *     closed with 1001 ({@code ws-idle-timeout}, default 60 s)
 * @param pingInterval after this much silence from the peer the server sends a ping, so a live peer is
 *     never idle and a dead one is found; 0 for none ({@code ws-ping-interval}, default 30 s)
 * @param outboundLimit the most bytes of sent messages one session may hold before its socket takes them;
 *     a send beyond it closes the session with 1008, counted ({@code ws-outbound-limit}, default 1 MiB)
 * @param memory the most bytes of messages all sessions together may hold: being received, waiting for
 *     their handler, or waiting for the socket; a session whose message would pass it is closed (1008
 *     sending, 1013 receiving) ({@code ws-memory}, default 256 MiB). Compression contexts are counted
 *     too (48 KiB per session's decompressor, 272 KiB per kept compressor), all of them within half of
 *     it, so messages always have the other half
 * @param compression whether permessage-deflate is agreed when a client offers it
 *     ({@code ws-compression}, default true)
 * @param compressionContextTakeover whether each session keeps its compressor's window across messages
 *     (smaller small messages, about 256 KiB of native memory per session) rather than compressing each
 *     message alone with a shared compressor ({@code ws-compression-context-takeover}, default false)
 * @param closeTimeout how long the server waits for the peer's close frame after sending its own, and
 *     for a closing session's last bytes to go out ({@code ws-close-timeout}, default 5 s)
 */
public record WebSocketOptions(int maxFrameSize, int maxMessageSize, Duration idleTimeout, Duration pingInterval,
        long outboundLimit, long memory, boolean compression, boolean compressionContextTakeover,
        Duration closeTimeout) {

    /** Default of the option {@code ws-max-frame-size}. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 1 << 20;
    /** Default of the option {@code ws-max-message-size}. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 1 << 20;
    /** Default of the option {@code ws-idle-timeout}. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Default of the option {@code ws-ping-interval}. */
    public static final Duration DEFAULT_PING_INTERVAL = Duration.ofSeconds(30);
    /** Default of the option {@code ws-outbound-limit}. */
    public static final long DEFAULT_OUTBOUND_LIMIT = 1 << 20;
    /** Default of the option {@code ws-memory}. */
    public static final long DEFAULT_MEMORY = 256L << 20;
    /** Default of the option {@code ws-close-timeout}. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);
    /** Every option at its default. */
    public static final WebSocketOptions DEFAULTS = new WebSocketOptions(DEFAULT_MAX_FRAME_SIZE,
            DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_IDLE_TIMEOUT, DEFAULT_PING_INTERVAL, DEFAULT_OUTBOUND_LIMIT,
            DEFAULT_MEMORY, true, false, DEFAULT_CLOSE_TIMEOUT);

    /**
     * Checks every setting; the error names the option by its key.
     *
     * @throws IllegalArgumentException when a setting is out of its range
     */
    public WebSocketOptions {
        if (maxFrameSize < 125 || maxFrameSize > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("ws-max-frame-size" + ServerOptions.where("ws-max-frame-size") + " must be between 125 bytes and 2 GiB: " + maxFrameSize);
        }
        if (maxMessageSize < 125 || maxMessageSize > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("ws-max-message-size" + ServerOptions.where("ws-max-message-size") + " must be between 125 bytes and 2 GiB: " + maxMessageSize);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()
                || idleTimeout.compareTo(ServerOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("ws-idle-timeout" + ServerOptions.where("ws-idle-timeout") + " must be a positive duration of at most 365 days: " + ConfigSource.text(idleTimeout));
        }
        if (pingInterval == null || pingInterval.isNegative() || pingInterval.compareTo(ServerOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("ws-ping-interval" + ServerOptions.where("ws-ping-interval") + " must be >= 0 and at most 365 days: " + ConfigSource.text(pingInterval));
        }
        if (!pingInterval.isZero() && pingInterval.compareTo(idleTimeout) >= 0) {
            // else a live peer that only answers pings is closed as idle before it is ever pinged
            throw new IllegalArgumentException("ws-ping-interval" + ServerOptions.where("ws-ping-interval") + " (" + ConfigSource.text(pingInterval) + ") must be shorter than ws-idle-timeout ("
                    + ConfigSource.text(idleTimeout) + "), or 0 for no pings");
        }
        if (outboundLimit < 1024) {
            throw new IllegalArgumentException("ws-outbound-limit" + ServerOptions.where("ws-outbound-limit") + " must be at least 1 KiB: " + outboundLimit);
        }
        if (memory < outboundLimit) {
            throw new IllegalArgumentException("ws-memory" + ServerOptions.where("ws-memory") + " (" + memory + ") must be at least ws-outbound-limit ("
                    + outboundLimit + ")");
        }
        if (closeTimeout == null || closeTimeout.isNegative() || closeTimeout.isZero()
                || closeTimeout.compareTo(ServerOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("ws-close-timeout" + ServerOptions.where("ws-close-timeout") + " must be a positive duration of at most 365 days: " + ConfigSource.text(closeTimeout));
        }
    }
}
