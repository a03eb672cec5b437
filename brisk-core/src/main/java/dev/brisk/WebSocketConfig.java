package dev.brisk;

/**
 * What a WebSocket route does ({@link Routing#ws}): its handlers, and the handshakes it accepts. Used
 * only inside the {@code ws} call: {@code cfg.ws("/chat", ws -> ws.onOpen(...).onText(...))}.
 *
 * <p>Handlers run on the route's {@link Dispatch} (on the connection's own thread with the blocking
 * engine), one at a time per session and in order: {@code onOpen} first, then each message, then
 * {@code onClose} once. A handler that throws gets {@code onError}, and the session is closed with
 * 1011. Messages are whole: fragments are joined, compressed ones inflated, text checked as UTF-8.
 */
public interface WebSocketConfig {
    /** Runs when a session opens. */
    @FunctionalInterface
    interface OpenHandler {
        /**
         * A session has opened.
         *
         * @param session the new session
         * @throws Exception reported to {@code onError}; the session is then closed with 1011
         */
        void onOpen(WebSocketSession session) throws Exception;
    }

    /** Runs for each text message. */
    @FunctionalInterface
    interface TextHandler {
        /**
         * A text message arrived.
         *
         * @param session the session
         * @param text the whole message
         * @throws Exception reported to {@code onError}; the session is then closed with 1011
         */
        void onText(WebSocketSession session, String text) throws Exception;
    }

    /** Runs for each binary message. */
    @FunctionalInterface
    interface BinaryHandler {
        /**
         * A binary message arrived.
         *
         * @param session the session
         * @param data the whole message, the handler's own
         * @throws Exception reported to {@code onError}; the session is then closed with 1011
         */
        void onBinary(WebSocketSession session, byte[] data) throws Exception;
    }

    /** Runs once when a session has ended. */
    @FunctionalInterface
    interface CloseHandler {
        /**
         * The session is over.
         *
         * @param session the session (no longer open)
         * @param code the close code that ended it: the peer's when it closed first (1005 when its close
         *     frame had none), else the server's (1001 idle or shutting down, 1002 protocol error, 1007
         *     invalid UTF-8, 1008 too slow a receiver, 1009 too large a message), 1006 when the connection
         *     ended without a closing handshake
         * @param reason the reason sent with the code, or a short explanation; may be empty
         */
        void onClose(WebSocketSession session, int code, String reason);
    }

    /** Runs when a handler failed. */
    @FunctionalInterface
    interface ErrorHandler {
        /**
         * A handler of the session threw.
         *
         * @param session the session
         * @param error what was thrown
         */
        void onError(WebSocketSession session, Throwable error);
    }

    /**
     * Sets what runs when a session opens.
     *
     * @param handler the handler
     * @return this config
     */
    WebSocketConfig onOpen(OpenHandler handler);

    /**
     * Sets what runs for each text message (without one, a text message closes the session with 1003).
     *
     * @param handler the handler
     * @return this config
     */
    WebSocketConfig onText(TextHandler handler);

    /**
     * Sets what runs for each binary message (without one, a binary message closes the session with 1003).
     *
     * @param handler the handler
     * @return this config
     */
    WebSocketConfig onBinary(BinaryHandler handler);

    /**
     * Sets what runs once a session has ended.
     *
     * @param handler the handler
     * @return this config
     */
    WebSocketConfig onClose(CloseHandler handler);

    /**
     * Sets what runs when a handler throws (by default, the error is logged).
     *
     * @param handler the handler
     * @return this config
     */
    WebSocketConfig onError(ErrorHandler handler);

    /**
     * Accepts handshakes only from these origins: a browser's {@code Origin} must be one of them
     * (scheme, host and port, as {@link Cors} matches them, {@code *.example.com} patterns included),
     * else the handshake is refused with 403. A handshake without {@code Origin} (not from a browser)
     * is accepted. Without this call, any origin is accepted.
     *
     * @param origins the allowed origins, such as {@code https://example.com}
     * @return this config
     * @throws IllegalArgumentException when an origin is malformed
     */
    WebSocketConfig origins(String... origins);

    /**
     * The subprotocols this route speaks, in the server's order of preference: the first one the client
     * also offers ({@code Sec-WebSocket-Protocol}) is agreed; a client that offers only others is
     * refused with 400. Without this call no subprotocol is agreed, whatever the client offers.
     *
     * @param subprotocols the subprotocol names
     * @return this config
     */
    WebSocketConfig subprotocols(String... subprotocols);
}
