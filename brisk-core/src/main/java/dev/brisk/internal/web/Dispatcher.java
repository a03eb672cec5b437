package dev.brisk.internal.web;

import dev.brisk.Dispatch;
import dev.brisk.internal.transport.ConnectionThread;
import dev.brisk.internal.transport.HandOffs;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Decides where a routed exchange's chain runs: on the calling I/O thread, on a virtual thread or on
 * the worker pool, per its route's {@link Dispatch}; a request still waiting for its
 * {@code 100-continue} body, or whose route streams its body, never blocks an event loop. An executor that refuses the task answers
 * 503. Called on the I/O thread; the executors are set once by the server at start.
 */
final class Dispatcher {
    private final ChainRunner runner;
    private volatile Executor virtualThreads;
    private volatile Executor workers;

    Dispatcher(ChainRunner runner) {
        this.runner = runner;
    }

    void executors(Executor virtualThreads, Executor workers) {
        this.virtualThreads = virtualThreads;
        this.workers = workers;
    }

    /** Runs {@code ex}'s chain on its route's dispatch. */
    void dispatch(Exchange ex) {
        Dispatch dispatch = ex.dispatchMode();
        if (dispatch == Dispatch.EVENT_LOOP && (ex.bodyDeferred() || ex.streamsBody())) {
            dispatch = Dispatch.VIRTUAL_THREADS; // it will block waiting for its body
        }
        switch (dispatch) {
            case EVENT_LOOP -> runner.run(ex);
            case VIRTUAL_THREADS -> execute(virtualThreads, ex, ex.owner().connectionThread(), true);
            case WORKER_POOL -> execute(workers, ex, null, false);
        }
    }

    /** Whether {@code ex}'s chain runs on a virtual thread (its connection's, when it keeps one). */
    boolean onVirtualThread(Exchange ex) {
        return ex.dispatchMode() == Dispatch.VIRTUAL_THREADS;
    }

    /**
     * Runs {@code task} (the chains of several of one connection's requests, one after another) on
     * {@code first}'s connection thread, as {@link #dispatch} would run {@code first} alone; false when the
     * virtual-thread executor refuses it (the server has stopped): then nothing runs.
     */
    boolean dispatchAll(Exchange first, Runnable task) {
        try {
            virtualThreads.execute(first.owner().connectionThread().offer(task, false));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code ex}'s chain on the calling thread, whatever its route's dispatch. */
    void runInline(Exchange ex) {
        runner.run(ex);
    }

    /**
     * Runs {@code ex}'s chain on {@code executor}: on the connection's own thread when it keeps one, else
     * on one of the loop's spare threads when {@code spare} (virtual threads).
     */
    private void execute(Executor executor, Exchange ex, ConnectionThread thread, boolean spare) {
        try {
            Runnable task = ex.dispatchTask;
            if (task == null) {
                task = () -> runner.run(ex); // once per exchange, and a connection reuses its exchange
                ex.dispatchTask = task;
            }
            if (thread != null) {
                task = thread.offer(task, ex.owner().closesAfterResponse());
            } else if (spare && HandOffs.onSpareThread(task, executor)) {
                return;
            }
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            ex.resetResponse();
            ErrorBodies.answer(ex, 503, "Service Unavailable");
            ex.addRefusalHeaders();
            ex.owner().complete(ex);
        }
    }
}
