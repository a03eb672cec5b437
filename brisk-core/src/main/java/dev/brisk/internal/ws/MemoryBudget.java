package dev.brisk.internal.ws;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of WebSocket messages the whole server holds ({@code ws-memory}): being received, waiting
 * for a handler, or waiting for a socket. A session reserves before it holds and releases once it no
 * longer does; a reservation that would pass the limit is refused, and the session that asked is the
 * one closed, so no client can make the server hold more. Any thread; lock-free.
 */
final class MemoryBudget {
    private final AtomicLong used = new AtomicLong();
    private final long max;

    MemoryBudget(long max) {
        this.max = max;
    }

    /** Reserves {@code n} bytes; false (nothing reserved) when that would pass the limit. */
    boolean reserve(long n) {
        long u;
        do {
            u = used.get();
            if (u + n > max) {
                return false;
            }
        } while (!used.compareAndSet(u, u + n));
        return true;
    }

    /**
     * Whether {@code n} more bytes would leave at least half of the limit free: a soft check for what
     * is nice to have (a session's compression), so that it never crowds out the messages themselves.
     */
    boolean roomWithHalfFree(long n) {
        return used.get() + n <= max / 2;
    }

    /** Reserves {@code n} bytes even past the limit: a session's last frame, which is never refused. */
    void force(long n) {
        used.addAndGet(n);
    }

    void release(long n) {
        used.addAndGet(-n);
    }

    /** Bytes reserved now. */
    long used() {
        return used.get();
    }
}
