package dev.brisk.internal.transport;

import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The virtual threads a loop starts or wakes during one turn, started and woken together as the turn ends.
 *
 * <p>Why: a loop thread that starts a virtual thread wakes a carrier thread of the scheduler, and on a
 * busy core the woken carrier runs at once, takes the one handler, finds nothing more and parks again:
 * two context switches per request. Made together as the turn ends, the turn's first start or wake-up
 * wakes the carrier and it finds the rest waiting: it runs the turn's handlers in one go.
 *
 * <p>Order: the scheduler empties a carrier's local queue (where a thread woken by a carrier goes)
 * before it looks at the submission queues, and empties one submission queue before it looks at the
 * next: handlers sent its way by two routes that land in different queues overtake one another, and
 * under CPU-bound handlers some requests waited many times their share (measured: {@code /cpu} at 50
 * connections, p99 450–600 ms instead of 45 when the loop started some and a virtual thread the others;
 * 1.3 s for first requests of connections started by a carrier while other connections' threads were
 * woken by it; an HTTP/2 client's {@code /cpu} requests beside 50 HTTP/1.1 connections got no answer in 5
 * s when its streams' handlers were started by a carrier). So everything reaches the scheduler through
 * the loop's own submission queue, in the order the loop read the requests:
 * <ul>
 *   <li>An HTTP/1.1 connection's handlers run on the thread the connection keeps while it is busy
 *   ({@link ConnectionThread}), an HTTP/2 stream's on one of the loop's {@link SpareThreads} (which may
 *   also wake one another, from a carrier, into the same local queue): for either a "start" is a
 *   wake-up, made by the loop's launcher, a virtual thread kept the same way, which the loop wakes as
 *   the turn ends (into the loop's queue) and which wakes the turn's threads (into the carrier's local
 *   queue, emptied right after it). The loop puts each
 *   wake-up in a ring of {@value #RING} that it alone fills and the launcher alone empties, so a turn
 *   costs no allocation; one that finds the ring full gets a virtual thread of its own to make it. The
 *   ring's ends are volatile: a flush that finds the launcher about to take its last offer (and so does
 *   not offer again) must know that the launcher then sees every wake-up added before.
 *   <li>A connection without a thread yet gets one started by the loop itself, at once
 *   ({@link ConnectionThread.Launch#startHere}) (so does a spare the loop makes), and the turn's other
 *   tasks, those without a kept thread (a streamed body's pump, a WebSocket handler queued off a loop, a spare
 *   another spare asked for), are started by the loop as the turn ends: both into the loop's queue.
 * </ul>
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
    /**
     * Tasks without a kept thread (a streamed body's pump, a WebSocket handler queued off a loop): started by the
     * loop itself as the turn ends, into the loop's queue like the launcher's wake-up (see above).
     */
    private Starter[] plainStarters = new Starter[16];
    private Runnable[] plainTasks = new Runnable[16];
    private int plainCount;
    /** The tail at the last flush: whether this turn added anything. */
    private long flushed;
    /**
     * Starts the launcher's thread: untracked by any server's executor, as it belongs to the loop, which
     * retires it as it ends ({@link #close}); the handlers it starts are tracked by theirs.
     */
    private static final Executor UNTRACKED = task -> Thread.ofVirtual().name("brisk-launcher").start(task);
    private final ConnectionThread launcher = new ConnectionThread();
    private final Runnable launch = this::launch;
    /** Kept threads for handlers without a connection thread: woken by the launcher like the rest. */
    final SpareThreads spares;

    HandOffs(Executor loop) {
        spares = new SpareThreads(loop);
    }

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
     * Runs {@code task}, a handler that has no connection thread (an HTTP/2 stream's), on one of the
     * calling loop's {@link SpareThreads}, waking one through {@code executor} (made by
     * {@link #executor}) when none is awake to take it; true. False, doing nothing, when not called on a
     * loop thread. Once queued it runs: a server that has stopped gets it run untracked.
     */
    public static boolean onSpareThread(Runnable task, Executor executor) {
        if (!(Thread.currentThread() instanceof LoopThread loop)) {
            return false;
        }
        Runnable wake = loop.handOffs.spares.offer(task, executor);
        if (wake != null) {
            try {
                executor.execute(wake);
            } catch (RejectedExecutionException e) {
                ((ConnectionThread.Launch) wake).runUntracked();
            }
        }
        return true;
    }

    /**
     * A handler started after its server's executor stopped (the loops stop before the executor does):
     * it still runs, untracked, rather than leave its request unanswered.
     */
    static void untracked(Runnable task) {
        Thread.ofVirtual().start(task);
    }

    void add(Starter starter, Runnable task) {
        if (!(task instanceof ConnectionThread.Launch)) {
            if (plainCount == plainTasks.length) {
                plainStarters = Arrays.copyOf(plainStarters, plainCount * 2);
                plainTasks = Arrays.copyOf(plainTasks, plainCount * 2);
            }
            plainStarters[plainCount] = starter;
            plainTasks[plainCount++] = task;
            return;
        }
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
        spares.startAsked(); // their starts join the plain ones below
        int n = plainCount;
        if (n > 0) {
            plainCount = 0;
            for (int i = 0; i < n; i++) {
                Starter s = plainStarters[i];
                Runnable task = plainTasks[i];
                plainStarters[i] = null;
                plainTasks[i] = null;
                start(s, task);
            }
        }
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
        spares.close();
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
