package dev.brisk.internal.tls;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Buffers of one TLS record's size for {@link TlsWire}, kept only while they hold bytes: an idle TLS
 * connection holds none.
 *
 * <p>On a selector loop they come from the loop's own pool ({@link #ofThisLoop}), which its connections
 * take turns with. The pool's buffers are direct: the socket reads ciphertext into them and writes it
 * from them without the JDK's copy through a temporary direct buffer that a heap buffer costs on every
 * read and write. At most {@link #KEEP} direct buffers are ever made per loop (about 1 MiB), all of them
 * kept; a loop that needs more at once (many connections each holding a record) gets heap buffers for
 * the rest (up to {@link #KEEP} of those are kept too), so direct memory never churns and stays
 * bounded. A blocking
 * connection's thread serves one connection ({@link #UNPOOLED}): its buffers are heap buffers, simply
 * dropped.
 *
 * <p>Threads: a pool belongs to the loop thread that asked for it, and only that thread uses it.
 */
final class TlsBuffers {
    /** A TLS record's largest packet (16 KiB of plaintext plus header, padding and tag) with room to spare. */
    static final int SIZE = 17 * 1024;
    /** The most direct buffers one loop makes. */
    static final int KEEP = 64;
    private static final ThreadLocal<TlsBuffers> LOOP_POOL = ThreadLocal.withInitial(() -> new TlsBuffers(true));
    /** Heap buffers made and dropped: for a connection on a thread of its own. */
    static final TlsBuffers UNPOOLED = new TlsBuffers(false);

    private final boolean pooled;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private int made;

    private TlsBuffers(boolean pooled) {
        this.pooled = pooled;
    }

    /** {@return the calling loop thread's pool} Call on the loop thread whose connections will use it. */
    static TlsBuffers ofThisLoop() {
        return LOOP_POOL.get();
    }

    /** An empty buffer in write mode, of at least {@code size} bytes. */
    ByteBuffer take(int size) {
        if (pooled && size <= SIZE) {
            ByteBuffer b = free.poll();
            if (b != null) {
                return b;
            }
            if (made < KEEP) {
                made++;
                return ByteBuffer.allocateDirect(SIZE);
            }
        }
        return ByteBuffer.allocate(Math.max(SIZE, size));
    }

    /** Gives back a buffer taken from {@link #take}; the caller must not use it again. */
    void give(ByteBuffer b) {
        if (b.isDirect() || (pooled && b.capacity() == SIZE && free.size() < KEEP)) {
            free.push(b.clear()); // direct: only this pool makes them, and never more than it keeps
        }
    }

    /** {@return how many direct buffers this pool has made} For tests. */
    int made() {
        return made;
    }

    /** {@return how many of them are free} For tests. */
    int free() {
        return free.size();
    }
}
