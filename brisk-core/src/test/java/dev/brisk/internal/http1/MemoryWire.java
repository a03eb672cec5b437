package dev.brisk.internal.http1;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/**
 * A {@link Wire} in memory, for driving a protocol without sockets: the test feeds the bytes a peer
 * would send, steps the loop (tasks, readiness, timers) on its own thread, and reads what was written.
 * The "socket" takes at most {@link #writeBudget} bytes per write call, to act out a full send buffer.
 */
public final class MemoryWire implements Wire {
    final ServerStats stats = new ServerStats();
    private final LoopCounters counters = stats.newLoop();
    private final BufferPool inPool = new BufferPool(8 * 1024, 16);
    private final BufferPool outPool = new BufferPool(16 * 1024, 16);
    private final ArrayDeque<byte[]> inbound = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final Thread loopThread = Thread.currentThread();
    private final boolean blocking;
    Protocol protocol;
    boolean readInterest = true;
    boolean writeInterest;
    boolean inputEnded;
    boolean outputShut;
    public boolean closed;
    long now = 1_000_000_000L;
    long deadline;
    boolean hasDeadline;
    int writeCalls;
    /** Runs once, at the start of the next {@link #read}, with the buffer read into. */
    public java.util.function.Consumer<ByteBuffer> onRead;
    long writeBudget = Long.MAX_VALUE;
    /** Whether a file body may be {@link #transfer transferred} (else it is pumped through {@link #write}). */
    boolean transfersFiles = true;
    int transferCalls;
    /** What the "socket" still takes from {@link #transfer} this turn: {@link #writeBudget} at each turn. */
    private long transferRoom = Long.MAX_VALUE;

    public MemoryWire(boolean blocking) {
        this.blocking = blocking;
    }

    /** The peer sends {@code s} (ISO-8859-1). */
    MemoryWire feed(String s) {
        inbound.add(s.getBytes(StandardCharsets.ISO_8859_1));
        return this;
    }

    /** How many of the peer's {@link #feed}s are not read yet (whole or in part). */
    int unreadFeeds() {
        return inbound.size();
    }

    /** The peer half-closes. */
    MemoryWire endInput() {
        inputEnded = true;
        return this;
    }

    /** One loop turn: tasks, then readiness as a selector would report it. */
    void turn() {
        transferRoom = writeBudget;
        runTasks();
        if (closed) {
            return;
        }
        if (writeInterest) {
            protocol.onWritable();
        }
        if (!closed && readInterest && (!inbound.isEmpty() || inputEnded)) {
            protocol.onReadable();
        }
        runTasks();
    }

    /** Turns the loop until {@code done} holds, for at most five seconds of real time. */
    void turnUntil(BooleanSupplier done) {
        long end = System.nanoTime() + 5_000_000_000L;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("the condition did not hold within 5 s; written so far:\n" + output());
            }
            turn();
            Thread.onSpinWait();
        }
    }

    void runTasks() {
        Runnable t;
        while ((t = tasks.poll()) != null) {
            t.run();
        }
    }

    /** Moves the clock on and lets the protocol check its deadlines. */
    void advanceClock(long nanos) {
        now += nanos;
        protocol.onTimer(now);
    }

    /** Everything written so far (ISO-8859-1). */
    String output() {
        return written.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public int read(ByteBuffer dst) {
        java.util.function.Consumer<ByteBuffer> hook = onRead;
        if (hook != null) {
            onRead = null;
            hook.accept(dst); // what happens while the read waits for the peer
        }
        byte[] next = inbound.peek();
        if (next == null) {
            return inputEnded ? -1 : 0;
        }
        int n = Math.min(dst.remaining(), next.length);
        dst.put(next, 0, n);
        inbound.poll();
        if (n < next.length) {
            inbound.addFirst(java.util.Arrays.copyOfRange(next, n, next.length));
        }
        return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int count) {
        writeCalls++;
        long budget = writeBudget;
        long total = 0;
        for (int i = 0; i < count && budget > 0; i++) {
            ByteBuffer b = srcs[i];
            int n = (int) Math.min(b.remaining(), budget);
            byte[] chunk = new byte[n];
            b.get(chunk);
            written.writeBytes(chunk);
            budget -= n;
            total += n;
        }
        return total;
    }

    @Override
    public boolean transfersFiles() {
        return transfersFiles;
    }

    @Override
    public long transfer(java.nio.channels.FileChannel file, long position, long count) throws java.io.IOException {
        transferCalls++;
        int n = (int) Math.min(Math.min(count, transferRoom), 1 << 20);
        if (n == 0) {
            return 0; // full until the next turn
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        int r = file.read(b, position);
        if (r <= 0) {
            return 0;
        }
        written.write(b.array(), 0, r);
        transferRoom -= r;
        return r;
    }

    @Override
    public void readInterest(boolean on) {
        readInterest = on;
    }

    @Override
    public void writeInterest(boolean on) {
        writeInterest = on;
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
    public void shutdownOutput() {
        outputShut = true;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public long clock() {
        return now;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == loopThread;
    }

    @Override
    public boolean blocking() {
        return blocking;
    }

    /** A blocking loop's handler waits for {@code f}: the loop turns meanwhile, for five seconds at most. */
    @Override
    public void runUntil(CompletableFuture<?> f) {
        if (!blocking) {
            throw new IllegalStateException("not a blocking loop");
        }
        long end = System.nanoTime() + 5_000_000_000L;
        while (!f.isDone() && !closed && System.nanoTime() - end < 0) {
            turn();
            Thread.onSpinWait();
        }
    }

    @Override
    public String remoteAddress() {
        return "memory:1";
    }

    @Override
    public void protocol(Protocol next) {
        protocol = next;
    }

    @Override
    public BufferPool inPool() {
        return inPool;
    }

    @Override
    public BufferPool outPool() {
        return outPool;
    }

    @Override
    public LoopCounters counters() {
        return counters;
    }

    @Override
    public AccessLog.Sampler accessLogSampler() {
        return null;
    }
}
