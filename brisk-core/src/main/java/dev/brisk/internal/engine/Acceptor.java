package dev.brisk.internal.engine;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Accepts connections on its own thread and hands each to the least-loaded I/O loop. At the
 * connection limit it stops calling {@code accept}, so the kernel backlog absorbs (and then refuses)
 * new connections instead of the server accepting and closing them; it resumes below the limit.
 */
final class Acceptor implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final Server server;
    private final ServerSocketChannel channel;
    private final IoLoop[] loops;
    private final Thread thread;
    private volatile boolean running = true;

    Acceptor(Server server, ServerSocketChannel channel, IoLoop[] loops) {
        this.server = server;
        this.channel = channel;
        this.loops = loops;
        this.thread = new Thread(this, "brisk-acceptor");
    }

    void start() {
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
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                } catch (IOException e) {
                    ch.close();
                    server.connectionClosed();
                    continue;
                }
                IoLoop target = leastLoaded();
                if (target == null) {
                    LOG.log(System.Logger.Level.ERROR, "no I/O loop is running; refusing connections");
                    ch.close();
                    server.connectionClosed();
                    continue;
                }
                target.register(ch);
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

    /** The running loop with the fewest connections, or null when none runs. */
    private IoLoop leastLoaded() {
        IoLoop best = null;
        int min = Integer.MAX_VALUE;
        for (IoLoop loop : loops) {
            int l = loop.load();
            if (l < min && loop.isRunning()) {
                min = l;
                best = loop;
            }
        }
        return best;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops accepting and closes the listening socket. */
    void close() {
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
