package dev.brisk.internal.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One selector, one thread, and the connections registered on it. Only this loop's thread touches
 * its connections' I/O state; other threads hand it work with {@link #execute}, which queues the task
 * and wakes the selector at most once per loop turn. Timeouts are checked by a scan every 100 ms.
 */
final class IoLoop extends ConnectionLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long SCAN_NANOS = 100_000_000L;

    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final HashSet<Connection> connections = new HashSet<>();
    private final AtomicInteger load = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;
    private long nextScan;
    /** When this turn began: {@link #clock()}. */
    private long turnStart = System.nanoTime();
    /** Whether {@link #turnStart} was read this turn (by its first ready key). */
    private boolean timed;
    // one instance: a method reference per select call would allocate on every loop turn
    private final java.util.function.Consumer<SelectionKey> onKey = this::onKey;

    IoLoop(Server server, int index) throws IOException {
        super(server, new BufferPool(8 * 1024, 1024), new BufferPool(16 * 1024, 1024), server.stats().newLoop(),
                server.accessLog() == null ? null : server.accessLog().sampler());
        this.selector = Selector.open();
        this.thread = new Thread(this, "brisk-io-" + index);
    }

    void start() {
        thread.start();
    }

    @Override
    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    @Override
    long clock() {
        return turnStart;
    }

    @Override
    boolean runsHandlersInline() {
        return false;
    }

    @Override
    int read(SocketChannel ch, Connection c, ByteBuffer dst) throws IOException {
        return ch.read(dst);
    }

    @Override
    long write(SocketChannel ch, ByteBuffer[] srcs, int n) throws IOException {
        return n == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, n);
    }

    @Override
    void runUntil(java.util.concurrent.CompletableFuture<?> f) {
        // handlers never run inline here long enough to wait: deferred bodies go to virtual threads
        throw new IllegalStateException("an I/O loop cannot wait for its own connection");
    }

    /** Connections on this loop, counted from the moment one is handed over. */
    int load() {
        return load.get();
    }

    /** Runs {@code task} on this loop's thread, soon. */
    @Override
    void execute(Runnable task) {
        tasks.add(task);
        if (Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    /** Whether this loop still serves (false once stopped or failed). */
    boolean isRunning() {
        return running;
    }

    /** Takes ownership of an accepted channel. Called by the acceptor. */
    void register(SocketChannel ch) {
        load.incrementAndGet();
        if (!running) {
            closeChannel(ch);
            return;
        }
        execute(() -> {
            if (!running) {
                closeChannel(ch);
                return;
            }
            try {
                SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
                Connection c = new Connection(this, ch, key);
                key.attach(c);
                connections.add(c);
            } catch (ClosedChannelException e) {
                closeChannel(ch);
            }
        });
    }

    private void closeChannel(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
        load.decrementAndGet();
        server.connectionClosed();
    }

    /** Called by a connection as it closes, on this loop's thread. */
    @Override
    void closed(Connection c) {
        if (connections.remove(c)) {
            load.decrementAndGet();
            server.connectionClosed();
        }
    }

    /** Graceful shutdown: closes idle connections now, the others after their current response. */
    void drain() {
        execute(() -> {
            for (Connection c : new ArrayList<>(connections)) {
                c.drain();
            }
        });
    }

    void stop() {
        running = false;
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        try {
            while (running) {
                wakeupPending.set(false);
                timed = false;
                if (tasks.isEmpty()) {
                    selector.select(onKey, 100);
                } else {
                    selector.selectNow(onKey);
                }
                if (!timed) {
                    turnStart = System.nanoTime();
                }
                runTasks();
                long now = turnStart;
                if (now - nextScan >= 0) {
                    nextScan = now + SCAN_NANOS;
                    for (Connection c : connections.toArray(new Connection[0])) {
                        c.checkTimeout(now);
                    }
                }
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "I/O loop failed; its connections are closed", t);
        } finally {
            running = false; // the acceptor stops handing this loop connections
            runTasks();
            for (Connection c : connections.toArray(new Connection[0])) {
                c.close();
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void runTasks() {
        Runnable t;
        while ((t = tasks.poll()) != null) {
            try {
                t.run();
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.ERROR, "I/O loop task failed", e);
            }
        }
    }

    private void onKey(SelectionKey key) {
        if (!timed) {
            timed = true;
            turnStart = System.nanoTime(); // after the wait: one clock read per turn
        }
        Connection c = (Connection) key.attachment();
        if (c == null || !key.isValid()) {
            return;
        }
        try {
            int ready = key.readyOps();
            if ((ready & SelectionKey.OP_WRITE) != 0) {
                c.onWritable();
            }
            if ((ready & SelectionKey.OP_READ) != 0 && key.isValid()) {
                c.onReadable();
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "connection failed", t);
            c.close();
        }
    }
}
