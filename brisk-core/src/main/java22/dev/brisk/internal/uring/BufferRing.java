package dev.brisk.internal.uring;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A provided buffer ring (kernel 5.19+, {@code IORING_REGISTER_PBUF_RING}): a loop's receive buffers,
 * shared by all its connections. A multishot receive takes the next free buffer when bytes arrive, and
 * the completion names it; the connection holds it until its protocol has read it out, then gives it
 * back with {@link #recycle}. Memory is the ring's, not the connections': an idle connection holds no
 * receive buffer at all.
 *
 * <p>The kernel reads the ring's tail (a 16-bit field overlaying the first entry's last two bytes) and
 * the entries below it; this side writes them, publishing the tail with a release store. When every
 * buffer is held, a receive completes with {@code -ENOBUFS} and stops; its connection waits until a
 * buffer comes back ({@link UringLoop} re-arms it then).
 *
 * <p>Threads: the loop's only, after {@link #register} on that thread.
 */
final class BufferRing {
    /** The buffer group id the receives name. */
    static final short GROUP = 0;
    private static final int REGISTER_PBUF_RING = 22;
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();

    private final Arena arena = Arena.ofShared();
    private final int count;
    private final int size;
    private final int mask;
    private final MemorySegment entries;
    private final MemorySegment buffers;
    /** The tail as written here; published after each change. */
    private int tail;
    /** Buffers handed out by the kernel and not yet given back. */
    private int held;

    /**
     * @param count buffers, a power of two (at most 32768)
     * @param size bytes each
     */
    private BufferRing(int count, int size) {
        this.count = count;
        this.size = size;
        this.mask = count - 1;
        this.entries = arena.allocate(count * 16L, 4096);
        this.buffers = arena.allocate((long) count * size, 64);
    }

    /**
     * Registers a ring of {@code count} buffers of {@code size} bytes with {@code ringFd}, all of them
     * free; null when the kernel refuses (older than 5.19), the caller then receiving into buffers of its
     * own. On the ring's submitter thread.
     */
    static BufferRing register(int ringFd, int count, int size) {
        BufferRing b = new BufferRing(count, size);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment reg = a.allocate(40, 8); // struct io_uring_buf_reg
            reg.set(JAVA_LONG, 0, b.entries.address());
            reg.set(JAVA_INT, 8, count);
            reg.set(JAVA_SHORT, 12, GROUP);
            long r = Native.syscall(Native.SYS_IO_URING_REGISTER, ringFd, REGISTER_PBUF_RING, reg.address(), 1, 0, 0);
            if (r < 0) {
                b.arena.close();
                return null;
            }
        }
        for (int bid = 0; bid < count; bid++) {
            b.put(bid);
        }
        b.publish();
        return b;
    }

    /** Buffer {@code bid}'s memory. */
    MemorySegment buffer(int bid) {
        return buffers.asSlice((long) bid * size, size);
    }

    /** A completion took buffer {@code bid} from the ring: it is held until {@link #recycle}. */
    void taken() {
        held++;
    }

    /** Gives buffer {@code bid} back to the kernel, read out. */
    void recycle(int bid) {
        held--;
        put(bid);
        publish();
    }

    /** Buffers held by connections now (taken and not yet given back). */
    int held() {
        return held;
    }

    int count() {
        return count;
    }

    /** Bytes per buffer. */
    int size() {
        return size;
    }

    private void put(int bid) {
        long at = (long) (tail & mask) * 16;
        // the tail overlays entry 0's last two bytes: write each field, never the whole entry
        entries.set(JAVA_LONG, at, buffers.address() + (long) bid * size);
        entries.set(JAVA_INT, at + 8, size);
        entries.set(JAVA_SHORT, at + 12, (short) bid);
        tail++;
    }

    private void publish() {
        SHORT.setRelease(entries, 14L, (short) tail);
    }

    /** Frees the memory; after the ring that used it is closed. */
    void close() {
        arena.close();
    }
}
