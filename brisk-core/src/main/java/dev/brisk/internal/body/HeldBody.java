package dev.brisk.internal.body;

import dev.brisk.internal.web.BodyUnavailableException;
import dev.brisk.internal.web.RequestBody;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A buffered request body in memory, every byte of it counted against the memory budget as the heap
 * holds it ({@link BodyStore#arrayCost}: a humongous array counts its whole regions).
 *
 * <p>Growth: a declared length gets one array of exactly that length, reserved in full before any of
 * the body is read and allocated when its first byte arrives. A chunked body grows by segments, each
 * reserved as it is allocated and about as large as the body so far (8 KiB first, 256 KiB at most, so
 * that no segment is humongous on any G1 heap): nothing is copied while it grows, and only the last
 * segment's tail is unused. {@link #bytes} returns a single full array as it is, and otherwise
 * assembles one array once (reserving it first, then giving the segments back).
 *
 * <p>Threads: {@link #append} on the connection's loop before the body is handed over; then the
 * {@link RequestBody} contract.
 */
final class HeldBody implements RequestBody {
    static final int FIRST_SEGMENT = 8 * 1024;
    static final int MAX_SEGMENT = 256 * 1024;
    private static final byte[] EMPTY = new byte[0];

    private final BodyStore store;
    private final ByteBudget budget;
    /** The declared length, or -1 for a chunked body. */
    private final long declared;
    /** Guarded by this (a lock, not an AtomicInteger: one object less per body on the common path). */
    private int holders = 1;
    /** The segments: the first alone in its field (most bodies have one), the others in {@link #rest}. */
    private byte[] first;
    private byte[][] rest;
    private int count;
    /** Bytes used in the last segment. */
    private int lastUsed;
    private long size;
    /** What this body holds of the budget. */
    private long reserved;
    private byte[] whole;

    /**
     * @param store    where the memory budget and its costs come from
     * @param declared the declared length; -1 for a chunked body, which reserves as it grows
     * @param reserved what the caller has already reserved for a declared body (its array's cost); 0
     *     when chunked
     */
    HeldBody(BodyStore store, long declared, long reserved) {
        this.store = store;
        this.budget = store.memory();
        this.declared = declared;
        this.reserved = reserved;
    }

    private byte[] segment(int i) {
        return i == 0 ? first : rest[i - 1];
    }

    /**
     * Appends {@code b[off..off+len)}; false when the budget cannot take the memory it needs, or the
     * heap cannot give it ({@link BodyStore#newArray}).
     */
    boolean append(byte[] b, int off, int len) {
        while (len > 0) {
            if (count == 0 || lastUsed == segment(count - 1).length) {
                if (!grow()) {
                    return false;
                }
            }
            byte[] seg = segment(count - 1);
            int n = Math.min(len, seg.length - lastUsed);
            System.arraycopy(b, off, seg, lastUsed, n);
            lastUsed += n;
            size += n;
            off += n;
            len -= n;
        }
        return true;
    }

    private boolean grow() {
        int capacity;
        if (declared >= 0) {
            capacity = (int) (declared - size); // the first byte: the whole declared body, reserved already
        } else {
            capacity = (int) Math.min(MAX_SEGMENT, Math.max(FIRST_SEGMENT, size));
            long cost = store.arrayCost(capacity);
            if (!budget.tryReserve(cost)) {
                return false;
            }
            reserved += cost;
        }
        byte[] seg = BodyStore.newArray(capacity);
        if (seg == null) {
            if (declared < 0) {
                long cost = store.arrayCost(capacity);
                budget.release(cost);
                reserved -= cost;
            }
            return false; // refused as a spent budget; a declared body's reservation goes with the body
        }
        if (count == 0) {
            first = seg;
        } else {
            if (rest == null) {
                rest = new byte[4][];
            } else if (count - 1 == rest.length) {
                rest = Arrays.copyOf(rest, rest.length * 2);
            }
            rest[count - 1] = seg;
        }
        count++;
        lastUsed = 0;
        return true;
    }

    long size() {
        return size;
    }

    /** Writes every byte held to {@code out}; false when its disk budget is spent. */
    boolean copyTo(SpooledBody out) throws IOException {
        for (int i = 0; i < count; i++) {
            byte[] seg = segment(i);
            if (!out.append(seg, 0, i == count - 1 ? lastUsed : seg.length)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long length() {
        return size;
    }

    @Override
    public byte[] bytes() {
        byte[] w = whole;
        if (w != null) {
            return w;
        }
        if (count == 0) {
            w = EMPTY;
        } else if (count == 1 && lastUsed == first.length) {
            w = first;
        } else {
            long cost = store.arrayCost(size);
            if (!budget.tryReserve(cost)) {
                throw new BodyUnavailableException("Service Unavailable: no request-body memory free to assemble "
                        + "the body, retry shortly");
            }
            w = BodyStore.newArray(size);
            if (w == null) {
                budget.release(cost);
                throw new BodyUnavailableException("Service Unavailable: no request-body memory free to assemble "
                        + "the body, retry shortly");
            }
            int at = 0;
            for (int i = 0; i < count; i++) {
                byte[] seg = segment(i);
                int n = i == count - 1 ? lastUsed : seg.length;
                System.arraycopy(seg, 0, w, at, n);
                at += n;
            }
            budget.release(reserved); // the segments go: the array alone is held from now on
            reserved = cost;
            first = w;
            rest = null;
            count = 1;
            lastUsed = w.length;
        }
        whole = w;
        return w;
    }

    @Override
    public InputStream stream() {
        byte[] w = whole;
        if (w != null) {
            return new ByteArrayInputStream(w);
        }
        if (count <= 1) {
            return count == 0 ? new ByteArrayInputStream(EMPTY) : new ByteArrayInputStream(first, 0, lastUsed);
        }
        byte[][] all = new byte[count][];
        for (int i = 0; i < count; i++) {
            all[i] = segment(i);
        }
        return new SegmentStream(all, count, lastUsed);
    }

    @Override
    public synchronized boolean retain() {
        if (holders == 0) {
            return false;
        }
        holders++;
        return true;
    }

    @Override
    public synchronized void release() {
        if (holders > 0 && --holders == 0) {
            budget.release(reserved);
            reserved = 0;
            first = null;
            rest = null;
            whole = null;
            count = 0;
        }
    }

    /** Reads over the segments in order, without joining them. One reader's thread. */
    private static final class SegmentStream extends InputStream {
        private final byte[][] segments;
        private final int count;
        private final int lastUsed;
        private int seg;
        private int pos;

        SegmentStream(byte[][] segments, int count, int lastUsed) {
            this.segments = segments;
            this.count = count;
            this.lastUsed = lastUsed;
        }

        private int end(int i) {
            return i == count - 1 ? lastUsed : segments[i].length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            while (seg < count && pos == end(seg)) {
                seg++;
                pos = 0;
            }
            if (seg == count) {
                return -1;
            }
            int n = Math.min(len, end(seg) - pos);
            System.arraycopy(segments[seg], pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
