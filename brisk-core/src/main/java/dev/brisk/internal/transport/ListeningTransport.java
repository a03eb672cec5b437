package dev.brisk.internal.transport;

import java.io.IOException;

/**
 * A transport that owns its listening sockets and accepts by itself (the io_uring transport), instead of
 * taking channels from an {@link Acceptor}. Lifecycle, each step once and in this order:
 * {@link #listen} (one or more), {@link #start}, {@link #stopAccepting}, {@link #drain}, {@link #stop}.
 * Called by the server's starting or closing thread.
 */
public interface ListeningTransport {
    /**
     * Binds and listens on {@code host:port} (0: any free port); connections accepted there start with
     * {@code protocol}'s protocol once {@link #start} has run.
     *
     * @return the bound port
     */
    int listen(String host, int port, int backlog, ProtocolFactory protocol) throws IOException;

    /** Starts the loops and the accepting. */
    void start();

    /** Stops accepting and closes the listening sockets; returns once they are closed (bounded). */
    void stopAccepting();

    /** Graceful shutdown: closes idle connections now, the others after their current work. */
    void drain();

    /** Closes every connection and stops the loops; returns once they are stopped (bounded). */
    void stop();
}
