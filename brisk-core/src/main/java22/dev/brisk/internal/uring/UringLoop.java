package dev.brisk.internal.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.transport.LoopTasks;
import dev.brisk.internal.transport.LoopThread;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.ProtocolFactory;
import dev.brisk.internal.transport.TransportHost;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One io_uring, one thread, and the connections ({@link UringWire}s) on it. Each turn makes one
 * {@code io_uring_enter} that submits what the last turn queued and waits (at most until the next
 * deadline scan) for a completion, then handles every completion, the tasks other threads posted, and
 * the wires whose interest changed. Other threads post tasks with {@link #execute}, which writes to
 * the loop's eventfd (a read of it is always in the ring) at most once per turn. Deadlines are checked
 * by a scan of every connection every 100 ms, as on the NIO loop. The first loop of a transport also
 * accepts, on every listening socket:
 *
 * <pre>
 *   SINGLE: up to 8 accepts in the ring, each holding a free connection slot, so the limit holds
 *      │ exactly; at the limit none, and a scan below it re-arms them
 *      │ more than 64 slots free, no single accept in flight (kernel 5.19+)
 *      ▼
 *   MULTISHOT: one accept that stays armed and completes once per connection; a connection it brings
 *      │ when the limit has no room waits, accepted but not served (as it would in the kernel's
 *      │ backlog), until a slot frees; past 1,024 such, it is closed
 *      │ 32 slots free or fewer: cancelled; its last completion (no F_MORE) ──▶ SINGLE
 * </pre>
 *
 * <p>A connection accepted by the multishot accept has no peer address from the kernel: the loop it goes
 * to asks {@code getpeername} for it as it registers the connection.
 *
 * <p>User data of a submission: a wire's {@code generation << 32 | slot << 8 | op} (op below 16), so a
 * late completion for a slot since reused is recognised and dropped; or a loop operation (16 and up).
 */
final class UringLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final long SCAN_NANOS = 100_000_000L;
    /** How long a closed connection's last send may take before it is cancelled. */
    private static final long CLOSE_GRACE_NANOS = 10_000_000_000L;
    private static final int OP_WAKE = 16;
    private static final int OP_ACCEPT = 17;
    private static final int RECV_SIZE = 8 * 1024;
    private static final int SEND_SIZE = 32 * 1024;
    private static final int MAX_FREE_BUFFERS = 1024;
    /** The provided buffer ring: buffers shared by the loop's receives (4 MiB of native memory). */
    private static final int RING_BUFFERS = 512;
    private static final int RING_BUFFER_SIZE = 8 * 1024;
    private static final MemorySegment ONE = Arena.global().allocate(JAVA_LONG);

    static {
        ONE.set(JAVA_LONG, 0, 1L);
    }

    final TransportHost host;
    final UringTransport transport;
    final Ring ring;
    final BufferPool inPool = new BufferPool(8 * 1024, 1024);
    final BufferPool outPool = new BufferPool(16 * 1024, 1024);
    final LoopCounters counters;
    final AccessLog.Sampler accessLogSampler;
    /** {@code min-response-rate}, or null. */
    final dev.brisk.internal.transport.DataRate.Limit responseRate;
    private final int eventFd;
    private final MemorySegment wakeBuf = Arena.ofAuto().allocate(JAVA_LONG);
    private final LoopTasks tasks = new LoopTasks();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    /** Guards the eventfd against a write after its close (the number may be reused by then). */
    private final java.util.concurrent.locks.ReentrantLock wakeLock = new java.util.concurrent.locks.ReentrantLock();
    private boolean eventFdClosed;
    private final AtomicInteger load = new AtomicInteger();
    private final ArrayDeque<UringWire> ready = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> freeRecv = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> freeSend = new ArrayDeque<>();
    private final ArrayList<Listener> listeners = new ArrayList<>();
    /** Accepts in the ring over all listeners: each may become a connection, so each holds a slot. */
    private int acceptsInFlight;
    private UringWire[] slots = new UringWire[64];
    private int[] generations = new int[64];
    private int[] freeSlots = new int[64];
    private int freeCount;
    private int used;
    private final LoopThread thread;
    /** The receive buffers shared by this loop's connections, or null (kernel before 5.19). Loop thread. */
    private BufferRing buffers;
    private volatile boolean running = true;
    private long nextScan;
    private long turnStart = System.nanoTime();

    /** Accepts in the ring at once per listener: a burst of connections is taken in one turn, not one a turn. */
    private static final int ACCEPTS = 8;
    /** Free connection slots above which a listener accepts with one multishot accept. */
    private static final int MULTISHOT_ROOM = 64;
    /** The {@code k} of a multishot accept's user data (single accepts are 0 to {@link #ACCEPTS} - 1). */
    private static final int MULTI = 0xff;
    /** Accepted connections that wait for a slot at most (the multishot accept outran the limit). */
    private static final int PARKED_MAX = 1024;
    /** Whether listeners may accept with a multishot accept (a kernel with provided buffer rings, 5.19+). */
    private boolean multishotAccepts;
    /** Connections the multishot accept brought while the limit had no room: {fd, listener index}. */
    private final ArrayDeque<int[]> parked = new ArrayDeque<>();
    /** Where {@code getpeername} writes (loop thread). */
    private final MemorySegment peerBuf = Arena.ofAuto().allocate(136, 8);

    /** A listening socket this loop accepts on, with {@link #ACCEPTS} accepts of its own in flight. */
    private static final class Listener {
        final int fd;
        final ProtocolFactory protocol;
        /** Per accept in flight: the peer's address (128 bytes) then its length (4), written by the kernel. */
        final MemorySegment addrs = Arena.ofAuto().allocate(ACCEPTS * 136L, 8);
        final boolean[] armed = new boolean[ACCEPTS];
        /** The multishot accept is in the ring (until its last completion, without F_MORE). */
        boolean multi;
        /** Its cancellation is submitted. */
        boolean multiCancelled;
        /** Set by whichever thread closes the socket first: it is closed once, never a reused number. */
        final AtomicBoolean closed = new AtomicBoolean();

        Listener(int fd, ProtocolFactory protocol) {
            this.fd = fd;
            this.protocol = protocol;
        }
    }

    UringLoop(TransportHost host, UringTransport transport, int index) throws IOException {
        this.host = host;
        this.transport = transport;
        this.ring = new Ring(4096, true);
        try {
            this.eventFd = Native.eventfd();
        } catch (IOException e) {
            ring.close();
            throw e;
        }
        this.counters = host.newLoopCounters();
        this.accessLogSampler = host.accessLogSampler(false);
        this.responseRate = host.responseRate();
        this.thread = new LoopThread(this, "brisk-uring-" + index, this::execute);
    }

    void start() {
        thread.start();
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    long clock() {
        return turnStart;
    }

    int load() {
        return load.get();
    }

    boolean isRunning() {
        return running;
    }

    /** Runs {@code task} on this loop's thread, soon. Any thread. */
    void execute(Runnable task) {
        tasks.add(task);
        if (Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            wake();
        }
    }

    /** Adds a listening socket to accept on; before {@link #start}. */
    void listen(int fd, ProtocolFactory protocol) {
        listeners.add(new Listener(fd, protocol));
    }

    /** Stops accepting and closes the listening sockets; returns once they are closed (at most 5 s). */
    void stopAccepting() {
        CountDownLatch done = new CountDownLatch(1);
        execute(() -> {
            for (int i = 0; i < listeners.size(); i++) {
                Listener l = listeners.get(i);
                if (l.closed.compareAndSet(false, true)) {
                    for (int k = 0; k < ACCEPTS; k++) {
                        if (l.armed[k]) {
                            cancelAccept(i, k);
                        }
                    }
                    if (l.multi) {
                        cancelAccept(i, MULTI);
                    }
                    Native.close(l.fd);
                }
            }
            closeParked();
            ring.submitAndWait(0); // the cancellation drops the ring's hold on the sockets now
            done.countDown();
        });
        if (!running) {
            closeListeners();
            return;
        }
        await(done);
    }

    private void closeListeners() {
        for (Listener l : listeners) {
            if (l.closed.compareAndSet(false, true)) {
                Native.close(l.fd);
            }
        }
        closeParked();
    }

    /** Connections accepted and never served go with the listeners, as the kernel's backlog would. */
    private void closeParked() {
        int[] p;
        while ((p = parked.poll()) != null) {
            Native.close(p[0]);
        }
    }

    private void cancelAccept(int listener, int k) {
        MemorySegment e = ring.sqe(Ring.OP_ASYNC_CANCEL, -1, 0);
        e.set(JAVA_LONG, 16, acceptData(listener, k));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long acceptData(int listener, int k) {
        return ((long) listener << 16) | ((long) k << 8) | OP_ACCEPT;
    }

    /**
     * Serves what waits for a slot, then arms accepts (see the class's drawing): a multishot accept while
     * the limit has room to spare, else single accepts not in flight, no more in all than the limit has
     * room for (each may become a connection), so the limit holds exactly; at the limit, none, and the
     * next scan tries again.
     */
    private void armAccepts() {
        unpark();
        int free = -1;
        for (int i = 0; i < listeners.size(); i++) {
            Listener l = listeners.get(i);
            if (l.closed.get()) {
                continue;
            }
            if (multishotAccepts) {
                if (free < 0) {
                    free = host.freeConnectionSlots() - acceptsInFlight - parked.size();
                }
                if (l.multi) {
                    if (free <= MULTISHOT_ROOM / 2 && !l.multiCancelled) {
                        cancelAccept(i, MULTI); // single accepts again once its last completion is in
                        l.multiCancelled = true;
                    }
                    continue;
                }
                if (free > MULTISHOT_ROOM && !anyArmed(l)) {
                    MemorySegment e = ring.sqe(Ring.OP_ACCEPT, l.fd, acceptData(i, MULTI));
                    e.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 2, Ring.ACCEPT_MULTISHOT);
                    e.set(JAVA_INT, 28, Native.SOCK_CLOEXEC);
                    l.multi = true;
                    l.multiCancelled = false;
                    continue;
                }
            }
            for (int k = 0; k < ACCEPTS && !l.closed.get(); k++) {
                if (l.armed[k]) {
                    continue;
                }
                if (free < 0) {
                    free = host.freeConnectionSlots() - acceptsInFlight;
                }
                if (free <= 0) {
                    return;
                }
                free--;
                acceptsInFlight++;
                MemorySegment slot = l.addrs.asSlice(k * 136L, 136);
                slot.set(JAVA_INT, 128, 128);
                MemorySegment e = ring.sqe(Ring.OP_ACCEPT, l.fd, acceptData(i, k));
                e.set(JAVA_LONG, 8, slot.address() + 128);
                e.set(JAVA_LONG, 16, slot.address());
                e.set(JAVA_INT, 28, Native.SOCK_CLOEXEC);
                l.armed[k] = true;
            }
        }
    }

    private static boolean anyArmed(Listener l) {
        for (boolean a : l.armed) {
            if (a) {
                return true;
            }
        }
        return false;
    }

    /** Hands waiting connections to loops while the limit has room. */
    private void unpark() {
        while (!parked.isEmpty() && host.freeConnectionSlots() - acceptsInFlight > 0) {
            int[] p = parked.poll();
            host.connectionAccepted();
            hand(p[0], listeners.get(p[1]).protocol, null);
        }
    }

    /** A completion of a listener's multishot accept: a connection, or (no F_MORE) its end. */
    private void onMultishotAccept(int index, int res, int flags) {
        Listener l = listeners.get(index);
        if ((flags & Ring.CQE_F_MORE) == 0) {
            l.multi = false;
            l.multiCancelled = false;
        }
        if (res < 0) {
            if (l.closed.get() || res == -Native.ECANCELED || res == -Native.EAGAIN || res == -103 /* ECONNABORTED */
                    || res == -Native.EINTR) {
                // cancelled, or a connection that went before it was taken
            } else if (res == -22 /* EINVAL */ && (flags & Ring.CQE_F_MORE) == 0) {
                multishotAccepts = false; // a kernel without multishot accepts: single ones from now on
                LOG.log(System.Logger.Level.DEBUG, "io_uring: no multishot accept here; single accepts");
            } else {
                LOG.log(System.Logger.Level.WARNING, "accept failed: " + Native.strerror(-res));
                return; // e.g. too many open files: the next scan tries again
            }
        } else if (host.freeConnectionSlots() - acceptsInFlight > 0) {
            host.connectionAccepted();
            hand(res, l.protocol, null);
        } else if (parked.size() < PARKED_MAX) {
            parked.add(new int[] {res, index});
        } else {
            Native.close(res);
        }
        if (!l.closed.get()) {
            armAccepts(); // re-arms after its end; near the limit, cancels it
        }
    }

    /** Gives an accepted connection to the least-loaded loop; {@code peer} null: that loop asks for it. */
    private void hand(int fd, ProtocolFactory protocol, byte[] peer) {
        UringLoop to = transport.leastLoaded();
        if (to == null) {
            Native.close(fd);
            host.connectionClosed();
        } else {
            to.take(fd, protocol, peer);
        }
    }

    private void onAccept(int index, int k, int res) {
        Listener l = listeners.get(index);
        l.armed[k] = false;
        acceptsInFlight--;
        if (res < 0) {
            if (l.closed.get() || res == -Native.ECANCELED) {
                return;
            }
            if (res != -Native.EAGAIN && res != -103 /* ECONNABORTED */ && res != -Native.EINTR) {
                // e.g. too many open files: back off until the next scan instead of spinning
                LOG.log(System.Logger.Level.WARNING, "accept failed: " + Native.strerror(-res));
                return;
            }
        } else {
            host.connectionAccepted();
            MemorySegment slot = l.addrs.asSlice(k * 136L, 136);
            int len = Math.min(128, Math.max(0, slot.get(JAVA_INT, 128)));
            byte[] peer = slot.asSlice(0, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            hand(res, l.protocol, peer);
        }
        if (!l.closed.get()) {
            armAccepts();
        }
    }

    /** Takes ownership of an accepted socket, to start with {@code protocol}. Any thread. */
    void take(int fd, ProtocolFactory protocol, byte[] peer) {
        load.incrementAndGet();
        if (inLoop()) {
            register(fd, protocol, peer);
        } else {
            execute(() -> register(fd, protocol, peer));
        }
    }

    private void register(int fd, ProtocolFactory protocol, byte[] peer) {
        if (!running) {
            Native.close(fd);
            load.decrementAndGet();
            host.connectionClosed();
            return;
        }
        if (peer == null) {
            peer = Native.peerName(fd, peerBuf);
        }
        int slot = allocSlot();
        UringWire w = new UringWire(this, fd, slot, ++generations[slot], peer);
        try {
            w.protocol(protocol.open(w));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "a new connection could not be set up; closed", e);
            freeSlots[freeCount++] = slot;
            used--;
            Native.close(fd);
            load.decrementAndGet();
            host.connectionClosed();
            return;
        }
        slots[slot] = w;
        w.open();
    }

    private int allocSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (used == slots.length) {
            int n = slots.length * 2;
            slots = java.util.Arrays.copyOf(slots, n);
            generations = java.util.Arrays.copyOf(generations, n);
            freeSlots = java.util.Arrays.copyOf(freeSlots, n);
        }
        return used++;
    }

    /** Called by a wire as it closes (its socket's close may still be under way). */
    void closed(UringWire w) {
        load.decrementAndGet();
        host.connectionClosed();
    }

    /**
     * A wire's socket is closed and no completion for it is outstanding: its slot and buffers are free
     * ({@code w} null: only the buffers given, which no submission refers to any more).
     */
    void release(UringWire w, MemorySegment recv, MemorySegment send) {
        if (w != null && slots[w.slot] == w) {
            slots[w.slot] = null;
            freeSlots[freeCount++] = w.slot;
        }
        if (recv != null && freeRecv.size() < MAX_FREE_BUFFERS) {
            freeRecv.add(recv);
        }
        if (send != null && freeSend.size() < MAX_FREE_BUFFERS) {
            freeSend.add(send);
        }
    }

    /** The loop's provided buffer ring, or null when the kernel has none. Loop thread. */
    BufferRing buffers() {
        return buffers;
    }

    MemorySegment recvBuffer() {
        MemorySegment b = freeRecv.poll();
        return b != null ? b : Arena.ofAuto().allocate(RECV_SIZE, 64);
    }

    MemorySegment sendBuffer() {
        MemorySegment b = freeSend.poll();
        return b != null ? b : Arena.ofAuto().allocate(SEND_SIZE, 64);
    }

    /** A wire whose interest changed: its events are offered at the end of this turn. */
    void queue(UringWire w) {
        if (!w.queued) {
            w.queued = true;
            ready.add(w);
        }
    }

    /** Graceful shutdown: closes idle connections now, the others after their current work. */
    void drain() {
        execute(() -> {
            for (UringWire w : openWires()) {
                w.protocol.drain();
            }
        });
    }

    /** Frees the ring and the eventfd of a loop that never started (its transport failed to open). */
    void closeUnstarted() {
        running = false;
        closeEventFd();
        ring.close();
    }

    private void wake() {
        wakeLock.lock();
        try {
            if (!eventFdClosed) {
                Native.write(eventFd, ONE, 8);
            }
        } finally {
            wakeLock.unlock();
        }
    }

    private void closeEventFd() {
        wakeLock.lock();
        try {
            if (!eventFdClosed) {
                eventFdClosed = true;
                Native.close(eventFd);
            }
        } finally {
            wakeLock.unlock();
        }
    }

    void stop() {
        running = false;
        wake();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ArrayList<UringWire> openWires() {
        ArrayList<UringWire> open = new ArrayList<>();
        for (int i = 0; i < used; i++) {
            UringWire w = slots[i];
            if (w != null && !w.protocol.isClosed()) {
                open.add(w);
            }
        }
        return open;
    }

    private void armWake() {
        MemorySegment e = ring.sqe(Ring.OP_READ, eventFd, OP_WAKE);
        e.set(JAVA_LONG, 16, wakeBuf.address());
        e.set(JAVA_INT, 24, 8);
    }

    @Override
    public void run() {
        try {
            ring.enable(); // this thread is the ring's one submitter from now on
            buffers = BufferRing.register(ring.fd(), RING_BUFFERS, RING_BUFFER_SIZE);
            // multishot accepts came in 5.19 with the provided buffer rings; a kernel without them says
            // EINVAL at the first, and singles take over
            multishotAccepts = buffers != null && !Boolean.getBoolean("brisk.uring.singleAccepts");
            if (buffers == null) {
                LOG.log(System.Logger.Level.DEBUG, "io_uring: no provided buffer rings (kernel before 5.19): "
                        + "a receive buffer per connection");
            }
            armWake();
            armAccepts();
            nextScan = System.nanoTime() + SCAN_NANOS;
            while (running) {
                wakeupPending.set(false);
                long wait = tasks.isEmpty() && ready.isEmpty() ? Math.max(1, nextScan - System.nanoTime()) : 0;
                ring.submitAndWait(wait);
                turnStart = System.nanoTime();
                completions();
                runTasks();
                runReady();
                long now = turnStart;
                if (now - nextScan >= 0) {
                    nextScan = now + SCAN_NANOS;
                    scan(now);
                    thread.scanned();
                }
                thread.endTurn(); // the handlers this turn dispatched start now, together
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.ERROR, "io_uring loop failed; its connections are closed", t);
        } finally {
            running = false;
            shutdown();
        }
    }

    private void completions() {
        int n;
        while ((n = ring.ready()) > 0) {
            for (int i = 0; i < n; i++) {
                long ud = ring.userData(i);
                int res = ring.result(i);
                int op = (int) (ud & 0xff);
                if (op < OP_WAKE) {
                    int slot = (int) ((ud >>> 8) & 0xffffff);
                    UringWire w = slot < used ? slots[slot] : null;
                    int flags = ring.flags(i);
                    if (w != null && w.generation == (int) (ud >>> 32)) {
                        try {
                            w.complete(op, res, flags);
                        } catch (Throwable t) {
                            LOG.log(System.Logger.Level.ERROR, "connection failed", t);
                            w.protocol.close();
                        }
                    } else if ((flags & Ring.CQE_F_BUFFER) != 0 && buffers != null) {
                        buffers.taken();
                        buffers.recycle(flags >>> 16); // nobody to read it: back to the ring
                    }
                } else if (op == OP_WAKE) {
                    if (running) {
                        armWake();
                    }
                } else if (op == OP_ACCEPT) {
                    int k = (int) ((ud >>> 8) & 0xff);
                    if (k == MULTI) {
                        onMultishotAccept((int) (ud >>> 16), res, ring.flags(i));
                    } else {
                        onAccept((int) (ud >>> 16), k, res);
                    }
                }
            }
            ring.advance(n);
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

    private void runReady() {
        UringWire w;
        int budget = ready.size();
        while (budget-- > 0 && (w = ready.poll()) != null) {
            w.queued = false;
            try {
                w.runReady();
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.ERROR, "connection failed", t);
                w.protocol.close();
            }
        }
    }

    private void scan(long now) {
        for (int i = 0; i < used; i++) {
            UringWire w = slots[i];
            if (w == null) {
                continue;
            }
            if (w.sendTooSlow(now)) {
                counters.slowResponse();
                w.discardUnsent();
                w.protocol.tooSlow();
                w.abandonSend(); // its bytes are not waited for: the client is too slow for them
            } else if (!w.protocol.isClosed()) {
                w.protocol.onTimer(now);
            } else if (w.sendPending() && now - w.closingSince > CLOSE_GRACE_NANOS) {
                w.abandonSend();
            }
        }
        armAccepts();
    }

    /** Closes every connection, lets the ring finish with their memory (at most 1 s), then the ring. */
    private void shutdown() {
        runTasks();
        thread.endTurn();
        closeListeners();
        for (UringWire w : openWires()) {
            try {
                w.protocol.close();
            } catch (Throwable t) {
                w.close();
            }
        }
        long deadline = System.nanoTime() + 1_000_000_000L;
        try {
            for (UringWire w : slots) {
                if (w != null) {
                    w.abandonSend();
                }
            }
            while (System.nanoTime() - deadline < 0 && anySlotUsed()) {
                ring.submitAndWait(10_000_000L);
                completions();
            }
        } catch (Throwable t) {
            LOG.log(System.Logger.Level.WARNING, "io_uring loop: closing connections failed: " + t);
        }
        for (UringWire w : slots) {
            if (w != null) {
                w.closeNow();
            }
        }
        closeEventFd();
        ring.close();
        if (buffers != null) {
            buffers.close(); // the kernel let go of it with the ring
        }
    }

    private boolean anySlotUsed() {
        for (int i = 0; i < used; i++) {
            if (slots[i] != null) {
                return true;
            }
        }
        return false;
    }
}
