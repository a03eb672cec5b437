package dev.brisk.internal.tls;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Buffers of one TLS record's size for {@link TlsWire}, kept only while they hold bytes: an idle TLS
 * connection holds none.
 *
 * <p>On a selector loop they come from the loop's own pool ({@link #ofThisLoop}), held by each of its
 * connections so that no take or give looks up a thread-local, and kept up to {@link #KEEP} free (about
 * 1 MiB). They are heap buffers: direct ones would save the JDK's copy through its temporary direct
 * buffer on each socket read and write, but the JDK's cipher then copies out of them itself, and
 * alternated runs were no faster (README, TLS).
 *
 * <p>The blocking engine's connections, each on a thread of its own, share one pool of heap buffers
 * ({@link #SHARED}: the blocking socket reads into an array), lock-free, so a virtual thread taking one
 * never blocks its carrier; it keeps at most {@link #SHARED_KEEP} free. Without it each request made and
 * dropped three record buffers, about 51 KiB. A blocking connection's buffers at close are not given
 * back (see {@code TlsWire.release}).
 *
 * <p>Threads: a loop's pool belongs to the loop thread that asked for it, and only that thread uses it;
 * {@link #SHARED}, any thread.
 */
final class TlsBuffers {
    /** A TLS record's largest packet (16 KiB of plaintext plus header, padding and tag) with room to spare. */
    static final int SIZE = 17 * 1024;
    /** The most free buffers a loop's pool keeps. */
    static final int KEEP = 64;
    private static final ThreadLocal<TlsBuffers> LOOP_POOL = ThreadLocal.withInitial(() -> new TlsBuffers(true));
    /** The most free buffers {@link #SHARED} keeps (about 4 MiB). */
    static final int SHARED_KEEP = 256;
    /** Heap buffers any thread may take: for connections on threads of their own. */
    static final TlsBuffers SHARED = new TlsBuffers(false);

    /** A loop's pool (one thread) or {@link #SHARED} (any thread). */
    private final boolean loop;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<ByteBuffer> sharedFree = new ConcurrentLinkedQueue<>();
    /** About how many {@link #sharedFree} holds: races only bound it a little loosely. */
    private final AtomicInteger sharedCount = new AtomicInteger();

    private TlsBuffers(boolean loop) {
        this.loop = loop;
    }

    /** {@return the calling loop thread's pool} Call on the loop thread whose connections will use it. */
    static TlsBuffers ofThisLoop() {
        return LOOP_POOL.get();
    }

    /** An empty buffer in write mode, of at least {@code size} bytes. */
    ByteBuffer take(int size) {
        if (!loop) {
            ByteBuffer b = size <= SIZE ? sharedFree.poll() : null;
            if (b != null) {
                sharedCount.decrementAndGet();
                return b;
            }
        } else if (size <= SIZE) {
            ByteBuffer b = free.poll();
            if (b != null) {
                return b;
            }
        }
        return ByteBuffer.allocate(Math.max(SIZE, size));
    }

    /** Gives back a buffer taken from {@link #take}; the caller must not use it again. */
    void give(ByteBuffer b) {
        if (!loop) {
            if (b.capacity() == SIZE && sharedCount.get() < SHARED_KEEP) {
                sharedCount.incrementAndGet();
                sharedFree.add(b.clear());
            }
        } else if (b.capacity() == SIZE && free.size() < KEEP) {
            free.push(b.clear());
        }
    }

    /**
     * A bigger buffer in write mode holding what {@code b} (write mode) holds, with room for at least
     * {@code atLeast} more bytes; {@code b} is given back.
     */
    ByteBuffer grow(ByteBuffer b, int atLeast) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + atLeast));
        b.flip();
        bigger.put(b);
        give(b);
        return bigger;
    }

    /** {@return whether {@code b} is among the free buffers} For tests. */
    boolean holds(ByteBuffer b) {
        return loop ? free.stream().anyMatch(f -> f == b) : sharedFree.stream().anyMatch(f -> f == b);
    }

    /** {@return how many buffers are free} For tests. */
    int free() {
        return loop ? free.size() : sharedCount.get();
    }
}
