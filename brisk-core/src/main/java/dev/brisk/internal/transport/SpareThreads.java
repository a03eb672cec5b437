package dev.brisk.internal.transport;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A loop's kept virtual threads for handlers that have no connection thread of their own (an HTTP/2
 * stream's): a handler runs on a parked spare, woken like an HTTP/1.1 connection's thread, instead of on
 * a thread started for it. Why: starting and ending a virtual thread per stream cost about 1.3x the CPU
 * of a wake-up at 100 streams per connection (h2c hello), and a wake-up reaches the scheduler the same
 * way as every HTTP/1.1 connection's (the loop's launcher, {@link HandOffs}), so neither kind can starve
 * the other.
 *
 * <pre>
 *   made (none free) ──offer──▶ busy ──its task ends──▶ free (parked, on the stack) ──offer──▶ busy
 *                                                        │
 *                       unused for a whole scan period ──┴──▶ retired (its thread ends)
 * </pre>
 *
 * <p>A spare goes back on the free stack as its task ends, still on its thread; the loop may offer it the
 * next task before it parks, which {@link ConnectionThread} allows. A handler may therefore find a
 * previous stream's {@code ThreadLocal}s, as on any pool. How many: as many as the loop's streams ran at
 * once, each the thread such a stream had before; those unused between two scans (100 ms) are retired,
 * so an idle loop keeps none.
 *
 * <p>Threads: {@link #offer}, {@link #trim} and {@link #close} on the owning loop's thread only; a spare's
 * return to the stack from its own thread. The stack is pushed by many threads and popped by the loop
 * alone, so a pop cannot meet a node removed and pushed again meanwhile (no ABA).
 */
final class SpareThreads {
    /** Free spares, newest first. */
    private final AtomicReference<Spare> free = new AtomicReference<>();
    /** Set once the loop has ended: a spare whose task ends after that retires instead of waiting. */
    private volatile boolean closed;

    /** One kept thread and the task it is given. */
    private static final class Spare implements Runnable {
        private final SpareThreads owner;
        private final ConnectionThread thread = new ConnectionThread();
        /** The task offered: written by the loop before the offer, read by the thread after it. */
        private Runnable task;
        /** The next free spare while this one is on the stack. */
        private Spare next;
        /** Whether offered since the last scan: the loop's only. */
        private boolean used;

        Spare(SpareThreads owner) {
            this.owner = owner;
        }

        @Override
        public void run() {
            Runnable t = task;
            task = null;
            try {
                t.run();
            } finally {
                owner.release(this); // free again once the handler has returned, not before
            }
        }
    }

    /**
     * {@code task} as a task for the loop's executor of virtual threads ({@link HandOffs#executor}) that
     * runs it on a free spare, or on a new one when none is free. Allocates nothing when one is free.
     */
    Runnable offer(Runnable task) {
        Spare s = pop();
        if (s == null) {
            s = new Spare(this);
        }
        s.used = true;
        s.task = task;
        return s.thread.offer(s, false);
    }

    /** The loop's scan: retires every free spare not offered since the previous scan. */
    void trim() {
        Spare s = free.getAndSet(null);
        while (s != null) {
            Spare next = s.next;
            s.next = null;
            if (s.used) {
                s.used = false;
                push(s);
            } else {
                s.thread.retire();
            }
            s = next;
        }
    }

    /** The loop has ended: every free spare ends now, and a busy one as its task ends. */
    void close() {
        closed = true;
        retireFree();
    }

    private void retireFree() {
        Spare s = free.getAndSet(null); // not a pop: safe beside another thread's retireFree
        while (s != null) {
            s.thread.retire();
            s = s.next;
        }
    }

    /** A spare's task has ended: on its own thread. */
    private void release(Spare s) {
        push(s);
        if (closed) {
            retireFree(); // pushed after close() took the stack: nobody else would end it
        }
    }

    /** Free spares now; for tests. */
    int free() {
        int n = 0;
        for (Spare s = free.get(); s != null; s = s.next) {
            n++;
        }
        return n;
    }

    private Spare pop() {
        for (;;) {
            Spare top = free.get();
            if (top == null) {
                return null;
            }
            if (free.compareAndSet(top, top.next)) {
                top.next = null;
                return top;
            }
        }
    }

    private void push(Spare s) {
        for (;;) {
            Spare top = free.get();
            s.next = top;
            if (free.compareAndSet(top, s)) {
                return;
            }
        }
    }
}
