package dev.brisk.internal.transport;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Accepts connections on its own thread and hands each to the engine (the least-loaded I/O loop, or a
 * thread of its own in the blocking engine). At the
 * connection limit it stops calling {@code accept}, so the kernel backlog absorbs (and then refuses)
 * new connections instead of the server accepting and closing them; it resumes below the limit.
 */
public final class Acceptor implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final TransportHost server;
    private final ServerSocketChannel channel;
    private final ProtocolFactory protocol;
    private final Handoff handoff;
    private final Thread thread;
    private volatile boolean running = true;

    /** Where an accepted connection goes. */
    public interface Handoff {
        /**
         * Takes ownership of {@code ch}, whose connection starts with {@code protocol}'s protocol; on an
         * exception the acceptor closes it. Acceptor thread.
         */
        void take(SocketChannel ch, ProtocolFactory protocol) throws IOException;
    }

    /**
     * @param protocol what each connection accepted here starts with (plain HTTP, or TLS then HTTP)
     * @param name the accepting thread's name
     */
    public Acceptor(TransportHost server, ServerSocketChannel channel, ProtocolFactory protocol, Handoff handoff,
            String name) {
        this.server = server;
        this.channel = channel;
        this.protocol = protocol;
        this.handoff = handoff;
        this.thread = new Thread(this, name);
    }

    public void start() {
        thread.start();
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (!server.awaitConnectionSlot()) {
                    continue;
                }
                SocketChannel ch = channel.accept();
                server.connectionAccepted();
                try {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    handoff.take(ch, protocol);
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "dropping an accepted connection: " + e.getMessage());
                    ch.close();
                    server.connectionClosed();
                }
            } catch (ClosedChannelException e) {
                break;
            } catch (IOException e) {
                if (running) {
                    // e.g. too many open files: back off instead of spinning
                    LOG.log(System.Logger.Level.WARNING, "accept failed: " + e);
                    sleepQuietly(50);
                }
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops accepting and closes the listening socket. */
    public void close() {
        running = false;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
