package dev.brisk.internal.engine;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One connection on its own thread, blocking: the thread reads a request, runs its handler inline,
 * writes the response, and reads again. The protocol is the same {@link Connection} the selector loops
 * drive; this class only decides when to read, when to wait for a task (a queued request's grant, a
 * streamed body's next piece), and bounds every read by the connection's current deadline, so a
 * timeout needs no timer thread of its own.
 *
 * <p>Threads: {@link #run} on the connection's thread; {@link #execute}, {@link #drain},
 * {@link #checkWrite} and {@link #forceClose} from any thread.
 */
final class BlockingLoop extends ConnectionLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long MILLI = 1_000_000L;
    /** Enough for a typical request head (a browser's is 0.5–1.5 KiB, a load tool's under 100 B). */
    private static final int FIRST_READ = 1024;
    /** How often a connection busy with a long response checks whether its client is still there. */
    private static final long PROBE_EVERY_NANOS = 250 * MILLI;

    private final BlockingEngine engine;
    private final SocketChannel ch;
    private final Connection conn;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final InputStream input;
    private volatile Thread thread;
    /** Blocked reading between requests: shutting the input down then ends the connection cleanly. */
    private volatile boolean idleRead;
    /** When the write in progress last made progress (0: not writing); the engine's watchdog reads it. */
    private volatile long writingSince;
    private volatile boolean writeTimedOut;
    private int soTimeout = -1;
    /** Where an idle connection's next request starts arriving (see {@link #readFirstBytes}). */
    private final byte[] first = new byte[FIRST_READ];
    /** The read in progress only looks: it gives up after a millisecond. */
    private boolean probing;

    BlockingLoop(BlockingEngine engine, SocketChannel ch) throws IOException {
        super(engine.server, engine.inPool, engine.outPool, engine.server.stats().newConnection(),
                engine.accessLogSampler);
        this.engine = engine;
        this.ch = ch;
        this.input = ch.socket().getInputStream();
        this.conn = new Connection(this, ch, null);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            serveUntil(null);
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "connection failed", t);
        } finally {
            if (!conn.isClosed()) {
                conn.close();
            }
        }
    }

    /** Serves the connection until it closes, or until {@code f} (if any) completes. */
    private void serveUntil(CompletableFuture<?> f) throws InterruptedException {
        while (!conn.isClosed() && (f == null || !f.isDone())) {
            runTasks();
            if (conn.isClosed() || (f != null && f.isDone())) {
                return;
            }
            long now = System.nanoTime();
            if (conn.wantsInput()) {
                if (conn.deadline() - now <= 0) {
                    conn.checkTimeout(now);
                    continue;
                }
                if (conn.idle()) {
                    if (server.draining()) {
                        conn.drain();
                        continue;
                    }
                    idleRead = true;
                    if (!tasks.isEmpty()) { // a drain may have looked at idleRead before it was set
                        idleRead = false;
                        continue;
                    }
                }
                try {
                    if (idleRead && !conn.holdsInput()) {
                        readFirstBytes();
                    } else {
                        conn.onReadable();
                    }
                } finally {
                    idleRead = false;
                }
            } else {
                long wait = conn.queued() ? Math.max(MILLI, conn.deadline() - now) : PROBE_EVERY_NANOS;
                Runnable t = tasks.poll(wait, TimeUnit.NANOSECONDS);
                if (t != null) {
                    t.run();
                } else if (conn.queued()) {
                    conn.checkTimeout(System.nanoTime());
                } else if (conn.readsWhileHandling()) {
                    // a long response (a stream): look briefly for a client that left, as a selector would see
                    probing = true;
                    try {
                        conn.onReadable();
                    } finally {
                        probing = false;
                    }
                }
            }
        }
    }

    /**
     * Waits for a request's first bytes in this loop's small array rather than a pooled buffer, which
     * a connection would otherwise hold for as long as it stays idle; a small request arrives whole.
     */
    private void readFirstBytes() {
        int n;
        try {
            n = read(conn, first, 0, first.length);
        } catch (IOException e) {
            conn.close();
            return;
        }
        if (n != 0) {
            conn.onFirstBytes(first, n);
        }
    }

    private void runTasks() {
        Runnable t;
        while ((t = tasks.poll()) != null) {
            try {
                t.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "connection task failed", e);
            }
        }
    }

    @Override
    long clock() {
        return System.nanoTime(); // one connection: a read per request is no burden, and never stale
    }

    @Override
    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    @Override
    void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    boolean runsHandlersInline() {
        return true;
    }

    @Override
    void runUntil(CompletableFuture<?> f) {
        try {
            serveUntil(f);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            conn.close(); // completes f exceptionally
        }
    }

    /** Blocks until bytes arrive, the stream ends, or the connection's deadline passes (then 0). */
    @Override
    int read(SocketChannel ch, Connection c, ByteBuffer dst) throws IOException {
        int n = read(c, dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    private int read(Connection c, byte[] a, int off, int len) throws IOException {
        long waitMs = probing ? 1 : (c.deadline() - System.nanoTime() + MILLI - 1) / MILLI;
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, waitMs));
        if (ms != soTimeout) {
            ch.socket().setSoTimeout(ms);
            soTimeout = ms;
        }
        try {
            return input.read(a, off, len);
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    /** Writes everything (a blocking channel may write only part per call); the watchdog bounds stalls. */
    @Override
    long write(SocketChannel ch, ByteBuffer[] srcs, int n) throws IOException {
        long total = 0;
        try {
            do {
                writingSince = System.nanoTime();
                total += n == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, n);
            } while (srcs[0].hasRemaining() || (n == 2 && srcs[1].hasRemaining()));
        } catch (IOException e) {
            if (writeTimedOut) {
                counters.timedOut();
            }
            throw e;
        } finally {
            writingSince = 0;
        }
        return total;
    }

    @Override
    void closed(Connection c) {
        server.stats().retire(counters);
        engine.closed(this);
    }

    /** Closes the channel when a write has made no progress for {@code timeoutNanos}. Watchdog thread. */
    void checkWrite(long now, long timeoutNanos) {
        long since = writingSince;
        if (since != 0 && now - since > timeoutNanos) {
            writeTimedOut = true;
            closeChannel(); // the blocked write fails, and the connection's thread closes it
        }
    }

    /** Graceful shutdown: ends the connection now if it waits between requests, else after its response. */
    void drain() {
        execute(() -> {
            if (!conn.isClosed()) {
                conn.drain();
            }
        });
        if (idleRead) {
            try {
                ch.shutdownInput(); // the blocked read sees the end of the stream
            } catch (IOException ignored) {
                // closed already
            }
        }
    }

    /** The shutdown timeout passed: closes the channel and interrupts a handler still running. */
    void forceClose() {
        closeChannel();
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void closeChannel() {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
