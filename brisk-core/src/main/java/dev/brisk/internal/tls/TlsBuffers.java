package dev.brisk.internal.tls;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Buffers of one TLS record's size for {@link TlsWire}, kept only while they hold bytes: an idle TLS
 * connection holds none. On a selector loop they come from a small per-thread pool (the loop's
 * connections take turns with them); a blocking connection's thread serves one connection, so its
 * buffers are simply dropped. Loop thread only.
 */
final class TlsBuffers {
    /** A TLS record's largest packet (16 KiB of plaintext plus header, padding and tag) with room to spare. */
    static final int SIZE = 17 * 1024;
    private static final int KEEP = 64;
    private static final ThreadLocal<ArrayDeque<ByteBuffer>> POOL = ThreadLocal.withInitial(ArrayDeque::new);

    private TlsBuffers() {
    }

    /** An empty buffer in write mode, of at least {@code size} bytes. */
    static ByteBuffer take(boolean pooled, int size) {
        if (pooled && size <= SIZE) {
            ByteBuffer b = POOL.get().poll();
            if (b != null) {
                return b;
            }
        }
        return ByteBuffer.allocate(Math.max(SIZE, size));
    }

    /** Gives back a buffer taken from {@link #take}; the caller must not use it again. */
    static void give(boolean pooled, ByteBuffer b) {
        if (pooled && b.capacity() == SIZE) {
            ArrayDeque<ByteBuffer> pool = POOL.get();
            if (pool.size() < KEEP) {
                pool.push(b.clear());
            }
        }
    }
}
