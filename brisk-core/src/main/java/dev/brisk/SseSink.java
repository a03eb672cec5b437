package dev.brisk;

import java.time.Duration;

/**
 * An open Server-Sent Events stream ({@link Context#sse}): what the handler sends to its client.
 *
 * <p>Backpressure: each send returns once the socket has taken the event's bytes (so a producer runs
 * at the client's pace, and the server holds at most one event per stream); a client that stops
 * reading is closed when a write makes no progress for {@code write-timeout}. A send returns false
 * once the client has gone (or the stream was closed), so {@code while (sink.data(...))} ends with the
 * client. An interrupt while a send waits for its turn makes it return false (nothing sent); once its
 * event is on its way, the send still waits for the socket and says true, with the interrupt kept.
 *
 * <p>While nothing is sent the server writes a comment line every {@link #heartbeat} interval
 * (default 15 s), which keeps proxies from closing the idle connection and finds a client that left.
 *
 * <p>Threads: any; sends from several threads go out whole, one at a time. Except an I/O loop's own
 * thread (a handler of an event-loop route): a send waits for the client, which would stop the loop,
 * so there it throws {@link IllegalStateException}; such a handler hands the send to a virtual thread.
 */
public interface SseSink {
    /** The heartbeat interval when none is set. */
    Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    /**
     * Sends an event with only data.
     *
     * @param data the data; may span lines
     * @return true once the socket took it; false when the client has gone
     */
    default boolean data(String data) {
        return send(SseEvent.of(data));
    }

    /**
     * Sends an event of a type.
     *
     * @param event the event's type (a browser's {@code addEventListener(event, ...)})
     * @param data the data; may span lines
     * @return true once the socket took it; false when the client has gone
     */
    default boolean event(String event, String data) {
        return send(SseEvent.of(data).withEvent(event));
    }

    /**
     * Sends an event.
     *
     * @param event the event
     * @return true once the socket took it; false when the client has gone
     */
    boolean send(SseEvent event);

    /**
     * Sends a comment line (ignored by browsers).
     *
     * @param text the comment; line breaks become separate comment lines
     * @return true once the socket took it; false when the client has gone
     */
    boolean comment(String text);

    /**
     * Sets the heartbeat interval: a comment goes out after this long without a send.
     *
     * @param interval a positive interval
     * @return this sink
     * @throws IllegalArgumentException when {@code interval} is not positive
     */
    SseSink heartbeat(Duration interval);

    /** {@return the {@code Last-Event-ID} the client sent (a reconnecting browser's last seen id), or null} */
    String lastEventId();

    /** {@return whether the stream is over: the client left, a write failed, or {@link #close} was called} */
    boolean isClosed();

    /**
     * Runs {@code callback} once the stream is over (at once if it already is); on the thread that
     * noticed, so it should be quick.
     *
     * @param callback what to run
     * @return this sink
     */
    SseSink onClose(Runnable callback);

    /** Ends the stream: events already sent go out, then the response ends (the connection stays usable). */
    void close();
}
