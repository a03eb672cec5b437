package dev.brisk.internal.ws;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;

/**
 * Compressors shared by every session that compresses each message on its own (no context takeover):
 * a compressor holds about 256 KiB of native memory, so sessions borrow one per message instead of
 * keeping one each. At most {@code max} stay pooled; more are made when many threads compress at once
 * and ended when given back. Any thread; lock-free.
 */
final class DeflaterPool {
    private final ConcurrentLinkedQueue<Deflater> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger freeCount = new AtomicInteger();
    private final int max;

    DeflaterPool(int max) {
        this.max = max;
    }

    /** A compressor with nothing in its window (raw deflate: no zlib header). */
    Deflater take() {
        Deflater d = free.poll();
        if (d == null) {
            return new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        }
        freeCount.decrementAndGet();
        d.reset();
        return d;
    }

    void give(Deflater d) {
        if (freeCount.incrementAndGet() <= max) {
            free.add(d);
        } else {
            freeCount.decrementAndGet();
            d.end();
        }
    }

    /** Ends the pooled compressors (the server stopped). */
    void clear() {
        Deflater d;
        while ((d = free.poll()) != null) {
            freeCount.decrementAndGet();
            d.end();
        }
    }
}
