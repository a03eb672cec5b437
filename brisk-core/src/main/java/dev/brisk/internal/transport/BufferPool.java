package dev.brisk.internal.transport;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Heap buffers of one size, reused by one loop. Owned by that loop's thread: no locking.
 * Buffers of another size (grown for a large head) are left to the garbage collector on release.
 */
public class BufferPool {
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    final int bufferSize;
    final int maxFree;

    public BufferPool(int bufferSize, int maxFree) {
        this.bufferSize = bufferSize;
        this.maxFree = maxFree;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** A cleared buffer of {@link #bufferSize} bytes. */
    public ByteBuffer acquire() {
        ByteBuffer b = free.pollLast();
        return b != null ? b.clear() : ByteBuffer.allocate(bufferSize);
    }

    public void release(ByteBuffer b) {
        if (b != null && b.capacity() == bufferSize && free.size() < maxFree) {
            free.addLast(b);
        }
    }
}
