package dev.brisk.internal.body;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The off-heap slabs that request bodies of middling size are held in, kept for reuse.
 *
 * <p>Why off the heap: a body that arrives slowly lives through young collections, and G1 copies every
 * live array at each one; with a thousand slow 32 KiB uploads held, that copying made most of a
 * 30-50 ms pause (JDK 25, 2026-12-07, {@code ./brisk bench --hostile-bodies}). A direct buffer is never
 * copied. Small bodies stay on the heap (they come and go within a collection), and so do bodies large
 * enough to be humongous (G1 never copies those either).
 *
 * <p>Pool: a slab given back is kept for the next body and never freed while the server lives. A slab is
 * taken only against a reservation from the memory budget, so no more are made than the budget lets be
 * in use at once (give or take a slab per allocation racing a give-back): the pool holds about
 * {@code body-memory-budget} at most; {@link #pooled}
 * says how much it holds. When direct memory cannot give a slab ({@code -XX:MaxDirectMemorySize} set
 * near or below the budget), {@link #take} returns null for the next {@link #RETRY_NANOS}, bodies fall
 * back to heap arrays meanwhile, and that is logged (at most once a minute): the JDK's own attempt to
 * free direct memory first (a collection, then waits of up to half a second) is not repeated for every
 * slab.
 *
 * <p>Any thread; one lock, held for a deque operation (never while a slab is allocated).
 */
public final class BodySlabs {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    /** A slab's size: small, so a body's last slab wastes little of the budget. */
    public static final int SIZE = 4 * 1024;
    static final long RETRY_NANOS = 10_000_000_000L;

    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();
    private long made;
    /** While direct memory is refused: when to try again (nanoTime), else 0. */
    private long refusedUntil;
    private long lastWarning;

    /** {@return an empty slab (position 0, limit {@link #SIZE}), or null when direct memory gives none now} */
    ByteBuffer take() {
        synchronized (this) {
            ByteBuffer b = idle.pollLast();
            if (b != null) {
                return b.clear();
            }
            if (refusedUntil != 0 && System.nanoTime() - refusedUntil < 0) {
                return null;
            }
            refusedUntil = 0;
        }
        ByteBuffer b;
        try {
            b = ByteBuffer.allocateDirect(SIZE);
        } catch (OutOfMemoryError e) {
            refused(e);
            return null;
        }
        synchronized (this) {
            made += SIZE;
        }
        return b;
    }

    private synchronized void refused(OutOfMemoryError e) {
        long now = System.nanoTime();
        refusedUntil = now + RETRY_NANOS | 1;
        if (lastWarning == 0 || now - lastWarning > 60_000_000_000L) {
            lastWarning = now | 1;
            LOG.log(System.Logger.Level.WARNING, "no direct memory for a request-body slab with " + made
                    + " bytes of them made (" + e.getMessage() + "): bodies are held on the heap meanwhile; "
                    + "-XX:MaxDirectMemorySize may be too close to body-memory-budget");
        }
    }

    /** Takes back a slab from {@link #take}, which its holder must not touch again. */
    synchronized void give(ByteBuffer slab) {
        idle.addLast(slab);
    }

    /** {@return the bytes of direct memory the slabs take, in use or idle (a gauge)} */
    public synchronized long pooled() {
        return made;
    }
}
