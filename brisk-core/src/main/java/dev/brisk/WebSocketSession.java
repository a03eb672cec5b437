package dev.brisk;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One open WebSocket connection, as its route's handlers see it: sending, closing, and a read-only view
 * of the request that opened it.
 *
 * <p>Sending: {@link #sendText} and {@link #sendBinary} may be called from any thread, at any time;
 * messages go out whole and in the order sent. Each returns a future that completes once the message's
 * bytes are taken by the socket, and fails once the session is closed before that. Bytes not yet taken
 * are bounded by {@code ws-outbound-limit} per session (and {@code ws-memory} for all of them): a
 * send past it closes the session with 1008 (a receiver too slow for what is sent to it), so a
 * sender that cares waits on the futures.
 *
 * <p>A handler may wait for its own session's sends ({@code join} or {@code get} on a returned future,
 * or on one derived from it with {@code then...}). On the blocking engine, whose connection thread
 * both runs the handler and writes, what was sent is written before the wait, which returns once the
 * peer took it. On an event-loop route a wait cannot let the loop write: it returns if the socket
 * takes the message at once (on io_uring rarely: a send in flight takes nothing more until it
 * completes), and otherwise fails with {@link IllegalStateException} rather than stop every connection
 * of the loop; such a handler uses the future's callbacks. Waiting on a loop's thread for another
 * session's send, or for futures combined with {@code allOf}, blocks the loop: don't.
 *
 * <p>Handlers of one session never run at the same time, and see its messages in order.
 */
public interface WebSocketSession {
    /**
     * Sends a text message.
     *
     * @param text the message; not null
     * @return completes when the socket took the message's bytes; fails if the session closes first
     */
    CompletableFuture<Void> sendText(String text);

    /**
     * Sends a binary message.
     *
     * @param data the message; not null, not changed by the call, and copied before it returns
     * @return completes when the socket took the message's bytes; fails if the session closes first
     */
    CompletableFuture<Void> sendBinary(byte[] data);

    /** Starts the closing handshake with 1000 (normal closure); see {@link #close(int, String)}. */
    default void close() {
        close(1000, "");
    }

    /**
     * Starts the closing handshake: messages already sent go out first, then a close frame with
     * {@code code} and {@code reason}; the connection ends when the peer answers (or after
     * {@code ws-close-timeout}). From its return {@link #isOpen} is false and a send fails as on a
     * closed session, whichever thread closed it. Later calls, and calls on a closed session, do nothing.
     *
     * @param code 1000, or 3000-4999 for the application's own codes
     * @param reason a short reason, cut to 123 bytes of UTF-8; may be empty
     * @throws IllegalArgumentException when {@code code} is not one an application may send
     */
    void close(int code, String reason);

    /** {@return whether messages can still be sent: the session is open and no close has begun} */
    boolean isOpen();

    /** {@return bytes of sent messages the socket has not taken yet} */
    long bufferedAmount();

    /** {@return the subprotocol agreed in the handshake ({@code Sec-WebSocket-Protocol}), or null} */
    String subprotocol();

    /** {@return whether permessage-deflate was agreed in the handshake} */
    boolean compressed();

    /** {@return the peer's address as {@code host:port}} */
    String remoteAddress();

    /** {@return the opening request's decoded path} */
    String path();

    /**
     * A path parameter of the route.
     *
     * @param name the parameter's name in the route's template
     * @return its decoded value, or null
     */
    String pathParam(String name);

    /** {@return the opening request's path parameters} */
    Map<String, String> pathParams();

    /**
     * A query parameter of the opening request.
     *
     * @param name the parameter's name
     * @return its first decoded value, or null
     */
    String queryParam(String name);

    /**
     * A header of the opening request.
     *
     * @param name the header's name, any case
     * @return its first value, or null
     */
    String header(String name);

    /**
     * An attribute: one set on this session, else one the opening request's middleware set (an
     * authenticated user, say).
     *
     * @param name the attribute's name
     * @return its value, or null
     */
    Object attribute(String name);

    /**
     * Sets an attribute of this session, for its handlers to share. Any thread.
     *
     * @param name the attribute's name
     * @param value the value; null removes it
     * @return this session
     */
    WebSocketSession attribute(String name, Object value);
}
