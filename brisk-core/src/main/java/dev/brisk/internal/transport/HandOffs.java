package dev.brisk.internal.transport;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The virtual threads a loop asks for during one turn, started together when the turn ends.
 *
 * <p>Why: a loop thread that starts a virtual thread wakes a carrier thread of the scheduler, and on a
 * busy core the woken carrier runs at once, takes the one handler, finds nothing more and parks again:
 * two context switches per request. Started at the end of the turn from one virtual thread instead, the
 * turn's starts are made from the scheduler's own thread, where they wake nobody, and the carrier runs
 * the whole turn's handlers in one go.
 *
 * <p>Every turn's tasks go through such a virtual thread, even a turn with one (but see the kept
 * connection threads below). A carrier files the starts it makes in a submission queue of its own, apart
 * from the loop's, and the scheduler drains one queue before it looks at the next: handlers started by
 * the loop directly would keep overtaking the turns' handlers while the loop keeps it busy, and under
 * CPU-bound handlers some requests would wait many times their share (measured: {@code /cpu} at 50
 * connections, p99 450–600 ms instead of 45). Through one queue, they start in the order their requests
 * were read.
 *
 * <p>That virtual thread is the loop's own launcher, kept like a connection's thread
 * ({@link ConnectionThread}): woken at the end of a turn, it starts what the ring holds until it finds it
 * empty, then parks. The loop puts each start in a ring of {@value #RING} that it alone fills and the
 * launcher alone empties, so that a turn costs no allocation; a start that finds the ring full gets a
 * virtual thread of its own to start it. The ring's ends are volatile: a flush that finds the launcher
 * about to take its last offer (and so does not offer again) must know that the launcher then sees
 * every start added before.
 *
 * <p>An HTTP/1.1 connection's handlers run on a thread the connection keeps while it is busy: for it,
 * a "start" is a wake-up, and the woken thread waits in the carrier's local queue, which the scheduler
 * empties before any other. A connection without a thread yet gets one started by the loop itself, at
 * once ({@link ConnectionThread.Launch#startHere}): started by the launcher it would wait in the
 * carrier's own submission queue behind every woken thread, and under CPU-bound handlers such first
 * requests waited for seconds (p99 1.3 s); started by the loop it waits in the loop's queue, in turn with
 * the launcher.
 *
 * <p>Threads: {@link #add} and {@link #flush} on the owning loop's thread only; {@link #executor}'s
 * {@code execute} from any thread; the launcher reads the ring.
 */
public final class HandOffs {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    static final int RING = 1024;

    /** What each start runs on, and the task it starts: pairs, so that a start allocates nothing here. */
    private final Starter[] starters = new Starter[RING];
    private final Runnable[] tasks = new Runnable[RING];
    /** The next slot the launcher reads: written by the launcher, read by the loop to know the ring full. */
    private final AtomicLong head = new AtomicLong();
    /** The next slot the loop writes: written by the loop, read by the launcher. */
    private final AtomicLong tail = new AtomicLong();
    /** The tail at the last flush: whether this turn added anything. */
    private long flushed;
    /**
     * Starts the launcher's thread: untracked by any server's executor, as it belongs to the loop, which
     * retires it as it ends ({@link #close}); the handlers it starts are tracked by theirs.
     */
    private static final Executor UNTRACKED = task -> Thread.ofVirtual().name("brisk-launcher").start(task);
    private final ConnectionThread launcher = new ConnectionThread();
    private final Runnable launch = this::launch;

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
                if (!(task instanceof ConnectionThread.Launch launch && launch.startHere(virtualThreads))) {
                    loop.handOffs.add(this, task);
                }
            } else if (task instanceof ConnectionThread.Launch launch) {
                launch.runOn(virtualThreads, false);
            } else {
                virtualThreads.execute(task);
            }
        }

        void start(Runnable task) {
            if (task instanceof ConnectionThread.Launch launch) {
                launch.runOn(virtualThreads, true);
                return;
            }
            try {
                virtualThreads.execute(task);
            } catch (RejectedExecutionException e) {
                untracked(task);
            }
        }
    }

    /**
     * A handler started after its server's executor stopped (the loops stop before the executor does):
     * it still runs, untracked, rather than leave its request unanswered.
     */
    static void untracked(Runnable task) {
        Thread.ofVirtual().start(task);
    }

    void add(Starter starter, Runnable task) {
        long t = tail.getPlain();
        if (t - head.getAcquire() == RING) {
            Thread.ofVirtual().start(() -> start(starter, task)); // the ring is full: rare, and costs a thread
            return;
        }
        int i = (int) (t & (RING - 1));
        starters[i] = starter;
        tasks[i] = task;
        tail.set(t + 1);
    }

    void flush() {
        long t = tail.getPlain();
        if (t == flushed) {
            return;
        }
        flushed = t;
        launcher.run(launch, UNTRACKED, false);
    }

    /** The loop has ended: its launcher ends once it has started what it was given. Loop thread. */
    void close() {
        launcher.retire();
    }

    /** The launcher's task: starts everything in the ring, in order, until it finds the ring empty. */
    private void launch() {
        long h = head.getPlain();
        for (;;) {
            long t = tail.get();
            if (h == t) {
                return;
            }
            for (; h != t; h++) {
                int i = (int) (h & (RING - 1));
                Starter s = starters[i];
                Runnable task = tasks[i];
                starters[i] = null;
                tasks[i] = null;
                head.setRelease(h + 1);
                start(s, task);
            }
        }
    }

    private static void start(Starter starter, Runnable task) {
        try {
            starter.start(task);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "starting a handler failed", e);
        }
    }
}
