package dev.brisk.internal.transport;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link BufferPool} any thread may use, for the blocking engine's connection threads: lock-free, so
 * a virtual thread taking a buffer never blocks its carrier. The free count is approximate under races,
 * which only bounds the pool a little loosely.
 */
final class SharedBufferPool extends BufferPool {
    private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger freeCount = new AtomicInteger();

    SharedBufferPool(int bufferSize, int maxFree) {
        super(bufferSize, maxFree);
    }

    @Override
    public ByteBuffer acquire() {
        ByteBuffer b = free.poll();
        if (b == null) {
            return ByteBuffer.allocate(bufferSize);
        }
        freeCount.decrementAndGet();
        return b.clear();
    }

    @Override
    public void release(ByteBuffer b) {
        if (b != null && b.capacity() == bufferSize && freeCount.get() < maxFree) {
            freeCount.incrementAndGet();
            free.add(b);
        }
    }
}
