package dev.brisk.internal.transport;

/**
 * What a transport drives: one connection's protocol (HTTP/1.1 today; HTTP/2 and WebSocket later),
 * a state machine fed with "readable", "writable" and "deadline passed". It reads and writes through
 * its {@link Wire}; an upgrade swaps it for another protocol on the same wire ({@link Wire#protocol}).
 *
 * <p>Threads: every method on the wire's loop thread.
 */
public interface Protocol {
    /** Bytes may be read (or the peer closed). */
    void onReadable();

    /** The socket can take more of a write in progress. */
    void onWritable();

    /** Checks the protocol's deadlines against {@code now}; may be called early or often. */
    void onTimer(long now);

    /**
     * Bytes the transport read into memory of its own ({@code n} of them from {@code src[0..n)}), or
     * the end of the stream ({@code n < 0}): a blocking loop waits for a request's first bytes so,
     * without making an idle connection hold a pooled buffer.
     */
    void onBytes(byte[] src, int n);

    /**
     * Graceful shutdown: close after the work in progress; when {@link #idle}, close now or after a
     * grace of the protocol's choosing, by its own deadline. May be called more than once.
     */
    void drain();

    /** Closes the protocol and its wire. Idempotent. */
    void close();

    /**
     * The client took response bytes below {@code min-response-rate} (a selector loop's scan found it;
     * the send is discarded already): close, as the protocol ends such a peer. By default
     * {@link #close}; a WebSocket session ends as a receiver too slow (1008, counted).
     */
    default void tooSlow() {
        close();
    }

    boolean isClosed();

    /** Nothing in progress and nothing buffered: closing now loses nothing. */
    boolean idle();

    /** Holds an input buffer (bytes of a message, or room being read into). */
    boolean holdsInput();

    /**
     * Waits for work running elsewhere (a handler on another thread, a queued request's turn, a
     * streamed body's next piece) that comes back through {@link Wire#execute}: a blocking loop then
     * waits for tasks, and reads only to notice a peer that left.
     */
    boolean awaitsTask();
}
