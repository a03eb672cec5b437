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
 * <p>The response rate ({@code min-response-rate}) is measured by the engine's watchdog
 * ({@link #checkRate}), as a blocked write cannot measure itself: it reads what the write calls have
 * sent while the client was waited on (a call after one that found the socket full, or one that
 * blocked: what a socket takes at once is not the client's doing, as on the selector loops). On a
 * virtual thread a write call returns as soon as the socket takes some bytes (the JDK parks it on a
 * non-blocking socket), so progress is seen as it comes; calls offer at most 64 KiB, so that one that
 * blocked counts little that the socket took at once. On a platform thread a blocking socket returns
 * only when all is written, so once a call of a write has blocked, the rest goes out in smaller slices (a
 * quarter of what the rate asks per window, 2 to 64 KiB), and the call in progress is credited as if
 * moving at the minimum rate, up to its slice: a client at the rate or above is never cut for bytes it
 * has not been seen to take yet; one that stalls is cut once that credit is spent (a slice at the rate:
 * 8.5 s at the defaults). Until a call has blocked, calls offer 16 KiB: a stall within such a call is
 * credited up to 16 KiB at the rate (68 s at the defaults), so there {@code write-timeout} (30 s, from
 * the call's start) comes first.
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
    /** With a minimum response rate, the least one write call offers on a platform thread (see the class). */
    static final int MIN_SLICE = 2 * 1024;
    /** With a minimum response rate, the most one write call offers. */
    static final int MAX_SLICE = 64 * 1024;
    /** With a minimum response rate, the most one write call offers on a platform thread until one has blocked. */
    static final int PLATFORM_SLICE = 16 * 1024;
    /** A write call that took this long waited for the client (copying into a socket buffer takes far less). */
    static final long BLOCKED_NANOS = 20 * MILLI;

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
    /** When the write in progress last made progress (0: not writing); the engine's watchdog reads it. */
    private volatile long writingSince;
    private volatile boolean writeTimedOut;
    /**
     * Response bytes the socket has taken while the client was waited on: by a write call after one that
     * wrote less than it offered (the socket was full), or by one that blocked ({@link #BLOCKED_NANOS}).
     * What a socket takes at once is not the client's doing (as on the selector loops, where the meter
     * starts when a write leaves bytes behind). Written by this connection's thread, read by the watchdog.
     */
    private volatile long sent;
    /** The write call in progress follows one that wrote less than it offered: the client is waited on. */
    private volatile boolean waiting;
    /** What the write call in progress offers (see {@link #writingSince}). */
    private volatile long offered;
    /** The watchdog found the client below {@code min-response-rate} and closed the channel. */
    private volatile boolean writeTooSlow;
    /** The most one write call offers: 0 (no limit) unless the response rate is measured. */
    private final int slice;
    /** The most once a call of the same write has blocked: {@link #slice}, or less on a platform thread. */
    private final int slowSlice;
    /** {@code min-response-rate}, or null. */
    private final DataRate.Limit rateLimit;
    /** The response rate's meter, made when the watchdog first finds the client waited on. Watchdog thread only. */
    private DataRate sendRate;
    private final double ratePerNano;
    /** What the watchdog has told the meter so far: bytes sent plus the credit of a call in progress. */
    private long credited;
    private volatile String remote;
    private int soTimeout = -1;
    /** The byte that waits for room in {@link #transfer}. */
    private final ByteBuffer oneByte = ByteBuffer.allocate(1);
    /** Where an idle connection's next message starts arriving (see {@link #readFirstBytes}). */
    private final byte[] first = new byte[FIRST_READ];
    /** The read in progress only looks: it gives up after a millisecond. */
    private boolean probing;
    /** The protocol has been told of the drain (it decides what an idle connection does then). */
    private boolean drained;

    BlockingLoop(BlockingEngine engine, SocketChannel ch, ProtocolFactory opening) throws IOException {
        this.engine = engine;
        this.opening = opening;
        this.ch = ch;
        this.counters = engine.host.newConnectionCounters();
        this.input = ch.socket().getInputStream();
        DataRate.Limit rate = engine.responseRate;
        this.rateLimit = rate;
        boolean platform = engine.options.threads() == dev.brisk.ThreadMode.PLATFORM;
        // a virtual thread's write calls show their progress: no credit, and slices only so that a call
        // that blocked counts few bytes the socket took at once
        this.ratePerNano = rate == null || !platform ? 0 : rate.bytesPerSecond() / 1e9;
        this.slice = rate == null ? 0 : platform ? PLATFORM_SLICE : MAX_SLICE;
        this.slowSlice = rate == null ? 0 : !platform ? MAX_SLICE
                : (int) Math.max(MIN_SLICE, Math.min(MAX_SLICE, rate.bytesPerSecond() * (rate.windowNanos() / 1e9) / 4));
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
        boolean probe = probing;
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
        long total = 0;
        boolean full = false;
        int most = slice;
        try {
            do {
                long start = System.nanoTime();
                writingSince = start;
                waiting = full; // the last call did not write all it offered: the socket waits on the client
                long k = writeSome(srcs, n, most);
                total += k;
                boolean blocked = System.nanoTime() - start >= BLOCKED_NANOS;
                if (full || blocked) {
                    sent += k; // only this thread writes it
                }
                full = k < offered;
                if (blocked) {
                    most = slowSlice; // the client is the bottleneck: smaller calls show its progress
                }
            } while (anyRemaining(srcs, n));
        } catch (IOException e) {
            countWriteFailure();
            throw e;
        } finally {
            writingSince = 0;
            waiting = false;
        }
        return total;
    }

    private static boolean anyRemaining(ByteBuffer[] srcs, int n) {
        for (int i = 0; i < n; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** One write call: everything at once, or, past {@code slice} bytes, at most a slice of one buffer. */
    private long writeSome(ByteBuffer[] srcs, int n, int slice) throws IOException {
        long remaining = 0;
        ByteBuffer first = null;
        for (int i = 0; i < n; i++) {
            remaining += srcs[i].remaining();
            if (first == null && srcs[i].hasRemaining()) {
                first = srcs[i];
            }
        }
        if (slice == 0 || remaining <= slice || first == null) {
            offered = remaining;
            return n == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, n);
        }
        ByteBuffer b = first;
        int limit = b.limit();
        int k = Math.min(b.remaining(), slice);
        b.limit(b.position() + k);
        offered = k;
        try {
            return ch.write(b);
        } finally {
            b.limit(limit);
        }
    }

    /** Counts why the watchdog failed a write (once), if it did. */
    private void countWriteFailure() {
        if (writeTooSlow) {
            writeTooSlow = false;
            counters.slowResponse();
        } else if (writeTimedOut) {
            writeTimedOut = false;
            counters.timedOut();
        }
    }

    @Override
    public boolean transfersFiles() {
        return true;
    }

    /**
     * Transfers all {@code count} bytes; the watchdog bounds a stall as for {@link #write}. sendfile does
     * not wait for room on a virtual thread's socket (the JDK makes it non-blocking underneath, and
     * {@code transferTo} then answers 0 when the socket is full): one byte through a write, which does
     * wait, bridges each such gap, and the transfer goes on from the file.
     */
    @Override
    public long transfer(FileChannel file, long position, long count) throws IOException {
        long total = 0;
        boolean full = false;
        int most = slice;
        try {
            while (total < count) {
                long start = System.nanoTime();
                writingSince = start;
                waiting = full;
                long piece = most == 0 ? count - total : Math.min(count - total, most);
                offered = piece;
                long n = file.transferTo(position + total, piece, ch);
                if (n > 0) {
                    total += n;
                    boolean blocked = System.nanoTime() - start >= BLOCKED_NANOS;
                    if (full || blocked) {
                        sent += n;
                    }
                    full = n < piece;
                    if (blocked) {
                        most = slowSlice;
                    }
                    continue;
                }
                full = true;
                waiting = true; // the socket is full
                ByteBuffer one = oneByte.clear();
                if (file.read(one, position + total) <= 0) {
                    break; // the file is shorter than it was: the caller sees a short transfer
                }
                offered = 1;
                ch.write(one.flip()); // parks (or blocks) until the socket takes it
                total += 1;
                sent += 1;
            }
        } catch (IOException e) {
            countWriteFailure();
            throw e;
        } finally {
            writingSince = 0;
            waiting = false;
        }
        return total;
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
        long since = writingSince;
        if (since != 0 && now - since > timeoutNanos) {
            writeTimedOut = true;
            closeChannel(); // the blocked write fails, and the connection's thread closes it
        }
    }

    /**
     * Feeds the response rate's meter with what the write calls have sent, plus, on a platform thread,
     * the credit of the call in progress (as if it moved at the minimum rate since it began, up to what
     * it offers; a credit the call does not earn holds the meter back until real bytes pass it), and
     * closes the channel when the client is below the rate. The meter runs only while the client is waited on: a write
     * call after one that found the socket full, or one that has blocked, is in progress (as on the
     * selector loops, where it starts when a write leaves bytes behind).
     * Watchdog thread.
     */
    void checkRate(long now) {
        if (rateLimit == null || closed) {
            return;
        }
        long since = writingSince;
        boolean waited = since != 0 && (waiting || now - since >= BLOCKED_NANOS);
        long moved = sent;
        if (waited && sendRate == null) {
            credited = moved; // the first wait on this client: what it took before is not judged
            sendRate = rateLimit.meter();
        }
        if (sendRate == null) {
            return; // never waited on yet
        }
        if (waited) {
            moved += Math.min(offered, (long) (ratePerNano * Math.max(0, now - since)));
            sendRate.resume(now);
        }
        if (moved > credited) {
            sendRate.add(moved - credited, now);
            credited = moved;
        }
        if (!waited) {
            sendRate.pause(now);
        } else if (sendRate.tooSlow(now)) {
            writeTooSlow = true;
            closeChannel(); // the blocked write fails, and the connection's thread closes it
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
