package dev.brisk.internal.ws;

import dev.brisk.internal.transport.HandOffs;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one session's handlers on its route's dispatch, one at a time and in the order submitted:
 * {@code onOpen}, the messages, {@code onClose}. Inline (the caller's thread) for an event-loop route
 * or a blocking engine's connection thread; otherwise a queue drained by one task at a time on the
 * executor, so two messages of a session never run at once while sessions run in parallel. With
 * virtual-thread dispatch a drain submitted on an I/O loop runs on one of the loop's spare threads
 * ({@link HandOffs#onSpareThread}), as an HTTP/2 stream's handler does: messages one after another reuse
 * a parked thread instead of starting one per burst.
 *
 * <p>Inline, a task submitted while one runs (a handler's send failed and closed the session, whose
 * {@code onClose} is submitted) runs once that one returns, not nested in it: handlers of a session
 * never overlap, even on one thread.
 *
 * <p>{@link #pending} counts submitted tasks not yet finished: the connection stops reading while too
 * many wait. Any thread; inline, the thread with the wire's turn.
 */
final class HandlerQueue implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final Executor executor;
    /** Whether {@link #executor} starts virtual threads, so a loop's spare threads may drain instead. */
    private final boolean spare;
    private final ConcurrentLinkedQueue<Runnable> tasks;
    private final AtomicInteger pending = new AtomicInteger();
    // inline only, on the thread with the wire's turn
    private boolean runningInline;
    private ArrayDeque<Runnable> deferred;

    /**
     * @param executor where tasks run, or null to run each at once on the submitting thread
     * @param spare whether {@code executor} is the virtual-thread executor (a loop's spare threads may run them)
     */
    HandlerQueue(Executor executor, boolean spare) {
        this.executor = executor;
        this.spare = spare;
        this.tasks = executor == null ? null : new ConcurrentLinkedQueue<>();
    }

    boolean inline() {
        return executor == null;
    }

    /** Tasks submitted and not finished. */
    int pending() {
        return pending.get();
    }

    void submit(Runnable task) {
        if (executor == null) {
            runInline(task);
            return;
        }
        tasks.add(task);
        if (pending.getAndIncrement() == 0) {
            try {
                if (!spare || !HandOffs.onSpareThread(this, executor)) {
                    executor.execute(this);
                }
            } catch (RejectedExecutionException e) {
                run(); // the executor is shut down (the server is stopping): the caller runs them
            }
        }
    }

    private void runInline(Runnable task) {
        if (runningInline) {
            if (deferred == null) {
                deferred = new ArrayDeque<>(2);
            }
            deferred.add(task); // submitted by the running task: after it, in order
            return;
        }
        runningInline = true;
        try {
            runSafely(task);
            for (Runnable next; deferred != null && (next = deferred.poll()) != null; ) {
                runSafely(next);
            }
        } finally {
            runningInline = false;
        }
    }

    /** Drains the queue; the one drainer at a time. */
    @Override
    public void run() {
        do {
            Runnable t = tasks.poll();
            if (t != null) {
                runSafely(t);
            }
        } while (pending.decrementAndGet() > 0);
    }

    private static void runSafely(Runnable t) {
        try {
            t.run();
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.ERROR, "a WebSocket handler task failed", e);
        }
    }
}
