package dev.brisk.internal.transport;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The tasks other threads hand an I/O loop: many threads add, the loop alone takes, first in first out.
 * A {@link Linked} task carries its own link and costs nothing to add; any other task is wrapped in one
 * (an object per add, as a linked queue's node would be). Why: the answer a handler thread hands back
 * to the loop, once per request, should not allocate.
 *
 * <p>How: adders push onto a stack with one compare-and-set; the loop takes the whole stack at once
 * when its own list is empty and reverses it, so tasks run in the order they were added.
 *
 * <p>A loop takes its tasks a turn at a time ({@link #beginTurn}, {@link #pollTurn}): what they add runs
 * in the next turn, after the loop has looked at its sockets again.
 *
 * <p>Threads: {@link #add} from any thread; the rest on the loop's thread.
 */
public final class LoopTasks {
    /**
     * A task that is its own queue node: it may be added again once it has begun to run, never while it
     * waits in a queue.
     */
    public abstract static class Linked implements Runnable {
        private Linked next;
    }

    private static final class Wrapped extends Linked {
        private final Runnable task;

        Wrapped(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }

    /** Added and not yet taken, newest first. */
    private final AtomicReference<Linked> added = new AtomicReference<>();
    /** Taken from {@link #added}, oldest first: the loop's own. */
    private Linked taken;

    /** Queues {@code task}. Any thread. */
    public void add(Runnable task) {
        Linked node = task instanceof Linked l ? l : new Wrapped(task);
        Linked top;
        do {
            top = added.get();
            node.next = top; // published by the compare-and-set
        } while (!added.compareAndSet(top, node));
    }

    /** Whether no task waits. The loop's thread. */
    public boolean isEmpty() {
        return taken == null && added.get() == null;
    }

    /**
     * Takes every task added so far as this turn's: {@link #pollTurn} gives those, oldest first, and none
     * added after this call (a task that adds itself again, or adds another, waits for the next turn), so
     * a loop that runs a turn's tasks between its looks at the sockets cannot be held by tasks that keep
     * coming. The loop's thread.
     */
    public void beginTurn() {
        Linked n = takeAdded();
        if (taken == null) {
            taken = n;
        } else if (n != null) {
            Linked last = taken; // left from a poll() before: rare, and short
            while (last.next != null) {
                last = last.next;
            }
            last.next = n;
        }
    }

    /** The oldest of this turn's tasks ({@link #beginTurn}), or null when they have all been taken. The loop's thread. */
    public Runnable pollTurn() {
        Linked n = taken;
        if (n == null) {
            return null;
        }
        taken = n.next;
        n.next = null; // before it runs: it may be added again from then on
        return n;
    }

    /** The oldest task, or null when none waits. The loop's thread. */
    public Runnable poll() {
        Linked n = taken;
        if (n == null) {
            n = takeAdded();
            if (n == null) {
                return null;
            }
        }
        taken = n.next;
        n.next = null; // before it runs: it may be added again from then on
        return n;
    }

    /** Takes every task added so far, oldest first (the adders' stack reversed); null when none. */
    private Linked takeAdded() {
        Linked stack = added.getAndSet(null);
        Linked n = null;
        while (stack != null) {
            Linked below = stack.next;
            stack.next = n;
            n = stack;
            stack = below;
        }
        return n;
    }
}
