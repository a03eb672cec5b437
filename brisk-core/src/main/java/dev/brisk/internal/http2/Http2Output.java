package dev.brisk.internal.http2;

import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connection's outgoing frames, in order: small frames and frame headers are written into pooled
 * buffers; a {@code DATA} payload taken from a response body goes out as a view of the body's own
 * bytes, gathered into the same socket write. Nothing is written until {@link #flush}, so the frames
 * of a burst of events leave in one write. {@link #pending} tells the connection how much waits: it
 * makes more {@code DATA} only below a high-water mark, so a client that does not read makes the
 * server hold a bounded amount.
 *
 * <p>Loop thread only. Owns the pooled buffers; a body view is only read.
 */
final class Http2Output {
    private static final int MAX_GATHER = 32;

    private final Wire wire;
    private final BufferPool pool;
    // the queue: buffers in read mode, oldest first; pooled[i] says whether entries[i] goes back to the pool
    private ByteBuffer[] entries = new ByteBuffer[16];
    private boolean[] pooled = new boolean[16];
    private int head;
    private int count;
    /** The pooled buffer frames are being written into (write mode), or null. */
    private ByteBuffer fill;
    private long pending;
    private final ByteBuffer[] gather = new ByteBuffer[MAX_GATHER];
    /** When the write in progress last made progress (0: nothing waits for the socket). */
    private long stalledSince;
    private boolean closed;

    Http2Output(Wire wire) {
        this.wire = wire;
        this.pool = wire.outPool();
    }

    /** Bytes queued and not yet taken by the socket. */
    long pending() {
        return pending;
    }

    /** Whether the socket has taken nothing for {@code timeoutNanos} of a write in progress. */
    boolean stalled(long now, long timeoutNanos) {
        return stalledSince != 0 && now - stalledSince > timeoutNanos;
    }

    /** A buffer with {@code n} bytes free (at most the pool's buffer size) for frames, in write mode. */
    ByteBuffer room(int n) {
        if (fill != null && fill.remaining() >= n) {
            return fill;
        }
        seal();
        fill = pool.acquire();
        return fill;
    }

    /** The largest frame payload that fits one pooled buffer with its header. */
    int maxInline() {
        return pool.bufferSize() - H2.FRAME_HEADER;
    }

    /** Writes a frame header into {@code b}. */
    static void header(ByteBuffer b, int length, int type, int flags, int stream) {
        b.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length)
                .put((byte) type).put((byte) flags).putInt(stream);
    }

    /** Appends {@code view} (read mode, not pooled) after everything before it. */
    void append(ByteBuffer view) {
        seal();
        add(view, false);
    }

    private void seal() {
        if (fill != null) {
            ByteBuffer f = fill;
            fill = null;
            if (f.position() == 0) {
                pool.release(f);
            } else {
                add(f.flip(), true);
            }
        }
    }

    private void add(ByteBuffer b, boolean fromPool) {
        if (count == entries.length) {
            int n = entries.length;
            ByteBuffer[] ne = new ByteBuffer[n * 2];
            boolean[] np = new boolean[n * 2];
            for (int i = 0; i < count; i++) {
                ne[i] = entries[(head + i) % n];
                np[i] = pooled[(head + i) % n];
            }
            entries = ne;
            pooled = np;
            head = 0;
        }
        int slot = (head + count) % entries.length;
        entries[slot] = b;
        pooled[slot] = fromPool;
        count++;
        pending += b.remaining();
    }

    /**
     * Writes what is queued, as much as the socket takes. False when the write failed (the
     * connection must close); bytes left over wait for {@code onWritable}.
     */
    boolean flush() {
        if (closed) {
            return false;
        }
        seal();
        while (count > 0) {
            int n = Math.min(count, MAX_GATHER);
            for (int i = 0; i < n; i++) {
                gather[i] = entries[(head + i) % entries.length];
            }
            long written;
            try {
                written = wire.write(gather, n);
            } catch (IOException e) {
                java.util.Arrays.fill(gather, null);
                return false;
            }
            java.util.Arrays.fill(gather, 0, n, null);
            if (written > 0) {
                wire.counters().bytesOut(written);
                pending -= written;
                stalledSince = 0;
            }
            int before = count;
            while (count > 0 && !entries[head].hasRemaining()) {
                if (pooled[head]) {
                    pool.release(entries[head]);
                }
                entries[head] = null;
                head = (head + 1) % entries.length;
                count--;
            }
            if (count > 0 && before - count < n) {
                break; // the socket took less than offered: it is full
            }
        }
        if (count > 0) {
            if (stalledSince == 0) {
                stalledSince = wire.clock();
            }
            wire.writeInterest(true);
        } else {
            stalledSince = 0;
            wire.writeInterest(false);
        }
        return true;
    }

    /** The connection closed: pooled buffers go back, nothing more is written. */
    void close() {
        closed = true;
        if (fill != null) {
            pool.release(fill);
            fill = null;
        }
        while (count > 0) {
            if (pooled[head]) {
                pool.release(entries[head]);
            }
            entries[head] = null;
            head = (head + 1) % entries.length;
            count--;
        }
        pending = 0;
    }
}
