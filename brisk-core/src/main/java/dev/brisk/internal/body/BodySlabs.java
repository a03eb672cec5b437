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
 * taken only against a reservation from the memory budget, so no more are ever made than the budget
 * lets be in use at once: the pool never holds more than {@code body-memory-budget}; {@link #pooled}
 * says how much it holds. When direct memory cannot give a slab ({@code -XX:MaxDirectMemorySize} set
 * below the budget), {@link #take} returns null from then on, bodies fall back to heap arrays, and
 * that is logged once.
 *
 * <p>Any thread; one lock, held for a deque operation (or the first allocations).
 */
public final class BodySlabs {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    /** A slab's size: small, so a body's last slab wastes little of the budget. */
    public static final int SIZE = 4 * 1024;

    private final ArrayDeque<ByteBuffer> idle = new ArrayDeque<>();
    private long made;
    private boolean exhausted;

    /** {@return an empty slab (position 0, limit {@link #SIZE}), or null when direct memory gives no more} */
    synchronized ByteBuffer take() {
        ByteBuffer b = idle.pollLast();
        if (b != null) {
            return b.clear();
        }
        if (exhausted) {
            return null;
        }
        try {
            b = ByteBuffer.allocateDirect(SIZE);
        } catch (OutOfMemoryError e) {
            exhausted = true;
            LOG.log(System.Logger.Level.WARNING, "no direct memory for request-body slabs past " + made
                    + " bytes (" + e.getMessage() + "): further bodies are held on the heap; "
                    + "-XX:MaxDirectMemorySize may be below body-memory-budget");
            return null;
        }
        made += SIZE;
        return b;
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
