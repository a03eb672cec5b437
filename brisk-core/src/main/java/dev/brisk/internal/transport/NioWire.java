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

    NioWire(IoLoop loop, SocketChannel ch, SelectionKey key) {
        this.loop = loop;
        this.ch = ch;
        this.key = key;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return ch.read(dst);
    }

    @Override
    public long write(ByteBuffer[] srcs, int count) throws IOException {
        return count == 1 ? ch.write(srcs[0]) : ch.write(srcs, 0, count);
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
        return file.transferTo(position, count, ch);
    }

    @Override
    public void readInterest(boolean on) {
        interest(on ? interest | SelectionKey.OP_READ : interest & ~SelectionKey.OP_READ);
    }

    @Override
    public void writeInterest(boolean on) {
        interest(on ? interest | SelectionKey.OP_WRITE : interest & ~SelectionKey.OP_WRITE);
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
