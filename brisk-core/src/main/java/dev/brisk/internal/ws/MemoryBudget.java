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
    /** The part of {@link #used} that compression contexts hold: never more than half of {@link #max}. */
    private final AtomicLong contexts = new AtomicLong();
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
     * Whether compression contexts of {@code n} more bytes would fit now ({@link #reserveContext}): the
     * handshake's check before it agrees to compression. Sessions that shake hands before any of them
     * sends may all pass it; {@link #reserveContext} is the bound.
     */
    boolean roomForContext(long n) {
        return contexts.get() + n <= max / 2;
    }

    /**
     * Reserves {@code n} bytes for a compression context: within the limit like a message, and with all
     * contexts together within half of it, so they never crowd out the messages; false (nothing
     * reserved) past either.
     */
    boolean reserveContext(long n) {
        long c;
        do {
            c = contexts.get();
            if (c + n > max / 2) {
                return false;
            }
        } while (!contexts.compareAndSet(c, c + n));
        if (!reserve(n)) {
            contexts.addAndGet(-n);
            return false;
        }
        return true;
    }

    /** Gives back a context's {@code n} bytes. */
    void releaseContext(long n) {
        contexts.addAndGet(-n);
        used.addAndGet(-n);
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
