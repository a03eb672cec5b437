package dev.brisk.internal.transport;

import dev.brisk.ServerOptions;
import dev.brisk.ThreadMode;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.ops.ServerStats;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The blocking engine ({@code io=blocking}): each accepted connection gets its own thread running a
 * {@link BlockingLoop} — a new virtual thread, or one of at most {@code platform-threads} platform
 * threads. With platform threads, the acceptor waits for a free one (connections meanwhile wait in
 * the kernel backlog); one that waited {@code connection-wait-timeout} in vain is served on a
 * short-lived virtual thread by its protocol's {@link ProtocolFactory#whenBusy} (HTTP/1.1: one
 * request; health probes and routes never shed are answered, the rest 503), holding no platform
 * thread's place. One watchdog thread, every 100 ms, enforces {@code write-timeout} and
 * {@code min-response-rate} on every connection (a blocking write has no timeout of its own) and ends
 * reads blocked past their connection's deadline (reads carry no socket timeout: a timed read costs a
 * timer per request). One {@link Lingerer} thread
 * drains every lingering close, so a connection's thread (and a platform thread's place) is free as
 * soon as its last answer is written.
 */
public final class BlockingEngine implements Acceptor.Handoff {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    final TransportHost host;
    final ServerOptions options;
    final BufferPool inPool = new SharedBufferPool(8 * 1024, 1024);
    final BufferPool outPool = new SharedBufferPool(16 * 1024, 1024);
    /** One sampler for all connections: one per connection would log every connection's first response. */
    final AccessLog.Sampler accessLogSampler;
    /** {@code min-response-rate}, or null. */
    final DataRate.Limit responseRate;
    private final Set<BlockingLoop> live = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor platform; // null: a virtual thread per connection
    private final Semaphore platformFree;
    /** No thread came free within the wait: refuse at once until one does. Acceptor thread only. */
    private boolean saturated;
    /** The acceptor's refusals; written by the acceptor thread only. */
    private final LoopCounters acceptorCounters;
    private final Thread watchdog;
    /** Drains the lingering closes of every connection, or null when it could not be made (each lingers itself). */
    final Lingerer lingerer;
    private volatile boolean running = true;

    public BlockingEngine(TransportHost host, ServerOptions options) {
        this.host = host;
        this.options = options;
        this.acceptorCounters = host.newLoopCounters();
        this.accessLogSampler = host.accessLogSampler(true);
        this.responseRate = host.responseRate();
        if (options.threads() == ThreadMode.PLATFORM) {
            int n = options.platformThreads();
            platform = new ThreadPoolExecutor(n, n, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                    Thread.ofPlatform().name("brisk-conn-", 0).daemon(true).factory());
            platform.allowCoreThreadTimeOut(true);
            platformFree = new Semaphore(n);
        } else {
            platform = null;
            platformFree = null;
        }
        Lingerer l = null;
        try {
            l = new Lingerer();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "no selector for lingering closes: each connection's thread drains its own", e);
        }
        lingerer = l;
        watchdog = Thread.ofPlatform().name("brisk-watchdog").daemon(true).unstarted(this::watch);
        watchdog.start();
    }

    /** Starts serving an accepted channel on a thread of its own. Called by the acceptor. */
    @Override
    public void take(SocketChannel ch, ProtocolFactory protocol) throws IOException {
        ch.configureBlocking(true);
        boolean platformThread = platform != null;
        ProtocolFactory opening = protocol;
        if (platformThread && !awaitPlatformThread()) {
            opening = protocol.whenBusy();
            if (opening == null) {
                acceptorCounters.shed(ServerStats.ShedReason.THREAD_LIMIT);
                closeQuietly(ch);
                host.connectionClosed();
                return;
            }
            platformThread = false; // served briefly on a virtual thread, holding no platform thread's place
        }
        BlockingLoop loop;
        try {
            loop = new BlockingLoop(this, ch, opening, platformThread);
        } catch (IOException | RuntimeException e) {
            if (platformThread) {
                platformFree.release();
            }
            throw e instanceof IOException io ? io : new IOException(e);
        }
        live.add(loop);
        if (platformThread) {
            platform.execute(loop);
        } else {
            // unnamed: a numbered name is a string built per connection, and churn is a connection per request
            Thread.ofVirtual().start(loop);
        }
    }

    /**
     * A free platform thread within {@code connection-wait-timeout}. Once one connection has waited that
     * long in vain, the pool counts as saturated and the connections behind it in the backlog (which
     * have waited as long) are refused at once, until a thread comes free: refusing them one timeout
     * after another would leave most of the backlog waiting for ever.
     */
    private boolean awaitPlatformThread() {
        if (platformFree.tryAcquire()) {
            saturated = false;
            return true;
        }
        if (saturated) {
            return false;
        }
        try {
            boolean got = platformFree.tryAcquire(options.connectionWaitTimeout().toNanos(), TimeUnit.NANOSECONDS);
            saturated = !got;
            return got;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    /** A connection ended: on its own thread, or on the {@link Lingerer}'s once its lingering socket closed. */
    void closed(BlockingLoop loop) {
        if (live.remove(loop)) {
            if (loop.platformThread && !loop.lingersElsewhere()) {
                platformFree.release(); // the acceptor's next tryAcquire succeeds and ends saturation
            }
            host.connectionClosed();
        }
    }

    /**
     * {@code loop}'s thread is done with it while its socket lingers on the {@link Lingerer}: the thread's
     * place goes to the next connection now; the connection counts as closed when its socket is.
     */
    void threadFreed(BlockingLoop loop) {
        if (loop.platformThread) {
            platformFree.release();
        }
    }

    /** Graceful shutdown: idle connections end now, busy ones after their current response. */
    public void drain() {
        for (BlockingLoop l : live) {
            l.drain();
        }
    }

    /**
     * The end: closes what is left and waits (a second at most) for those threads to finish; a
     * connection whose handler ignores the interrupt is counted closed anyway, as its socket is.
     */
    public void stop() {
        running = false;
        watchdog.interrupt();
        if (lingerer != null) {
            lingerer.stop(); // its sockets close, and their connections are counted closed
        }
        for (BlockingLoop l : live) {
            l.forceClose();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (!live.isEmpty() && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (BlockingLoop l : live) {
            closed(l);
        }
        if (platform != null) {
            platform.shutdownNow();
        }
    }

    private void watch() {
        long timeout = options.writeTimeout().toNanos();
        while (running) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (BlockingLoop l : live) {
                l.checkWrite(now, timeout);
                l.checkRate(now);
                l.checkRead(now);
            }
        }
        LOG.log(System.Logger.Level.TRACE, "watchdog stopped");
    }
}
