package dev.brisk.internal.transport;

import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The virtual threads a loop asks for during one turn, started together when the turn ends.
 *
 * <p>Why: a loop thread that starts a virtual thread wakes a carrier thread of the scheduler, and on a
 * busy core the woken carrier runs at once, takes the one handler, finds nothing more and parks again:
 * two context switches per request. Started at the end of the turn from one virtual thread instead, the
 * turn's starts are made from the scheduler's own thread, where they wake nobody, and the carrier runs
 * the whole turn's handlers in one go.
 *
 * <p>Every turn goes through such a virtual thread, even a turn with one start. A carrier files the starts
 * it makes in a submission queue of its own, apart from the loop's, and the scheduler drains one queue
 * before it looks at the next: handlers started by the loop directly would keep overtaking the turns'
 * handlers while the loop keeps it busy, and under CPU-bound handlers some requests would wait many
 * times their share (measured: {@code /cpu} at 50 connections, p99 450–600 ms instead of 45). Through one
 * queue, handlers start in the order their requests were read.
 *
 * <p>Threads: {@link #add} and {@link #flush} on the owning loop's thread only; {@link #executor}'s
 * {@code execute} from any thread.
 */
public final class HandOffs {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    /** What each start runs on, and the task it starts: pairs, so that a start allocates nothing here. */
    private Starter[] starters = new Starter[16];
    private Runnable[] tasks = new Runnable[16];
    private int count;

    /**
     * An executor that runs each task on a virtual thread of {@code virtualThreads}: started at the end of
     * the turn when asked from a loop thread, at once when asked from any other thread. A shut-down
     * {@code virtualThreads} refuses at once, as it would itself.
     */
    public static Executor executor(ExecutorService virtualThreads) {
        return new Starter(virtualThreads);
    }

    private record Starter(ExecutorService virtualThreads) implements Executor {
        @Override
        public void execute(Runnable task) {
            if (Thread.currentThread() instanceof LoopThread loop) {
                if (virtualThreads.isShutdown()) {
                    throw new RejectedExecutionException("the server has stopped");
                }
                loop.handOffs.add(this, task);
            } else {
                virtualThreads.execute(task);
            }
        }

        void start(Runnable task) {
            try {
                virtualThreads.execute(task);
            } catch (RejectedExecutionException e) {
                // stopped between the turn's request and its end (the loops stop before the executor
                // does): the handler still runs, untracked, rather than leave its request unanswered
                Thread.ofVirtual().start(task);
            }
        }
    }

    void add(Starter starter, Runnable task) {
        if (count == tasks.length) {
            starters = Arrays.copyOf(starters, count * 2);
            tasks = Arrays.copyOf(tasks, count * 2);
        }
        starters[count] = starter;
        tasks[count++] = task;
    }

    void flush() {
        int n = count;
        if (n == 0) {
            return;
        }
        count = 0;
        if (n == 1) {
            Starter s = starters[0];
            Runnable t = tasks[0];
            starters[0] = null;
            tasks[0] = null;
            Thread.ofVirtual().start(() -> start(s, t));
            return;
        }
        Starter[] ss = Arrays.copyOf(starters, n);
        Runnable[] ts = Arrays.copyOf(tasks, n);
        Arrays.fill(starters, 0, n, null);
        Arrays.fill(tasks, 0, n, null);
        Thread.ofVirtual().start(() -> {
            for (int i = 0; i < n; i++) {
                start(ss[i], ts[i]);
            }
        });
    }

    private static void start(Starter starter, Runnable task) {
        try {
            starter.start(task);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "starting a handler failed", e);
        }
    }
}
