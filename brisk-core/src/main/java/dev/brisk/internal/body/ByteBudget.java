package dev.brisk.internal.body;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes that all connections of one server may hold together (request-body memory, spool disk): a
 * reservation succeeds only while the total stays within the limit, and each is given back exactly
 * once by its owner. Lock-free; any thread.
 */
public final class ByteBudget {
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();

    public ByteBudget(long limit) {
        this.limit = limit;
    }

    /** Reserves {@code n} bytes when they fit under the limit; false (nothing reserved) when not. */
    public boolean tryReserve(long n) {
        while (true) {
            long r = reserved.get();
            if (n > limit - r) {
                return false;
            }
            if (reserved.compareAndSet(r, r + n)) {
                return true;
            }
        }
    }

    /** Gives back {@code n} bytes reserved before. */
    public void release(long n) {
        if (n != 0) {
            reserved.addAndGet(-n);
        }
    }

    /** {@return the bytes reserved now (a gauge)} */
    public long reserved() {
        return reserved.get();
    }

    public long limit() {
        return limit;
    }
}
