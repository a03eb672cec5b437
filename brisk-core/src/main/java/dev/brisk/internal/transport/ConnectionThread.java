package dev.brisk.internal.transport;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The virtual thread that runs one connection's handlers, one request after another, while the
 * connection is busy: between two requests it parks instead of ending, and the next request wakes it
 * instead of starting a thread. Why: a virtual thread's start and end cost about 300 bytes and the
 * scheduler's bookkeeping per request; a park and an unpark cost neither. The connection lets it go
 * ({@link #retire}) when it is found idle or closes, so an idle connection holds no thread.
 *
 * <pre>
 *   NONE ──run()──▶ WORK ──the thread takes it──▶ RUNNING ──task done──▶ IDLE (parked)
 *    ▲                ▲                              │  ▲                  │
 *    │                └────────── run() ─────────────┘  └────── run() ─────┘ (unpark)
 *    └── interrupted with no task offered yet (the server stops, or a task left it): the thread ends
 *   retire() sets RETIRED on any of them: a parked thread is woken and ends, a running one ends after
 *   its task (and a task offered but not yet taken runs first); later tasks get threads of their own
 * </pre>
 *
 * <p>An interrupt left set when a task ends never reaches the next task: it is cleared when the next task
 * is already offered, else the thread ends. One sent after the task ended, though meant for it, reaches
 * the next, as on any pool: a handler's thread is to be interrupted only while that handler runs.
 *
 * <p>Threads: {@link #run(Runnable, Executor, boolean)} from one thread at a time, and only once the previous
 * task has handed its request back (a connection has one request handled at a time), so a task is never
 * offered while another waits to be taken; the same task offered again before it is taken runs once
 * (the loop's launcher, {@link HandOffs}, whose task drains a queue). {@link #retire} from the owner's
 * thread. The thread is started through the executor given to {@code run}: for a connection the
 * server's executor of virtual threads, so a stopping server interrupts it like any handler's thread.
 */
public final class ConnectionThread implements Runnable {
    private static final int NONE = 0;
    private static final int WORK = 1;
    private static final int RUNNING = 2;
    private static final int IDLE = 3;
    private static final int PHASE = 3;
    /** Set once by {@link #retire}, kept with the phase in one word so that every change sees it. */
    private static final int RETIRED = 4;

    /** The phase (NONE, WORK, RUNNING, IDLE), with the RETIRED bit; changed by compare-and-set only. */
    private final AtomicInteger state = new AtomicInteger();
    /** The task offered, read by the thread after it sees WORK (the state's volatile write orders it). */
    private Runnable task;
    /** The thread while it lives: set by it before it first goes IDLE. */
    private Thread thread;
    /** The task {@link #offer} was given, until its {@link Launch} runs. */
    private Runnable offered;
    /** Whether the offered task is the connection's last: its thread then ends after it, never parks. */
    private boolean offeredLast;
    private final Launch launch = new Launch(this);

    /**
     * {@code next} as a task for an executor of virtual threads ({@link HandOffs#executor}) that runs it
     * on this connection's thread; another executor runs it on the thread it gives it. {@code last}: the
     * connection closes after this request, so the thread ends after it instead of parking. Same threads
     * and rules as {@link #run(Runnable, Executor, boolean)}; allocates nothing.
     */
    public Runnable offer(Runnable next, boolean last) {
        offered = next;
        offeredLast = last;
        return launch;
    }

    /** An offered task on its way to the connection's thread (made once: an offer allocates nothing). */
    static final class Launch implements Runnable {
        private final ConnectionThread owner;

        private Launch(ConnectionThread owner) {
            this.owner = owner;
        }

        /**
         * Runs the offered task on the connection's thread. When {@code virtualThreads} has stopped, the
         * task runs untracked if {@code orUntracked} (its request was accepted earlier), else the refusal
         * is thrown.
         */
        void runOn(ExecutorService virtualThreads, boolean orUntracked) {
            Runnable next = owner.offered;
            owner.offered = null;
            try {
                owner.run(next, virtualThreads, owner.offeredLast);
            } catch (RejectedExecutionException e) {
                if (!orUntracked) {
                    throw e;
                }
                HandOffs.untracked(next);
            }
        }

        /**
         * Starts the connection's thread with the offered task, from the calling loop thread, when it has
         * none (true); false when it has one, to be woken by {@link #runOn}. Why here: a thread started
         * by a carrier waits in that carrier's own submission queue, which the scheduler visits after the
         * carrier's local tasks (where woken threads go) and the loop's queue: under load a new
         * connection's first request waited there for seconds (measured: {@code /cpu}, p99 1.3 s). Started
         * by the loop it waits in the loop's queue, in turn with the launcher. May throw
         * {@link RejectedExecutionException} when {@code virtualThreads} has stopped.
         */
        boolean startHere(ExecutorService virtualThreads) {
            int work = owner.offeredLast ? WORK | RETIRED : WORK;
            if (owner.state.get() != NONE || !owner.state.compareAndSet(NONE, work)) {
                return false;
            }
            Runnable next = owner.offered;
            owner.task = next;
            owner.offered = null;
            try {
                owner.start(virtualThreads);
            } catch (RuntimeException | Error e) {
                owner.offered = next; // still offered: the caller may run it another way
                throw e;
            }
            return true;
        }

        /** Runs the offered task on the connection's thread, started untracked if it has none (a stopped server). */
        void runUntracked() {
            Runnable next = owner.offered;
            owner.offered = null;
            owner.run(next, HandOffs::untracked, owner.offeredLast);
        }

        /** Run by an executor that knows nothing of connection threads: the task runs right here. */
        @Override
        public void run() {
            Runnable next = owner.offered;
            owner.offered = null;
            next.run();
        }
    }

    /**
     * Runs {@code next} on this connection's thread: wakes it when parked, tells it when still busy with
     * the previous task's end, or starts it through {@code virtualThreads} when there is none (which may
     * throw {@link java.util.concurrent.RejectedExecutionException} when the server has stopped). A
     * retired connection's task runs on a virtual thread of its own. {@code last}: the thread ends after
     * {@code next} (it is retired with it).
     */
    public void run(Runnable next, Executor virtualThreads, boolean last) {
        int work = last ? WORK | RETIRED : WORK;
        for (;;) {
            int s = state.get();
            if ((s & RETIRED) != 0) {
                virtualThreads.execute(next);
                return;
            }
            // the task is written before the compare-and-set that lets the thread take it, and only then:
            // in WORK the thread may be taking the one there, which must not change under it
            switch (s) {
                case NONE -> {
                    task = next;
                    if (state.compareAndSet(NONE, work)) {
                        start(virtualThreads);
                        return;
                    }
                }
                case RUNNING -> {
                    task = next;
                    if (state.compareAndSet(RUNNING, work)) {
                        return; // it takes the task when it finishes the previous one
                    }
                }
                case IDLE -> {
                    task = next;
                    if (state.compareAndSet(IDLE, work)) {
                        LockSupport.unpark(thread);
                        return;
                    }
                }
                default -> { // WORK
                    if (task == next) {
                        return; // offered again before it was taken: it runs once, which is enough
                    }
                    throw new IllegalStateException("a task offered before the last one was taken");
                }
            }
        }
    }

    private void start(Executor virtualThreads) {
        try {
            virtualThreads.execute(this);
        } catch (RuntimeException | Error e) {
            task = null;
            state.getAndUpdate(s -> s & RETIRED); // back to NONE: nothing runs
            throw e;
        }
    }

    /**
     * The connection lets go of its thread: a parked one ends now, a running one after its task (and a
     * task offered but not yet taken still runs first). Later tasks run on threads of their own.
     */
    public void retire() {
        int previous = state.getAndUpdate(s -> s | RETIRED);
        if (previous == IDLE) {
            LockSupport.unpark(thread);
        }
    }

    /** The thread's life: takes each task offered, parks between them, ends when retired or stopped. */
    @Override
    public void run() {
        thread = Thread.currentThread();
        for (;;) {
            int s = state.get();
            if (!state.compareAndSet(s, (s & RETIRED) | RUNNING)) {
                continue; // only retire() changes a WORK state meanwhile
            }
            Runnable t = task; // left in place: the offering side alone writes it (see run(next, ...))
            try {
                t.run();
            } catch (Throwable e) {
                report(e);
            }
            if (!awaitNext()) {
                return;
            }
        }
    }

    /**
     * What escaped a task (the handler chain answers its own failures), reported as a thread of its own
     * would report it; the thread then goes on with the connection's next request, so a handler that
     * throws from the report too must not end it in RUNNING, where nobody would take the next task.
     */
    static void report(Throwable e) {
        Thread me = Thread.currentThread();
        try {
            me.getUncaughtExceptionHandler().uncaughtException(me, e);
        } catch (Throwable ignored) {
            // nothing more to do with it
        }
    }

    /** Parks until the next task is offered (true), or until retired or the server stops (false). */
    private boolean awaitNext() {
        boolean interrupted = Thread.interrupted();
        for (;;) {
            int s = state.get();
            if ((s & PHASE) == WORK) {
                return true; // offered while the last task ended: it runs, without a stale interrupt
            }
            if ((s & RETIRED) != 0) {
                return false;
            }
            if (interrupted) {
                // the server stops, or the last task left its interrupt behind: either way later tasks
                // get a thread of their own (a stopped server refuses them), never this interrupt
                if (state.compareAndSet(s, NONE)) {
                    return false;
                }
                continue;
            }
            if (s == RUNNING && !state.compareAndSet(RUNNING, IDLE)) {
                continue;
            }
            LockSupport.park(this);
            interrupted = Thread.interrupted();
        }
    }
}
