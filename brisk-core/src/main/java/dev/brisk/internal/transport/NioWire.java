package dev.brisk.internal.transport;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * A non-blocking socket on an {@link IoLoop}: the plain {@link Wire} of the NIO transport. Readiness
 * comes from the loop's selector; interest is the selection key's, changed only when it differs.
 * Deadlines need no bookkeeping here: the loop offers every connection a timer check each 100 ms.
 * The response rate ({@code min-response-rate}) is measured here, on the socket: while write interest
 * is on (the socket did not take everything), the bytes each write takes; the loop's scan asks
 * {@link #sendTooSlow}.
 *
 * <p>Threads: the loop's, except {@link #execute}, {@link #inLoop} and {@link #remoteAddress}.
 */
final class NioWire implements Wire {
    private final IoLoop loop;
    private final SocketChannel ch;
    private final SelectionKey key;
    /** The protocol the loop drives; swapped by an upgrade. Loop thread only. */
    Protocol protocol;
    private int interest = SelectionKey.OP_READ;
    private boolean closed;
    private volatile String remote;
    /** {@code min-response-rate}, or null. */
    private final DataRate.Limit rateLimit;
    /** The response rate: made when the socket first holds bytes back (most connections never wait). */
    private DataRate sendRate;

    NioWire(IoLoop loop, SocketChannel ch, SelectionKey key) {
        this.loop = loop;
        this.ch = ch;
        this.key = key;
        this.rateLimit = loop.responseRate;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return ch.read(dst);
    }

    @Override
    public long write(ByteBuffer[] srcs, int count) throws IOException {
        long n = count == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, count);
        if (sendRate != null && n > 0) {
            sendRate.add(n, loop.clock());
        }
        return n;
    }

    @Override
    public boolean transfersFiles() {
        return true;
    }

    /**
     * sendfile(2) on Linux: no copy through the heap. On a cold page cache the call waits for the disk,
     * for at most what the socket's send buffer takes in one call; the {@code Output} above also bounds
     * how much one loop turn sends.
     */
    @Override
    public long transfer(FileChannel file, long position, long count) throws IOException {
        long n = file.transferTo(position, count, ch);
        if (sendRate != null && n > 0) {
            sendRate.add(n, loop.clock());
        }
        return n;
    }

    @Override
    public void readInterest(boolean on) {
        interest(on ? interest | SelectionKey.OP_READ : interest & ~SelectionKey.OP_READ);
    }

    @Override
    public void writeInterest(boolean on) {
        if (on && sendRate == null && rateLimit != null) {
            sendRate = rateLimit.meter(); // resumed below: it starts now
        }
        if (sendRate != null) {
            if (on) {
                sendRate.resume(loop.clock()); // bytes wait for the client: its time counts
            } else {
                sendRate.pause(loop.clock());
            }
        }
        interest(on ? interest | SelectionKey.OP_WRITE : interest & ~SelectionKey.OP_WRITE);
    }

    /** Whether the client takes the bytes the socket holds for it below {@code min-response-rate}. */
    boolean sendTooSlow(long now) {
        return sendRate != null && sendRate.tooSlow(now);
    }

    private void interest(int ops) {
        if (ops != interest && !closed) {
            interest = ops;
            if (key.isValid()) {
                key.interestOps(ops);
            }
        }
    }

    @Override
    public void deadline(long at) {
        // the loop's scan checks every connection's deadlines anyway
    }

    @Override
    public void noDeadline() {
        // as above
    }

    @Override
    public void shutdownOutput() throws IOException {
        ch.shutdownOutput();
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
        key.cancel();
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        loop.closed(this);
    }

    @Override
    public long clock() {
        return loop.clock();
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public boolean inLoop() {
        return loop.inLoop();
    }

    @Override
    public boolean blocking() {
        return false;
    }

    @Override
    public void runUntil(CompletableFuture<?> f) {
        // handlers never run here long enough to wait: a deferred body's handler goes to a virtual thread
        throw new IllegalStateException("an I/O loop cannot wait for its own connection");
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
        return loop.inPool;
    }

    @Override
    public BufferPool outPool() {
        return loop.outPool;
    }

    @Override
    public LoopCounters counters() {
        return loop.counters;
    }

    @Override
    public AccessLog.Sampler accessLogSampler() {
        return loop.accessLogSampler;
    }
}
