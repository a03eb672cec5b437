package dev.brisk.internal.transport;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One selector, one thread, and the connections ({@link NioWire}s) registered on it. Only this loop's
 * thread touches its connections' I/O state; other threads hand it work with {@link #execute}, which
 * queues the task and wakes the selector at most once per loop turn, and only while the loop waits in
 * it. Deadlines, and the response rate each {@link NioWire} measures, are checked by a scan of every
 * connection every 100 ms. The virtual threads a turn asks for start at its end ({@link HandOffs}).
 * Knows nothing of HTTP: each connection's {@link Protocol} does.
 */
public final class IoLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long SCAN_NANOS = 100_000_000L;

    final TransportHost host;
    final BufferPool inPool = new BufferPool(8 * 1024, 1024);
    final BufferPool outPool = new BufferPool(16 * 1024, 1024);
    /** Counters written by this loop's thread only. */
    final LoopCounters counters;
    /** Which responses this loop logs; null when the access log is off. */
    final AccessLog.Sampler accessLogSampler;
    /** {@code min-response-rate}, or null. */
    final DataRate.Limit responseRate;
    private final Selector selector;
    private final LoopTasks tasks = new LoopTasks();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    /**
     * Set before the loop looks at its tasks and waits in select, cleared after: {@link #execute} wakes it
     * only then. Either the loop sees a task added, or the adding thread sees this set (both volatile).
     */
    private volatile boolean selecting;
    private final HashSet<NioWire> connections = new HashSet<>();
    private final AtomicInteger load = new AtomicInteger();
    private final LoopThread thread;
    private volatile boolean running = true;
    private long nextScan;
    /** When this turn began: {@link #clock()}. */
    private long turnStart = System.nanoTime();
    /** Whether {@link #turnStart} was read this turn (by its first ready key). */
    private boolean timed;
    // one instance: a method reference per select call would allocate on every loop turn
    private final Consumer<SelectionKey> onKey = this::onKey;

    public IoLoop(TransportHost host, int index) throws IOException {
        this.host = host;
        this.counters = host.newLoopCounters();
        this.accessLogSampler = host.accessLogSampler(false);
        this.responseRate = host.responseRate();
        this.selector = Selector.open();
        this.thread = new LoopThread(this, "brisk-io-" + index, this::execute);
    }

    public void start() {
        thread.start();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** When this turn began: one clock read per turn serves every deadline set in it. */
    long clock() {
        return turnStart;
    }

    /** Connections on this loop, counted from the moment one is handed over. */
    public int load() {
        return load.get();
    }

    /** Runs {@code task} on this loop's thread, soon. Any thread. */
    void execute(Runnable task) {
        tasks.add(task);
        // only a loop that waits (or is about to) needs waking: one that is busy looks at its tasks before it
        // waits again, and a wake-up costs it two system calls (an eventfd written, then read)
        if (selecting && Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    /** Whether this loop still serves (false once stopped or failed). */
    public boolean isRunning() {
        return running;
    }

    /** Takes ownership of an accepted non-blocking channel, to start with {@code protocol}. Called by the acceptor. */
    public void register(SocketChannel ch, ProtocolFactory protocol) {
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
                NioWire w = new NioWire(this, ch, key);
                w.protocol(protocol.open(w)); // before the wire is seen by the scan or the selector
                key.attach(w);
                connections.add(w);
            } catch (ClosedChannelException e) {
                closeChannel(ch);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "a new connection could not be set up; closed", e);
                SelectionKey k = ch.keyFor(selector);
                if (k != null) {
                    k.cancel();
                }
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
        host.connectionClosed();
    }

    /** Called by a connection as it closes, on this loop's thread. */
    void closed(NioWire w) {
        if (connections.remove(w)) {
            load.decrementAndGet();
            host.connectionClosed();
        }
    }

    /** Graceful shutdown: closes idle connections now, the others after their current work. */
    public void drain() {
        execute(() -> {
            for (NioWire w : new ArrayList<>(connections)) {
                w.protocol.drain();
            }
        });
    }

    public void stop() {
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
                selecting = true;
                if (tasks.isEmpty()) {
                    selector.select(onKey, 100);
                } else {
                    selector.selectNow(onKey);
                }
                selecting = false;
                if (!timed) {
                    turnStart = System.nanoTime();
                }
                runTasks();
                long now = turnStart;
                if (now - nextScan >= 0) {
                    nextScan = now + SCAN_NANOS;
                    for (NioWire w : connections.toArray(new NioWire[0])) {
                        if (w.sendTooSlow(now)) {
                            counters.slowResponse();
                            w.discardUnsent();
                            w.protocol.tooSlow();
                        } else {
                            w.protocol.onTimer(now);
                        }
                    }
                    thread.scanned();
                }
                thread.endTurn(); // the handlers this turn dispatched start now, together
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "I/O loop failed; its connections are closed", t);
        } finally {
            running = false; // the acceptor stops handing this loop connections
            for (int turn = 0; turn < 100 && !tasks.isEmpty(); turn++) {
                runTasks(); // and what those tasks post, a bounded number of turns
            }
            thread.endTurn();
            for (NioWire w : connections.toArray(new NioWire[0])) {
                w.protocol.close();
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /**
     * Runs the tasks added before this call; what they add runs in the next turn, after a look at the
     * sockets (a task that posts itself again, as a TLS wire with more plaintext at hand does, cannot
     * keep the loop from its other connections or its scan).
     */
    private void runTasks() {
        tasks.beginTurn();
        Runnable t;
        while ((t = tasks.pollTurn()) != null) {
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
        NioWire w = (NioWire) key.attachment();
        if (w == null || !key.isValid()) {
            return;
        }
        Protocol p = w.protocol;
        try {
            int ready = key.readyOps();
            if ((ready & SelectionKey.OP_WRITE) != 0) {
                p.onWritable();
            }
            if ((ready & SelectionKey.OP_READ) != 0 && key.isValid()) {
                w.protocol.onReadable(); // the write may have handed the wire to another protocol
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "connection failed", t);
            w.protocol.close();
        }
    }
}
