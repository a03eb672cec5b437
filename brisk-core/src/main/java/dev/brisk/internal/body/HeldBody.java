package dev.brisk.internal.body;

import dev.brisk.internal.web.BodyUnavailableException;
import dev.brisk.internal.web.RequestBody;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A buffered request body in memory, every byte of it counted against the memory budget as it is held
 * ({@link BodyStore#heldCost}).
 *
 * <p>Where the bytes go: a declared body that is small (at most {@link #FIRST_SEGMENT}) or humongous
 * gets one heap array of exactly its length, reserved in full before any of the body is read and
 * allocated when its first byte arrives; {@link #bytes} then hands that array out as it is. A declared
 * body in between goes to off-heap slabs ({@link BodySlabs}), reserved in full up front too, so that a
 * slow one does not make every young collection copy it. A chunked body starts in a heap array of
 * {@link #FIRST_SEGMENT} and goes on in slabs, each reserved as it is taken. Nothing is copied while a
 * body grows, and only the last slab's tail is unused. Where direct memory gives no slab, a heap array
 * of a slab's size stands in for it.
 *
 * <p>{@link #bytes} of a body in slabs assembles one heap array once: the body's reservation carries
 * over to it (reserving only what the array costs beyond it, a humongous one's regions), and the slabs
 * go back to the pool. {@link #stream} reads the slabs where they are, under this body's lock, and fails
 * once the body is released: a slab may by then hold another request's bytes.
 *
 * <p>Threads: {@link #append} on the connection's loop before the body is handed over; then the
 * {@link RequestBody} contract.
 */
final class HeldBody implements RequestBody {
    static final int FIRST_SEGMENT = 8 * 1024;
    private static final byte[] EMPTY = new byte[0];

    private final BodyStore store;
    private final ByteBudget budget;
    /** The declared length, or -1 for a chunked body. */
    private final long declared;
    /** Guarded by this (a lock, not an AtomicInteger: one object less per body on the common path). */
    private int holders = 1;
    /** The heap array the body starts in, or null (a declared body held in slabs). */
    private byte[] first;
    /** Bytes used in {@link #first}. */
    private int firstUsed;
    /** The slabs after {@link #first}, each filled up to its position; null until the first. */
    private ByteBuffer[] slabs;
    private int slabCount;
    private long size;
    /** What this body holds of the budget. */
    private long reserved;
    private byte[] whole;

    /**
     * @param store    where the memory budget, its costs and the slabs come from
     * @param declared the declared length; -1 for a chunked body, which reserves as it grows
     * @param reserved what the caller has already reserved for a declared body
     *     ({@link BodyStore#heldCost}); 0 when chunked
     */
    HeldBody(BodyStore store, long declared, long reserved) {
        this.store = store;
        this.budget = store.memory();
        this.declared = declared;
        this.reserved = reserved;
    }

    /**
     * Appends {@code b[off..off+len)}; false when the budget cannot take the memory it needs, or the
     * heap cannot give it ({@link BodyStore#newArray}).
     */
    boolean append(byte[] b, int off, int len) {
        while (len > 0) {
            int n;
            if (slabCount > 0 && slabs[slabCount - 1].hasRemaining()) {
                ByteBuffer slab = slabs[slabCount - 1];
                n = Math.min(len, slab.remaining());
                slab.put(b, off, n);
            } else if (slabCount == 0 && first != null && firstUsed < first.length) {
                n = Math.min(len, first.length - firstUsed);
                System.arraycopy(b, off, first, firstUsed, n);
                firstUsed += n;
            } else if (!grow()) {
                return false;
            } else {
                continue;
            }
            size += n;
            off += n;
            len -= n;
        }
        return true;
    }

    private boolean grow() {
        if (first == null && slabCount == 0 && (declared < 0 || store.inOneArray(declared))) {
            int capacity = declared < 0 ? FIRST_SEGMENT : (int) declared; // a declared one is reserved already
            if (declared < 0 && !budget.tryReserve(capacity)) {
                return false;
            }
            first = BodyStore.newArray(capacity);
            if (first == null) {
                if (declared < 0) {
                    budget.release(capacity);
                }
                return false; // refused as a spent budget; a declared body's reservation goes with the body
            }
            if (declared < 0) {
                reserved += capacity;
            }
            return true;
        }
        if (declared < 0) {
            if (!budget.tryReserve(BodySlabs.SIZE)) {
                return false;
            }
            reserved += BodySlabs.SIZE;
        } else if ((long) (slabCount + 1) * BodySlabs.SIZE > reserved) {
            return false; // past the declared length: never a slab its reservation does not cover
        }
        ByteBuffer slab = store.slabs().take();
        if (slab == null) {
            byte[] a = BodyStore.newArray(BodySlabs.SIZE);
            if (a == null) {
                return false; // what was reserved goes with the body
            }
            slab = ByteBuffer.wrap(a);
        }
        if (slabs == null) {
            slabs = new ByteBuffer[8];
        } else if (slabCount == slabs.length) {
            slabs = Arrays.copyOf(slabs, slabCount * 2);
        }
        slabs[slabCount++] = slab;
        return true;
    }

    long size() {
        return size;
    }

    /** Writes every byte held to {@code out}; false when its disk budget is spent. */
    boolean copyTo(SpooledBody out) throws IOException {
        if (first != null && !out.append(first, 0, firstUsed)) {
            return false;
        }
        for (int i = 0; i < slabCount; i++) {
            if (!out.append(slabs[i].duplicate().flip())) {
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
    public synchronized byte[] bytes() {
        byte[] w = whole;
        if (w != null) {
            return w;
        }
        if (first == null && slabCount == 0) {
            w = EMPTY; // nothing, or nothing any more (released)
        } else if (slabCount == 0 && firstUsed == first.length) {
            w = first;
        } else {
            long cost = store.arrayCost(size);
            long more = Math.max(0, cost - reserved);
            if (!budget.tryReserve(more)) {
                throw new BodyUnavailableException("Service Unavailable: no request-body memory free to assemble "
                        + "the body, retry shortly");
            }
            w = BodyStore.newArray(size);
            if (w == null) {
                budget.release(more);
                throw new BodyUnavailableException("Service Unavailable: no request-body memory free to assemble "
                        + "the body, retry shortly");
            }
            int at = 0;
            if (first != null) {
                System.arraycopy(first, 0, w, 0, firstUsed);
                at = firstUsed;
            }
            for (int i = 0; i < slabCount; i++) {
                ByteBuffer slab = slabs[i];
                slab.get(0, w, at, slab.position());
                at += slab.position();
            }
            giveSlabsBack();
            budget.release(reserved + more - cost); // the array alone is held from now on
            reserved = cost;
            first = w;
            firstUsed = w.length;
        }
        whole = w;
        return w;
    }

    private void giveSlabsBack() {
        for (int i = 0; i < slabCount; i++) {
            if (slabs[i].isDirect()) {
                store.slabs().give(slabs[i]);
            }
            slabs[i] = null;
        }
        slabs = null;
        slabCount = 0;
    }

    @Override
    public synchronized InputStream stream() {
        if (slabCount == 0) {
            return first == null ? new ByteArrayInputStream(EMPTY) : new ByteArrayInputStream(first, 0, firstUsed);
        }
        return new SlabStream();
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
            giveSlabsBack();
            budget.release(reserved);
            reserved = 0;
            first = null;
            firstUsed = 0;
            whole = null;
        }
    }

    /**
     * Reads the body where it is held, in order: {@link #first}, then the slabs. Each read holds the
     * body's lock and fails once the body is released (its slabs may hold other bytes then), and once
     * {@link #bytes} has moved the body into one array it reads on in that. One reader's thread.
     */
    private final class SlabStream extends InputStream {
        /** Bytes read so far: the position in the body, whatever holds it now. */
        private long pos;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            synchronized (HeldBody.this) {
                if (holders == 0) {
                    throw new IOException("the request body was released: read it while the request is handled");
                }
                if (pos >= size) {
                    return -1;
                }
                long at = pos;
                int n;
                if (first != null && at < firstUsed) {
                    n = (int) Math.min(len, firstUsed - at);
                    System.arraycopy(first, (int) at, b, off, n);
                } else {
                    at -= first == null ? 0 : firstUsed;
                    ByteBuffer slab = slabs[(int) (at / BodySlabs.SIZE)];
                    int in = (int) (at % BodySlabs.SIZE);
                    n = Math.min(len, slab.position() - in);
                    slab.get(in, b, off, n);
                }
                pos += n;
                return n;
            }
        }

        @Override
        public int available() {
            synchronized (HeldBody.this) {
                return holders == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, size - pos);
            }
        }
    }
}
