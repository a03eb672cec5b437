package dev.brisk.internal.engine;

import dev.brisk.IoMode;
import dev.brisk.ServerOptions;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.http1.Http1Shared;
import dev.brisk.internal.http2.Http2Shared;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.transport.Acceptor;
import dev.brisk.internal.transport.BlockingEngine;
import dev.brisk.internal.transport.HandOffs;
import dev.brisk.internal.transport.IoLoop;
import dev.brisk.internal.transport.ListeningTransport;
import dev.brisk.internal.transport.Uring;
import dev.brisk.internal.tls.ServerTls;
import dev.brisk.internal.tls.TlsCounters;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.TransportHost;
import dev.brisk.internal.web.App;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import dev.brisk.ConcurrencyLimitMode;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.ops.AimdLimit;
import dev.brisk.internal.ops.FixedLimit;
import dev.brisk.internal.ops.ServerStats;

/**
 * The server: a listening socket, an {@link Acceptor}, a transport behind it — N {@link IoLoop}s
 * ({@code io=nio}) or a {@link BlockingEngine} with a thread per connection ({@code io=blocking}) —
 * and the protocol every connection starts with (HTTP/1.1, {@link Http1Shared}; HTTP/2,
 * {@link Http2Shared}, by ALPN over TLS or by its preface in the clear), which hands requests to the
 * {@link App}. It is the transports' {@link TransportHost}: the connection count and its limit,
 * the drain, the counters. Start once, close once ({@link #close} is idempotent).
 */
public final class Server implements TransportHost {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private final ServerOptions options;
    private final App app;
    private final ExecutorService userWorkers;
    private final AtomicInteger connections = new AtomicInteger();
    private final ServerStats stats = new ServerStats();
    private final AdmissionControl admission;
    // a lock, not a monitor: blocking-engine virtual threads release slots and must not pin their carrier
    private final java.util.concurrent.locks.ReentrantLock slotLock = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.locks.Condition slotFreed = slotLock.newCondition();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final java.util.concurrent.CountDownLatch closeDone = new java.util.concurrent.CountDownLatch(1);
    private final Http1Shared http1;
    private final BodyStore bodies;
    /** Whether this server holds a use of its spool directory (opened at start, closed once). */
    private final java.util.concurrent.atomic.AtomicBoolean spoolOpen = new java.util.concurrent.atomic.AtomicBoolean();
    private final Http2Shared http2;
    private ServerSocketChannel channel;
    private IoLoop[] loops = new IoLoop[0];
    private BlockingEngine blocking;
    /** The io_uring transport ({@code io=uring}), which listens and accepts by itself; else null. */
    private ListeningTransport uring;
    private Acceptor acceptor;
    private ServerSocketChannel plainChannel;
    private Acceptor plainAcceptor;
    private int plainPort = -1;
    private final TlsCounters tlsCounters = stats.tls;
    private final ServerTls tls;
    private ExecutorService virtualThreads;
    private ExecutorService ownWorkers;
    private final AccessLog accessLog;
    private int port;

    public Server(ServerOptions options, App app, ExecutorService userWorkers) {
        this.options = options;
        this.app = app;
        this.userWorkers = userWorkers;
        this.accessLog = AccessLog.create(options.accessLog(), options.accessLogSampleRate());
        int max = options.maxConcurrentRequests();
        this.admission = max == 0 ? null : new AdmissionControl(
                options.concurrencyLimit() == ConcurrencyLimitMode.ADAPTIVE ? adaptive(max) : new FixedLimit(max),
                options.requestQueueSize());
        this.bodies = new BodyStore(options);
        app.bodies(bodies);
        this.http1 = new Http1Shared(options, app, accessLog, admission, bodies);
        this.http2 = new Http2Shared(options, app, accessLog, admission, http1);
        if (options.http2().priorKnowledge()) {
            http1.priorKnowledge(http2.priorKnowledge());
        }
        // the key files are read now, so a mistake in them fails the app's creation, not its first client
        this.tls = options.tls().enabled()
                ? new ServerTls(options.tls(), http2.afterHandshake(), http2.alpn(), tlsCounters,
                        options.writeTimeout().toNanos()) : null;
    }

    /**
     * The adaptive limit for a maximum of {@code max}: starts at the maximum (no evidence yet of
     * trouble), is cut ×0.9 when requests take over 250 ms, grows back by one per 100 ms while busy
     * and fast, and never goes below a tenth of the maximum.
     */
    static AimdLimit adaptive(int max) {
        return new AimdLimit(new AimdLimit.Settings(max, Math.max(1, max / 10), max, 0.9,
                java.time.Duration.ofMillis(250), java.time.Duration.ofMillis(100)));
    }

    /** The engine's counters. */
    public ServerStats stats() {
        return stats;
    }

    /** The access log, or null when it is off. */
    public AccessLog accessLog() {
        return accessLog;
    }

    /** Where request bodies live, and their budgets. */
    public BodyStore bodies() {
        return bodies;
    }

    /** The in-flight limit, or null when requests are not limited. */
    public AdmissionControl admission() {
        return admission;
    }

    public ServerOptions options() {
        return options;
    }

    public App app() {
        return app;
    }

    /** The TLS handshake counters (zero without TLS). */
    public TlsCounters tlsCounters() {
        return tlsCounters;
    }

    /** The server's TLS, or null without it. */
    public ServerTls tls() {
        return tls;
    }

    @Override
    public boolean draining() {
        return http1.draining();
    }

    @Override
    public LoopCounters newLoopCounters() {
        return stats.newLoop();
    }

    @Override
    public LoopCounters newConnectionCounters() {
        return stats.newConnection();
    }

    @Override
    public void retire(LoopCounters counters) {
        stats.retire(counters);
    }

    @Override
    public dev.brisk.internal.transport.DataRate.Limit responseRate() {
        return dev.brisk.internal.transport.DataRate.Limit.of(options.minResponseRate(),
                options.rateGrace().toNanos(), options.rateWindow().toNanos());
    }

    @Override
    public AccessLog.Sampler accessLogSampler(boolean shared) {
        return accessLog == null ? null : shared ? accessLog.sharedSampler() : accessLog.sampler();
    }

    /** Binds and starts accepting. */
    public void start() throws IOException {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("server already started");
        }
        openSpool();
        if (options.io() == IoMode.URING || options.io() == IoMode.URING_ONLY) {
            uring = openUring();
        }
        if (uring != null) {
            startUring();
            return;
        }
        try {
            channel = listen(options.port());
            port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
            if (options.plainPort() >= 0) {
                plainChannel = listen(options.plainPort());
                plainPort = ((InetSocketAddress) plainChannel.getLocalAddress()).getPort();
            }
        } catch (IOException e) {
            if (channel != null) {
                channel.close();
            }
            failedStart();
            throw e;
        }
        startExecutors();
        Acceptor.Handoff handoff;
        if (options.io() == IoMode.BLOCKING) {
            blocking = new BlockingEngine(this, options);
            handoff = blocking;
        } else {
            loops = new IoLoop[options.ioThreads()];
            for (int i = 0; i < loops.length; i++) {
                loops[i] = new IoLoop(this, i);
            }
            for (IoLoop l : loops) {
                l.start();
            }
            handoff = this::toLeastLoadedLoop;
        }
        acceptor = new Acceptor(this, channel, tls != null ? tls : http1, handoff, "brisk-acceptor");
        acceptor.start();
        if (plainChannel != null) {
            plainAcceptor = new Acceptor(this, plainChannel, http1, handoff, "brisk-acceptor-plain");
            plainAcceptor.start();
        }
    }

    /** The io_uring transport, or null (one log line saying why) to fall back on NIO. */
    private ListeningTransport openUring() throws IOException {
        try {
            return Uring.open(this, options.ioThreads());
        } catch (IOException e) {
            if (options.io() == IoMode.URING_ONLY) {
                failedStart();
                throw new IOException("io=uring-only: io_uring cannot be used: " + e.getMessage(), e);
            }
            LOG.log(System.Logger.Level.WARNING, "io=uring: io_uring cannot be used (" + e.getMessage()
                    + "); serving with io=nio instead");
            return null;
        }
    }

    private void startUring() throws IOException {
        ProtocolFactory first = tls != null ? tls : http1::open;
        try {
            port = uring.listen(options.host(), options.port(), options.backlog(), first);
            if (options.plainPort() >= 0) {
                plainPort = uring.listen(options.host(), options.plainPort(), options.backlog(), http1::open);
            }
        } catch (IOException e) {
            uring.start();
            uring.stopAccepting();
            uring.stop();
            failedStart();
            throw e;
        }
        startExecutors();
        uring.start();
    }

    /**
     * A spool directory that cannot take files fails the start, not the first large upload (a 500); the
     * first server of the process to use it removes what processes that ended without closing left there.
     */
    private void openSpool() {
        if (options.bodySpoolDisk() <= 0) {
            return;
        }
        String dir = options.bodySpoolDir();
        if (!dir.isEmpty()) {
            java.nio.file.Path p = java.nio.file.Path.of(dir);
            if (!java.nio.file.Files.isDirectory(p) || !java.nio.file.Files.isWritable(p)) {
                throw new IllegalArgumentException("body-spool-dir (brisk.body-spool-dir / BRISK_BODY_SPOOL_DIR) is not"
                        + " a directory this process can write: " + dir);
            }
        }
        bodies.spool().open();
        spoolOpen.set(true);
    }

    /** The start failed: this server is closed, nothing of it left open. */
    private void failedStart() {
        closeSpool();
        closed.set(true);
        closeDone.countDown();
    }

    private void closeSpool() {
        if (spoolOpen.getAndSet(false)) {
            bodies.spool().close();
        }
    }

    private ServerSocketChannel listen(int at) throws IOException {
        InetSocketAddress address = new InetSocketAddress(options.host(), at);
        if (address.isUnresolved()) {
            // bind would throw UnresolvedAddressException, without a message
            throw new IllegalArgumentException("host (brisk.host / BRISK_HOST) is not an address of this machine"
                    + " nor a name that resolves: " + options.host());
        }
        ServerSocketChannel ch = ServerSocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(address, options.backlog());
            return ch;
        } catch (IOException e) {
            ch.close();
            throw new IOException("cannot listen on " + options.host() + ":" + at + ": " + e.getMessage(), e);
        }
    }

    private void startExecutors() {
        if (tls != null) {
            tls.startWatching(); // both start paths come here once listening
        }
        // unnamed: a numbered name is a string built per request, a few percent of the CPU of a small handler
        virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
        ExecutorService workers = userWorkers;
        if (workers == null) {
            ownWorkers = Executors.newFixedThreadPool(options.workerThreads(),
                    Thread.ofPlatform().name("brisk-worker-", 0).daemon(true).factory());
            workers = ownWorkers;
        }
        app.executors(HandOffs.executor(virtualThreads), workers);
        http1.streams(virtualThreads);
        if (accessLog != null) {
            accessLog.start();
        }
    }

    /** The bound plain port beside a TLS one, or -1 when there is none. */
    public int plainPort() {
        return plainPort;
    }

    /** The NIO engine's hand-off: the running loop with the fewest connections takes the channel. */
    private void toLeastLoadedLoop(SocketChannel ch, ProtocolFactory protocol) throws IOException {
        ch.configureBlocking(false);
        IoLoop best = null;
        int min = Integer.MAX_VALUE;
        for (IoLoop loop : loops) {
            int l = loop.load();
            if (l < min && loop.isRunning()) {
                min = l;
                best = loop;
            }
        }
        if (best == null) {
            throw new IOException("no I/O loop is running; refusing connections");
        }
        best.register(ch, protocol);
    }

    /** The bound port (useful when port 0 was asked for). */
    public int port() {
        return port;
    }

    /** Open connections, counted from accept to close. */
    public int connectionCount() {
        return connections.get();
    }

    @Override
    public int freeConnectionSlots() {
        int free = options.maxConnections() - connections.get();
        if (free > 0) {
            return free;
        }
        stats.acceptPauses.increment();
        return 0;
    }

    @Override
    public boolean awaitConnectionSlot() {
        if (connections.get() < options.maxConnections()) {
            return true;
        }
        stats.acceptPauses.increment();
        slotLock.lock();
        try {
            if (connections.get() >= options.maxConnections()) {
                slotFreed.await(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            slotLock.unlock();
        }
        return false;
    }

    /** Counts an accepted connection. Only the acceptor thread calls this, so the limit holds exactly. */
    @Override
    public void connectionAccepted() {
        connections.incrementAndGet();
        stats.connectionsAccepted.increment();
    }

    @Override
    public void connectionClosed() {
        int before = connections.getAndDecrement();
        if (before >= options.maxConnections()) {
            slotLock.lock();
            try {
                slotFreed.signalAll();
            } finally {
                slotLock.unlock();
            }
        }
    }

    /**
     * Graceful shutdown: readiness off, the shutdown delay with everything still served, then stop
     * accepting, close idle connections, let in-flight requests finish (with {@code Connection: close})
     * until the shutdown timeout, then close everything. Idempotent.
     */
    public void close() {
        if (!started.get()) {
            return;
        }
        if (!closed.compareAndSet(false, true)) {
            awaitCloseDone(); // another thread is closing: return when it is done
            return;
        }
        try {
            shutdown();
        } finally {
            closeDone.countDown();
        }
    }

    private void awaitConnections(long deadline, boolean ignoreLingering) {
        while (connections.get() - (ignoreLingering ? http1.lingering() : 0) > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Still accepting and serving: time for a load balancer to see readiness down and stop sending. */
    private static void pause(java.time.Duration delay) {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // asked to hurry: drain now
        }
    }

    private void awaitCloseDone() {
        try {
            closeDone.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutdown() {
        // readiness first, so a probe sees DOWN even on a keep-alive connection the drain below keeps open
        app.readiness().shutdownStarted();
        pause(options.shutdownDelay());
        http1.startDraining();
        if (acceptor != null) {
            acceptor.close();
        }
        if (uring != null) {
            uring.stopAccepting();
            uring.drain();
        }
        if (plainAcceptor != null) {
            plainAcceptor.close();
        }
        for (IoLoop l : loops) {
            l.drain();
        }
        if (blocking != null) {
            blocking.drain();
        }
        long deadline = System.nanoTime() + options.shutdownTimeout().toNanos();
        // wait for connections still answering; lingering ones have sent everything already
        awaitConnections(deadline, true);
        awaitConnections(Math.min(deadline, System.nanoTime() + 100_000_000L), false);
        for (IoLoop l : loops) {
            l.stop();
        }
        if (uring != null) {
            uring.stop();
        }
        if (blocking != null) {
            blocking.stop();
        }
        virtualThreads.shutdownNow();
        if (ownWorkers != null) {
            ownWorkers.shutdownNow();
            try {
                ownWorkers.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (accessLog != null) {
            accessLog.close(); // after the loops: they wrote the last lines
        }
        closeSpool();
        if (tls != null) {
            tls.stopWatching();
        }
    }
}
