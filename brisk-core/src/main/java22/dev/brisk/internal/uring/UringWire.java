package dev.brisk.internal.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.DataRate;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;

/**
 * A socket on a {@link UringLoop}: the plain {@link Wire} of the io_uring transport. The protocol above
 * sees a readiness wire as on NIO; underneath, completions:
 * <ul>
 * <li>read: with the loop's {@link BufferRing}, one multishot receive that stays armed and completes
 * into the ring's buffers as bytes arrive; the connection holds the buffers in arrival order until
 * {@link #read} has copied them out, then gives each back. It holds at most {@value #MAX_HELD}: at that
 * it cancels the receive and arms it again once read down, so a connection whose protocol does not
 * read takes no more of the ring. A receive that fills a whole buffer means bytes are streaming in (a
 * body): the connection then receives one buffer per submission, as a selector loop reads one buffer
 * per readiness, until a buffer comes back part full (a multishot receive takes up to 32 buffers per
 * pass in the kernel, so a few uploads would hold up every other connection's next request). When the
 * ring is empty ({@code ENOBUFS}) the connection falls back to
 * one receive into a native buffer of its own, so connections that hold ring buffers can slow the
 * others but never stop them. Without a buffer ring (kernel before 5.19) every receive is such a
 * single receive, submitted while the protocol wants bytes and none are held.
 * <li>write: at most one send in flight; {@link #write} copies what fits into the native send buffer,
 * submits it and answers that many bytes written; while a send is in flight it answers 0, and
 * {@link Protocol#onWritable} follows its completion (a short send is resubmitted for the rest first).
 * <li>close: the receive is cancelled, the send (if any) finishes, then the ring closes the socket; the
 * buffers go back to the loop when the last completion for them has come (the send buffer already
 * when its send is done: an idle connection holds only its receive buffer).
 * </ul>
 * The response rate ({@code min-response-rate}) is measured here: while a send is in flight the client
 * is waited on, and each completion tells how many bytes the socket took; the loop's scan asks
 * {@link #sendTooSlow}, and the first scan that finds a send in flight starts the meter.
 * <pre>
 *   OPEN --close()--&gt; CLOSING (cancel recv; wait for the send, at most the loop's close grace)
 *        --no op in flight--&gt; CLOSE SUBMITTED --its completion--&gt; RELEASED (slot and buffers free)
 * </pre>
 *
 * <p>Threads: the loop's, except {@link #execute}, {@link #inLoop} and {@link #remoteAddress}.
 */
final class UringWire implements Wire {
    static final int OP_RECV = 1;
    static final int OP_SEND = 2;
    static final int OP_CLOSE = 3;
    static final int OP_CANCEL = 4;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int ENOBUFS = 105;
    /** Received pieces a connection holds at most before its multishot receive is stopped. */
    static final int MAX_HELD = 2;
    /** A held piece in {@link #recvBuf}, not in a ring buffer. */
    private static final int OWN = -1;

    private final UringLoop loop;
    final int fd;
    /** Slot and generation in the loop's table: the user data of this wire's submissions. */
    final int slot;
    final int generation;
    private final byte[] peer;
    /** The protocol the loop drives; swapped by an upgrade. Loop thread only. */
    Protocol protocol;
    /** This connection's own receive buffer: without a buffer ring, or when the ring was empty. */
    private MemorySegment recvBuf;
    private MemorySegment sendBuf;
    /**
     * Received bytes not yet read, in arrival order: piece {@code i} is {@code heldLens[i]} bytes of ring
     * buffer {@code heldBids[i]} (or of {@link #recvBuf} for {@link #OWN}); the first from {@link #heldOff}.
     */
    private int[] heldBids = new int[MAX_HELD + 2];
    private int[] heldLens = new int[MAX_HELD + 2];
    private int heldCount;
    private int heldOff;
    /** The armed receive is the multishot one (else a single receive, into the ring or {@link #recvBuf}). */
    private boolean multishot;
    /**
     * The last receive filled a whole ring buffer: bytes are streaming in (a body), so each receive takes
     * one buffer, as a selector loop reads one buffer per readiness, until one comes back part full.
     */
    private boolean streaming;
    /** A cancellation of the multishot receive is in flight. */
    private boolean recvStopping;
    /** The ring had no buffer for the last receive from it: the next receive is one into {@link #recvBuf}. */
    private boolean ringEmpty;
    private boolean eof;
    private IOException readError;
    private IOException writeError;
    private boolean recvArmed;
    private boolean sendInFlight;
    private int sendOff;
    private int sendLen;
    private boolean wantRead = true;
    private boolean wantWrite;
    private boolean shutdownPending;
    boolean queued;
    private boolean closed;
    /** When {@link #close} was called, for the loop's grace on a send that does not finish. */
    long closingSince;
    private boolean sendCancelled;
    private boolean closeSubmitted;
    private volatile String remote;
    /** {@code min-response-rate}, or null. */
    private final DataRate.Limit rateLimit;
    /** The response rate: made by the first scan that finds a send in flight (most sends finish at once). */
    private DataRate sendRate;

    UringWire(UringLoop loop, int fd, int slot, int generation, byte[] peer) {
        this.loop = loop;
        this.fd = fd;
        this.slot = slot;
        this.generation = generation;
        this.peer = peer;
        this.rateLimit = loop.responseRate;
    }

    private long userData(int op) {
        return ((long) generation << 32) | ((long) slot << 8) | op;
    }

    /** Submits the first receive. */
    void open() {
        armRecv();
    }

    private void armRecv() {
        if (recvArmed || closed || eof || readError != null) {
            return;
        }
        BufferRing ring = loop.buffers();
        if (ring != null && !ringEmpty) {
            if (heldCount >= MAX_HELD) {
                return; // armed again once read down
            }
            MemorySegment e = loop.ring.sqe(Ring.OP_RECV, fd, userData(OP_RECV));
            e.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 1, Ring.SQE_BUFFER_SELECT);
            if (!streaming) {
                e.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 2, Ring.RECV_MULTISHOT);
            }
            e.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 40, BufferRing.GROUP);
            multishot = !streaming;
            recvArmed = true;
            return;
        }
        if (heldCount > 0) {
            return; // one piece of its own at a time
        }
        if (recvBuf == null) {
            recvBuf = loop.recvBuffer();
        }
        MemorySegment e = loop.ring.sqe(Ring.OP_RECV, fd, userData(OP_RECV));
        e.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, recvBuf.address());
        e.set(java.lang.foreign.ValueLayout.JAVA_INT, 24, (int) recvBuf.byteSize());
        multishot = false;
        recvArmed = true;
    }

    /** Stops the multishot receive (its last completion, without {@code F_MORE}, follows). */
    private void stopRecv() {
        if (recvArmed && multishot && !recvStopping) {
            recvStopping = true;
            MemorySegment e = loop.ring.sqe(Ring.OP_ASYNC_CANCEL, -1, userData(OP_CANCEL));
            e.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, userData(OP_RECV));
        }
    }

    private void hold(int bid, int len) {
        if (heldCount == heldBids.length) {
            heldBids = java.util.Arrays.copyOf(heldBids, heldCount * 2);
            heldLens = java.util.Arrays.copyOf(heldLens, heldCount * 2);
        }
        heldBids[heldCount] = bid;
        heldLens[heldCount] = len;
        heldCount++;
    }

    /** Drops the first held piece, giving its ring buffer back. */
    private void dropFirst() {
        if (heldBids[0] != OWN) {
            loop.buffers().recycle(heldBids[0]);
        } else if (loop.buffers() != null) {
            loop.release(null, recvBuf, null); // a fallback's buffer: the ring serves the next receive
            recvBuf = null;
        }
        heldCount--;
        System.arraycopy(heldBids, 1, heldBids, 0, heldCount);
        System.arraycopy(heldLens, 1, heldLens, 0, heldCount);
        heldOff = 0;
    }

    /** A completion for this wire, on the loop thread. */
    void complete(int op, int res, int flags) {
        switch (op) {
            case OP_RECV -> onRecv(res, flags);
            case OP_SEND -> onSend(res);
            case OP_CLOSE -> release();
            default -> {
                // a cancellation's own completion carries nothing
            }
        }
    }

    private void onRecv(int res, int flags) {
        if (!multishot || (flags & Ring.CQE_F_MORE) == 0) {
            recvArmed = false;
            recvStopping = false;
        }
        int bid = OWN;
        if ((flags & Ring.CQE_F_BUFFER) != 0) {
            bid = flags >>> 16;
            loop.buffers().taken();
        }
        if (closed) {
            if (bid != OWN) {
                loop.buffers().recycle(bid);
            }
            finishClose();
            return;
        }
        if (res > 0) {
            hold(bid, res);
            if (bid == OWN) {
                ringEmpty = false; // try the ring again next time
            } else {
                // a full buffer: more is likely waiting, so one buffer per receive from now on
                streaming = res == loop.buffers().size();
                if (streaming || heldCount >= MAX_HELD) {
                    stopRecv();
                }
            }
        } else {
            if (bid != OWN) {
                loop.buffers().recycle(bid);
            }
            if (res == 0) {
                eof = true;
            } else if (res == -ENOBUFS) {
                ringEmpty = true; // the next receive is one of its own
            } else if (res == -Native.ECANCELED) {
                if (wantRead && !recvArmed) {
                    armRecv();
                }
                return;
            } else {
                readError = Native.error("recv", -res);
            }
        }
        if (wantRead) {
            protocol.onReadable();
            afterReadable();
        }
    }

    /**
     * As a selector does while bytes wait in the socket: a wire still interested and still holding
     * bytes (the protocol read only part of them) is offered them again at the end of the turn.
     */
    private void afterReadable() {
        if (closed || !wantRead) {
            return;
        }
        if (heldCount > 0 || eof || readError != null) {
            loop.queue(this);
        } else {
            armRecv();
        }
    }

    private void onSend(int res) {
        if (res < 0) {
            sendInFlight = false;
            writeError = Native.error("send", -res);
        } else {
            sendOff += res;
            if (sendRate != null && res > 0) {
                sendRate.add(res, loop.clock());
            }
            if (sendOff < sendLen && !sendCancelled) {
                submitSend();
                return;
            }
            sendInFlight = false;
        }
        if (sendRate != null) {
            sendRate.pause(loop.clock()); // nothing waits for the client any more
        }
        // an idle keep-alive connection holds no send buffer
        loop.release(null, null, sendBuf);
        sendBuf = null;
        if (closed) {
            finishClose();
            return;
        }
        if (shutdownPending && writeError == null) {
            shutdownPending = false;
            Native.shutdown(fd, Native.SHUT_WR);
        }
        if (wantWrite) {
            protocol.onWritable();
        }
    }

    private void submitSend() {
        MemorySegment e = loop.ring.sqe(Ring.OP_SEND, fd, userData(OP_SEND));
        e.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, sendBuf.address() + sendOff);
        e.set(java.lang.foreign.ValueLayout.JAVA_INT, 24, sendLen - sendOff);
        e.set(java.lang.foreign.ValueLayout.JAVA_INT, 28, MSG_NOSIGNAL);
        sendInFlight = true;
        if (sendRate != null) {
            sendRate.resume(loop.clock());
        }
    }

    /** Whether the client takes the bytes in flight for it below {@code min-response-rate}. */
    boolean sendTooSlow(long now) {
        if (rateLimit == null || !sendInFlight || closed) {
            return false;
        }
        if (sendRate == null) {
            sendRate = rateLimit.meter();
            sendRate.start(now); // a send has been in flight since at least the last scan
            return false;
        }
        return sendRate.tooSlow(now);
    }

    /** Runs what an interest change asked for, from the loop's ready queue. */
    void runReady() {
        if (closed) {
            return;
        }
        if (wantWrite && !sendInFlight) {
            protocol.onWritable();
        }
        if (!closed && wantRead && (heldCount > 0 || eof || readError != null)) {
            protocol.onReadable();
            afterReadable();
        } else if (!closed && wantRead) {
            armRecv();
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (heldCount == 0) {
            if (readError != null) {
                throw readError;
            }
            if (eof) {
                return -1;
            }
            armRecv();
            return 0;
        }
        int total = 0;
        while (heldCount > 0 && dst.hasRemaining()) {
            MemorySegment src = heldBids[0] == OWN ? recvBuf : loop.buffers().buffer(heldBids[0]);
            int n = Math.min(heldLens[0] - heldOff, dst.remaining());
            if (dst.hasArray()) {
                MemorySegment.copy(src, JAVA_BYTE, heldOff, dst.array(), dst.arrayOffset() + dst.position(), n);
            } else {
                MemorySegment.copy(src, heldOff, MemorySegment.ofBuffer(dst), 0, n);
            }
            dst.position(dst.position() + n);
            heldOff += n;
            total += n;
            if (heldOff == heldLens[0]) {
                dropFirst();
            }
        }
        if (wantRead) {
            armRecv(); // no-op while the multishot receive is armed
        }
        return total;
    }

    @Override
    public long write(ByteBuffer[] srcs, int count) throws IOException {
        if (writeError != null) {
            throw writeError;
        }
        if (closed) {
            throw new IOException("connection closed");
        }
        if (sendInFlight) {
            return 0;
        }
        if (sendBuf == null) {
            sendBuf = loop.sendBuffer();
        }
        int room = (int) sendBuf.byteSize();
        int n = 0;
        for (int i = 0; i < count && n < room; i++) {
            ByteBuffer src = srcs[i];
            int k = Math.min(src.remaining(), room - n);
            if (k == 0) {
                continue;
            }
            if (src.hasArray()) {
                MemorySegment.copy(src.array(), src.arrayOffset() + src.position(), sendBuf, JAVA_BYTE, n, k);
            } else {
                MemorySegment.copy(MemorySegment.ofBuffer(src), 0, sendBuf, n, k);
            }
            src.position(src.position() + k);
            n += k;
        }
        if (n > 0) {
            sendOff = 0;
            sendLen = n;
            submitSend();
        }
        return n;
    }

    @Override
    public boolean transfersFiles() {
        return false; // not yet: a file body goes through write in pieces
    }

    @Override
    public long transfer(FileChannel file, long position, long count) {
        throw new UnsupportedOperationException("the io_uring wire does not transfer files");
    }

    @Override
    public void readInterest(boolean on) {
        if (on == wantRead) {
            return;
        }
        wantRead = on;
        if (on) {
            loop.queue(this);
        }
    }

    @Override
    public void writeInterest(boolean on) {
        if (on == wantWrite) {
            return;
        }
        wantWrite = on;
        if (on && !sendInFlight) {
            loop.queue(this);
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
    public void shutdownOutput() {
        if (sendInFlight) {
            shutdownPending = true; // after the bytes already accepted
        } else if (!closed) {
            Native.shutdown(fd, Native.SHUT_WR);
        }
    }

    @Override
    public void discardUnsent() {
        if (!closed) {
            try {
                Native.lingerZero(fd);
            } catch (IOException ignored) {
                // the peer is gone already: nothing is held for it
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closingSince = loop.clock();
        while (heldCount > 0) {
            dropFirst();
        }
        loop.closed(this);
        if (recvArmed) {
            MemorySegment e = loop.ring.sqe(Ring.OP_ASYNC_CANCEL, -1, userData(OP_CANCEL));
            e.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, userData(OP_RECV));
        }
        finishClose();
    }

    /** A closing wire whose send has not finished within the loop's grace: cancelled, then closed. */
    void abandonSend() {
        if (closed && sendInFlight && !sendCancelled) {
            sendCancelled = true;
            MemorySegment e = loop.ring.sqe(Ring.OP_ASYNC_CANCEL, -1, userData(OP_CANCEL));
            e.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, userData(OP_SEND));
        }
    }

    boolean sendPending() {
        return sendInFlight;
    }

    private void finishClose() {
        if (closeSubmitted || recvArmed || sendInFlight) {
            return;
        }
        closeSubmitted = true;
        loop.ring.sqe(Ring.OP_CLOSE, fd, userData(OP_CLOSE));
    }

    private void release() {
        loop.release(this, recvBuf, sendBuf);
        recvBuf = null;
        sendBuf = null;
    }

    /** For a loop that stops: closes the socket at once, its ring going away with everything in it. */
    void closeNow() {
        if (!closeSubmitted) {
            closeSubmitted = true;
            Native.close(fd);
        }
    }

    boolean released() {
        return closeSubmitted && !recvArmed && !sendInFlight;
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
        throw new IllegalStateException("an I/O loop cannot wait for its own connection");
    }

    @Override
    public String remoteAddress() {
        String r = remote;
        if (r == null) {
            r = SocketAddresses.describe(peer);
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
