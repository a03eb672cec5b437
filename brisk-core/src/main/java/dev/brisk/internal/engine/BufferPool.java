package dev.brisk.internal.engine;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Heap buffers of one size, reused by one I/O loop. Owned by that loop's thread: no locking.
 * Buffers of another size (grown for a large head) are left to the garbage collector on release.
 */
class BufferPool {
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    final int bufferSize;
    final int maxFree;

    BufferPool(int bufferSize, int maxFree) {
        this.bufferSize = bufferSize;
        this.maxFree = maxFree;
    }

    int bufferSize() {
        return bufferSize;
    }

    /** A cleared buffer of {@link #bufferSize} bytes. */
    ByteBuffer acquire() {
        ByteBuffer b = free.pollLast();
        return b != null ? b.clear() : ByteBuffer.allocate(bufferSize);
    }

    void release(ByteBuffer b) {
        if (b != null && b.capacity() == bufferSize && free.size() < maxFree) {
            free.addLast(b);
        }
    }
}
