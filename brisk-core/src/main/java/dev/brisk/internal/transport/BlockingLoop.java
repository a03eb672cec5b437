package dev.brisk.internal.transport;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection on its own thread, blocking: the plain {@link Wire} of the blocking transport and the
 * loop that drives its {@link Protocol}. The thread reads, lets the protocol run (a handler runs right
 * here: {@link #blocking}), writes, and reads again. This class only decides when to read and when to
 * wait for a task (a queued request's turn, a streamed body's next piece). An idle read (waiting for
 * the next request) blocks with no timeout of its own (a timed read costs a timer per request): the
 * engine's watchdog ends it past the protocol's deadline. Every other read and every wait for tasks
 * is bounded by the deadline itself.
 *
 * <pre>
 *   read interest on, not awaiting a task ──▶ block in read until the deadline ──▶ onReadable / onTimer
 *   otherwise ──────────────────────────────▶ wait for a task (at most 250 ms, or to the deadline)
 *                                              └─ none came: deadline passed → onTimer;
 *                                                 read interest on → a 1 ms read looks for a peer that left
 * </pre>
 *
 * <p>A {@link #duplex} protocol (a WebSocket) reads and is written to from other threads at once: its
 * connection's thread holds the wire's <em>turn</em> (a lock) except while blocked in a read, and a
 * task posted meanwhile runs at once on a virtual thread that takes the turn, so a send never waits
 * for the peer's next bytes. The thread back from its read waits for the turn before it goes on.
 *
 * <p>Writes, and the watchdog's view of them ({@code write-timeout}, {@code min-response-rate}), are
 * {@link BlockingWrites}'.
 *
 * <p>Threads: {@link #run} on the connection's thread; {@link #execute}, {@link #drain},
 * {@link #checkWrite}, {@link #checkRate} and {@link #forceClose} from any thread (the watchdog's).
 */
final class BlockingLoop implements Wire, Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long MILLI = 1_000_000L;
    /** Enough for a typical request head (a browser's is 0.5–1.5 KiB, a load tool's under 100 B). */
    private static final int FIRST_READ = 1024;
    /** How often a connection busy elsewhere checks whether its peer is still there. */
    private static final long PROBE_EVERY_NANOS = 250 * MILLI;
    /** The least time a drain leaves an idle read before ending it (see {@link #drain}). */
    private static final long DRAIN_SLACK_MILLIS = 50;

    private final BlockingEngine engine;
    private final SocketChannel ch;
    private final LoopCounters counters;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    /** Who may touch the protocol and the wire: the connection's thread, but while a duplex read blocks. */
    private final ReentrantLock turn = new ReentrantLock();
    /** The protocol reads while other threads post it work (see {@link #duplex}). */
    private volatile boolean duplex;
    /** This thread waits in a read with the turn let go: a deadline moved meanwhile is the watchdog's. */
    private volatile boolean duplexRead;
    /** A timer check posted by the watchdog has not run yet. */
    private final java.util.concurrent.atomic.AtomicBoolean timerPosted = new java.util.concurrent.atomic.AtomicBoolean();
    private final InputStream input;
    private final ProtocolFactory opening;
    private Protocol protocol;
    private volatile Thread thread;
    private boolean readInterest = true;
    // written by this connection's thread, read by the engine's watchdog
    private volatile long deadline;
    private volatile boolean hasDeadline;
    /** Blocked in a read with no timeout of its own: the watchdog ends it when the deadline passes. */
    private volatile boolean inRead;
    /** The watchdog ended the read in progress because the deadline passed (not the peer's end). */
    private volatile boolean deadlineHit;
    private volatile boolean closed;
    /** The socket lingers on the engine's {@link Lingerer} (see {@link #lingerElsewhere}). */
    private volatile boolean lingersElsewhere;
    /** Blocked reading between messages: shutting the input down then ends the connection cleanly. */
    private volatile boolean idleRead;
    /** Idle reads begun so far: tells a drain whether the idle read it saw is still the same one. */
    private volatile long idleReads;
    /** The write calls and what the watchdog reads of them. */
    private final BlockingWrites writes;
    private volatile String remote;
    private int soTimeout = -1;
    /** Where an idle connection's next message starts arriving (see {@link #readFirstBytes}). */
    private final byte[] first = new byte[FIRST_READ];
    /** The read in progress only looks: it gives up after a millisecond. */
    private boolean probing;
    /** Reads take only what the socket holds already ({@link #readsOnlyLook}). */
    private boolean lookOnly;
    /** The protocol has been told of the drain (it decides what an idle connection does then). */
    private boolean drained;

    /** Runs on one of the engine's platform threads, whose place it gives back when done. */
    final boolean platformThread;

    BlockingLoop(BlockingEngine engine, SocketChannel ch, ProtocolFactory opening, boolean platformThread)
            throws IOException {
        this.engine = engine;
        this.opening = opening;
        this.platformThread = platformThread;
        this.ch = ch;
        this.counters = engine.host.newConnectionCounters();
        this.input = ch.socket().getInputStream();
        this.writes = new BlockingWrites(ch, counters, engine.responseRate, platformThread);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        turn.lock();
        try {
            protocol = opening.open(this);
            serveUntil(null);
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "connection failed", t);
        } finally {
            if (protocol != null && !protocol.isClosed()) {
                protocol.close();
            }
            close(); // a protocol that failed to open, or one handed over that never closed the wire
            turn.unlock();
        }
    }

    /** Serves the connection until it closes, or until {@code f} (if any) completes. */
    private void serveUntil(CompletableFuture<?> f) throws InterruptedException {
        while (!closed && (f == null || !f.isDone())) {
            runTasks();
            if (closed || (f != null && f.isDone())) {
                return;
            }
            Protocol p = protocol;
            long now = System.nanoTime();
            if (readInterest && !p.awaitsTask()) {
                if (hasDeadline && deadline - now <= 0) {
                    p.onTimer(now);
                    continue;
                }
                if (p.idle()) {
                    if (engine.host.draining() && !drained) {
                        drainNow(p); // the protocol may keep an idle connection open a little longer
                        continue;
                    }
                    idleReads++; // only this thread writes it
                    idleRead = true;
                    if (!tasks.isEmpty()) { // a drain may have looked at idleRead before it was set
                        idleRead = false;
                        continue;
                    }
                }
                try {
                    if (idleRead && !p.holdsInput()) {
                        readFirstBytes(p);
                    } else {
                        p.onReadable();
                    }
                } finally {
                    idleRead = false;
                }
            } else {
                long wait = hasDeadline ? Math.max(MILLI, Math.min(PROBE_EVERY_NANOS, deadline - now)) : PROBE_EVERY_NANOS;
                Runnable t = tasks.poll(wait, TimeUnit.NANOSECONDS);
                if (t != null) {
                    t.run();
                } else if (hasDeadline && System.nanoTime() - deadline >= 0) {
                    p.onTimer(System.nanoTime());
                } else if (readInterest) {
                    // busy elsewhere (a stream): look briefly for a peer that left, as a selector would see
                    probing = true;
                    try {
                        p.onReadable();
                    } finally {
                        probing = false;
                    }
                }
            }
        }
    }

    private void drainNow(Protocol p) {
        drained = true;
        probing = true; // a read in the drain only looks for bytes already here
        try {
            p.drain();
        } finally {
            probing = false;
        }
    }

    /**
     * Waits for a message's first bytes in this loop's small array rather than a pooled buffer, which
     * a connection would otherwise hold for as long as it stays idle; a small request arrives whole.
     */
    private void readFirstBytes(Protocol p) {
        int n;
        try {
            n = read(first, 0, first.length);
        } catch (IOException e) {
            p.close();
            return;
        }
        if (n != 0) {
            p.onBytes(first, n);
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
    public long clock() {
        return System.nanoTime(); // one connection: a read per request is no burden, and never stale
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread || (duplex && turn.isHeldByCurrentThread());
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (duplex && !turn.isLocked()) {
            runElsewhere(); // the connection's thread is blocked in a read (or about to be: see read)
        }
    }

    @Override
    public void duplex() {
        duplex = true;
    }

    /** Runs the posted tasks on a virtual thread that takes the turn, if nobody holds it. */
    private void runElsewhere() {
        Thread.ofVirtual().start(() -> {
            // whoever lets go of the turn looks at the queue again, so no task is left behind
            while (!tasks.isEmpty() && !closed && turn.tryLock()) {
                try {
                    runTasks();
                } finally {
                    turn.unlock();
                }
            }
        });
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public void runUntil(CompletableFuture<?> f) {
        try {
            serveUntil(f);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            protocol.close(); // completes f exceptionally
        }
    }

    @Override
    public void readInterest(boolean on) {
        readInterest = on;
    }

    @Override
    public void writeInterest(boolean on) {
        // writes here always finish before write() returns
    }

    @Override
    public void deadline(long at) {
        deadline = at;
        hasDeadline = true;
    }

    @Override
    public void noDeadline() {
        hasDeadline = false;
    }

    @Override
    public void readsOnlyLook(boolean on) {
        lookOnly = on;
    }

    /** Blocks until bytes arrive, the stream ends, or the deadline passes (then 0). */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    /**
     * An idle read (between messages, nothing buffered) has no socket timeout: a timed read costs a
     * timer set and cancelled per request, about 40 % of this engine's CPU per request; the watchdog
     * ends it past the deadline instead ({@link #checkRead}), which only closes an idle connection.
     * Any other read (a partial head, a body, a lingering close) is timed to the deadline, so a
     * timeout leaves the input open for the protocol's answer and its lingering close. A probe looks
     * for a millisecond, once.
     */
    private int read(byte[] a, int off, int len) throws IOException {
        if (lookOnly && input.available() <= 0) {
            return 0; // nothing here yet, and this read may not wait for it
        }
        boolean probe = probing || lookOnly; // bytes are here: the read returns them at once
        probing = false; // one look: a handler run by what it read reads normally
        boolean untimed = !probe && idleRead;
        long waitMs = probe ? 1 : untimed ? 0
                : hasDeadline ? (deadline - System.nanoTime() + MILLI - 1) / MILLI : PROBE_EVERY_NANOS / MILLI;
        int ms = untimed ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, waitMs));
        if (ms != soTimeout) {
            ch.socket().setSoTimeout(ms);
            soTimeout = ms;
        }
        int n;
        inRead = untimed;
        // a duplex protocol lets other threads have the turn while this one waits for the peer
        boolean yielded = duplex && Thread.currentThread() == thread && turn.getHoldCount() == 1;
        if (yielded) {
            duplexRead = true;
            turn.unlock();
            if (!tasks.isEmpty()) {
                runElsewhere(); // posted while this thread held the turn, after it last ran its tasks
            }
        }
        try {
            n = input.read(a, off, len);
        } catch (SocketTimeoutException e) {
            return 0;
        } finally {
            inRead = false;
            if (untimed) {
                // the wait is over: what it brought (a request, its handler running here) is not idle, and a
                // drain must not shut the input under it, with more requests unread behind it in the socket
                idleRead = false;
            }
            if (yielded) {
                turn.lock();
                duplexRead = false;
            }
        }
        if (yielded && closed) {
            throw new IOException("connection closed"); // by a task that ran meanwhile
        }
        if (n < 0 && deadlineHit) {
            deadlineHit = false;
            return 0; // not the peer's end but the deadline's: the loop lets the protocol time out
        }
        return n;
    }

    /** Writes everything (a blocking channel may write only part per call); the watchdog bounds stalls. */
    @Override
    public long write(ByteBuffer[] srcs, int n) throws IOException {
        return writes.write(srcs, n);
    }

    @Override
    public boolean transfersFiles() {
        return true;
    }

    /** Transfers all {@code count} bytes (see {@link BlockingWrites#transfer}). */
    @Override
    public long transfer(FileChannel file, long position, long count) throws IOException {
        return writes.transfer(file, position, count);
    }

    @Override
    public void shutdownOutput() throws IOException {
        ch.shutdownOutput();
    }

    /**
     * The blocking engine's lingerer takes the drain: this thread's loop ends now (closed for the
     * protocol), the channel is the lingerer's, and the connection counts as closed once it is.
     */
    @Override
    public boolean lingerElsewhere(long maxBytes, long nanos, Runnable ended) {
        Lingerer l = engine.lingerer;
        if (l == null || duplex || closed) {
            return false;
        }
        closed = true; // the loop ends; close() leaves the channel alone from now on
        lingersElsewhere = true;
        engine.threadFreed(this);
        l.add(ch, maxBytes, System.nanoTime() + nanos, () -> {
            ended.run();
            engine.host.retire(counters);
            engine.closed(this);
        });
        return true;
    }

    /** The socket was handed to the engine's {@link Lingerer}: this connection's thread is free already. */
    boolean lingersElsewhere() {
        return lingersElsewhere;
    }

    @Override
    public void discardUnsent() {
        Linger.zero(ch);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeChannel();
        engine.host.retire(counters);
        engine.closed(this);
    }

    @Override
    public String remoteAddress() {
        String r = remote;
        if (r == null) {
            r = Peers.describe(ch);
            remote = r;
        }
        return r;
    }

    @Override
    public void protocol(Protocol next) {
        protocol = next;
    }

    @Override
    public BufferPool inPool() {
        return engine.inPool;
    }

    @Override
    public BufferPool outPool() {
        return engine.outPool;
    }

    @Override
    public LoopCounters counters() {
        return counters;
    }

    @Override
    public AccessLog.Sampler accessLogSampler() {
        return engine.accessLogSampler;
    }

    /**
     * Ends a read that is still blocked past the protocol's deadline (the input is shut: the read sees
     * an end, which {@link #read} reports as "nothing yet", and the loop calls the protocol's timer). A
     * duplex read is timed, but to the deadline it began with: one that passed since (moved earlier by
     * another thread) gets the protocol's timer run with the turn, on another thread. Watchdog thread.
     */
    void checkRead(long now) {
        if (duplexRead && hasDeadline && now - deadline > 0 && timerPosted.compareAndSet(false, true)) {
            // a deadline another thread set while this one waits in a read timed to the old one (a
            // WebSocket's close timeout, say): the protocol's timer runs with the turn, on another thread
            execute(() -> {
                timerPosted.set(false);
                if (!protocol.isClosed()) {
                    protocol.onTimer(System.nanoTime());
                }
            });
        }
        // only idle reads are untimed (inRead): ending one closes the connection, which is all its timeout does
        if (inRead && hasDeadline && now - deadline > 0 && !deadlineHit) {
            deadlineHit = true;
            try {
                ch.shutdownInput();
            } catch (IOException ignored) {
                // closed already
            }
        }
    }

    /** Closes the channel when a write has made no progress for {@code timeoutNanos}. Watchdog thread. */
    void checkWrite(long now, long timeoutNanos) {
        writes.checkWrite(now, timeoutNanos);
    }

    /** Closes the channel when the client takes the response below {@code min-response-rate}. Watchdog thread. */
    void checkRate(long now) {
        if (!closed) {
            writes.checkRate(now);
        }
    }

    /**
     * Graceful shutdown: the protocol is told on this connection's thread; a read blocked between
     * messages is ended after the drain's grace unless a message arrives by then.
     */
    void drain() {
        execute(() -> {
            if (!protocol.isClosed()) {
                drainNow(protocol);
            }
        });
        if (idleRead) {
            // Ends the blocked read, but not at once: a request on its way is answered if it arrives within
            // the drain's grace (its bytes may also have just arrived, with this thread not yet scheduled to
            // take them, and once the input is shut the JDK reports the end of the stream at the next read:
            // the request would be cut off). Only a read still blocked then, the same one, is ended.
            long read = idleReads;
            long wait = Math.max(DRAIN_SLACK_MILLIS, engine.options.drainGrace().toMillis());
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(wait);
                    if (idleRead && idleReads == read && !closed) {
                        ch.shutdownInput(); // the blocked read sees the end of the stream
                    }
                } catch (IOException | InterruptedException ignored) {
                    // closed already, or stopping anyway
                }
            });
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
