package dev.brisk.internal.ws;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One session's frames on their way out: a queue that any thread appends to ({@link #offer}) and the
 * wire's loop thread alone writes from ({@link #flush}), gathering several frames per write. A data
 * frame's future completes once the socket took its last byte.
 *
 * <p>Bounds: the bytes queued and not yet taken are at most {@code limit} per session (one frame may
 * always go out when nothing waits) and are reserved from the server's {@link MemoryBudget}; an offer
 * past either is refused, and the caller closes the session as too slow a receiver. Once the last
 * frame (a close) is queued, nothing else is taken.
 *
 * <p>Threads: {@link #offer}, {@link #queued} any thread (under the lock); everything else on the loop
 * thread, which is the only one that removes frames, so a write runs outside the lock on frames only
 * it can take away.
 */
final class Outbound {
    static final int OK = 0;
    /** Refused: past the session's limit or the server's memory. */
    static final int LIMIT = 1;
    /** Refused: the session's last frame is already queued. */
    static final int ENDED = 2;

    private static final int GATHER = 16;
    /** Stands for "no future" in the queue (a control frame): the deque takes no nulls. */
    private static final CompletableFuture<Void> NONE = CompletableFuture.completedFuture(null);

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
    /** Parallel to {@link #frames}: a data frame's future, or {@link #NONE} for a control frame. */
    private final ArrayDeque<CompletableFuture<Void>> futures = new ArrayDeque<>();
    private final long limit;
    private final MemoryBudget budget;
    private long queued;
    private boolean ended;
    // loop thread only
    private final ByteBuffer[] gather = new ByteBuffer[GATHER];

    Outbound(long limit, MemoryBudget budget) {
        this.limit = limit;
        this.budget = budget;
    }

    /**
     * Queues {@code frame}; {@code done} (null for a control frame) completes once it is written.
     * {@code last}: the session's last frame (a close), which is never refused for the limits.
     */
    int offer(ByteBuffer frame, CompletableFuture<Void> done, boolean last) {
        int size = frame.remaining();
        lock.lock();
        try {
            if (ended) {
                return ENDED;
            }
            if (!last && queued > 0 && queued + size > limit) {
                return LIMIT;
            }
            if (last) {
                budget.force(size); // a close frame goes out whatever the limits (it is at most 125 bytes)
            } else if (!budget.reserve(size)) {
                return LIMIT;
            }
            if (last) {
                ended = true;
            }
            frames.addLast(frame);
            futures.addLast(done == null ? NONE : done);
            queued += size;
            return OK;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes queued and not yet written. Any thread. */
    long queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is waiting. Loop thread. */
    boolean empty() {
        lock.lock();
        try {
            return frames.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes what the socket takes: true when everything queued is written, false when the socket is full.
     * The futures of the messages written are added to {@code written}, for the caller to complete once
     * the write is over (a completion's callback may send again: it must not run inside this write).
     *
     * @return whether the queue is empty now
     * @throws IOException when the write fails
     */
    boolean flush(Wire wire, List<CompletableFuture<Void>> written) throws IOException {
        for (int round = 0; round < 64; round++) {
            int n = 0;
            lock.lock();
            try {
                for (ByteBuffer b : frames) {
                    gather[n++] = b;
                    if (n == GATHER) {
                        break;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (n == 0) {
                return true;
            }
            long w = wire.write(gather, n);
            if (w > 0) {
                wire.counters().bytesOut(w);
            }
            long bytes = 0;
            lock.lock();
            try {
                while (!frames.isEmpty() && !frames.peekFirst().hasRemaining()) {
                    bytes += frames.pollFirst().limit();
                    CompletableFuture<Void> f = futures.pollFirst();
                    if (f != NONE) {
                        written.add(f);
                    }
                }
                queued -= bytes;
            } finally {
                lock.unlock();
            }
            boolean full = gather[n - 1].hasRemaining(); // writes go in order: the last not done, the socket is full
            java.util.Arrays.fill(gather, 0, n, null);
            budget.release(bytes);
            if (full) {
                return false;
            }
        }
        return empty(); // still more after many rounds: the rest on the next writable event
    }

    /**
     * Drops every frame not yet begun (their futures fail), keeping one in the middle of being written;
     * for a session closed as too slow a receiver, whose close frame must not wait behind them. Loop thread.
     */
    void dropUnstarted() {
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        long dropped = 0;
        lock.lock();
        try {
            ByteBuffer first = frames.peekFirst();
            boolean keepFirst = first != null && first.position() > 0;
            ArrayDeque<ByteBuffer> keptFrames = new ArrayDeque<>();
            ArrayDeque<CompletableFuture<Void>> keptFutures = new ArrayDeque<>();
            if (keepFirst) {
                keptFrames.add(frames.pollFirst());
                keptFutures.add(futures.pollFirst());
            }
            while (!frames.isEmpty()) {
                dropped += frames.pollFirst().remaining();
                CompletableFuture<Void> f = futures.pollFirst();
                if (f != NONE) {
                    failed.add(f);
                }
            }
            frames.addAll(keptFrames);
            futures.addAll(keptFutures);
            queued -= dropped;
        } finally {
            lock.unlock();
        }
        budget.release(dropped);
        fail(failed, "WebSocket session closed: the receiver is too slow");
    }

    /** The session is over: nothing more is taken, queued frames are dropped and their futures fail. Loop thread. */
    void close() {
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        long dropped;
        lock.lock();
        try {
            ended = true;
            for (CompletableFuture<Void> f : futures) {
                if (f != NONE) {
                    failed.add(f);
                }
            }
            frames.clear();
            futures.clear();
            dropped = queued;
            queued = 0;
        } finally {
            lock.unlock();
        }
        budget.release(dropped);
        fail(failed, "WebSocket session closed before the message was sent");
    }

    private static void fail(List<CompletableFuture<Void>> fs, String why) {
        if (!fs.isEmpty()) {
            ClientDisconnectedException e = new ClientDisconnectedException(why);
            for (CompletableFuture<Void> f : fs) {
                f.completeExceptionally(e);
            }
        }
    }
}
