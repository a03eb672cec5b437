package dev.brisk.internal.transport;

import java.util.ArrayList;
import java.util.concurrent.Executor;

/**
 * A loop's kept virtual threads for handlers that have no connection thread of their own (an HTTP/2
 * stream's, a WebSocket session's queue of message handlers). The loop queues such a handler; a spare
 * takes handlers from the queue one after another and parks when it finds it empty. A spare that takes
 * a handler while others wait and no other spare is awake to take them wakes one before it runs its
 * own, so a handler that blocks never holds back the ones behind it. Why: a thread started per stream,
 * or a spare woken per stream, costs a start or a park and an unpark each; with many streams in one
 * turn, one or two wake-ups serve them all.
 *
 * <pre>
 *   made ──woken──▶ searching ──takes a handler──▶ running it ──quick──▶ takes the next ─┐
 *    ▲                 │          (wakes another first           │                        │
 *    │                 │           when handlers wait and        │ slow: parks, and wakes │
 *    │                 │           none is searching)            │ a spare per waiting    │
 *    │                 ▼ the queue is empty                      ▼ handler                │
 *    └─ retired ◀── parked (on the idle stack) ◀─────────────────┴────────────────────────┘ empty
 *      (unused for a scan period, or the loop has ended)
 * </pre>
 *
 * <p>Fairness. Wake-ups reach the scheduler as every other of the loop's do (see {@link HandOffs}): the
 * loop's go through its launcher; a spare wakes a parked spare itself (into its carrier's local queue,
 * where the launcher's wake-ups go too); a spare that must be started (none parked, or one whose thread
 * ended) is started by the loop, because a thread started by a carrier waits behind every woken one and
 * would hold the queue up meanwhile. Handlers run back to back share one place in the scheduler's
 * queue, which is right for quick ones and unfair for slow ones: beside 50 HTTP/1.1 connections with
 * CPU-bound handlers, ten streams served so got a fifth of the answers they got with a thread each. So a
 * handler that took over {@value #SLOW_NANOS} ns (it worked or blocked), or the last of a run of
 * {@value #SLICE_NANOS} ns, makes the spare park instead of taking the next, and while handlers are
 * slow each waiting one gets a spare woken for it, as a thread per stream would. (Not a yield: a
 * yielding virtual thread waits in a queue the scheduler visits after the woken threads' one, where it
 * waited for hundreds of milliseconds.)
 *
 * <p>A handler may find a previous stream's {@code ThreadLocal}s, as on any pool; an interrupt it leaves
 * set is cleared before the next. How many spares: as many as were woken at once, each the thread such
 * a stream had before; those unused between two scans (100 ms) are retired, so an idle loop keeps none.
 *
 * <p>Threads: {@link #offer}, {@link #startAsked}, {@link #trim} and {@link #close} on the owning loop's
 * thread only; a spare takes handlers, and wakes or asks for others, on its own. The queue, the idle
 * stack and the count of searching spares are guarded by one lock, held for a few field updates and
 * never across a handler.
 */
final class SpareThreads {
    /** A handler that took longer than this (blocked, or worked) makes its queue's handlers slow. */
    static final long SLOW_NANOS = 50_000L;
    /** How long a spare runs handlers back to back before it lets other threads have its carrier. */
    static final long SLICE_NANOS = 1_000_000L;

    private final Object lock = new Object();
    /** Hands a task to the owning loop, from any thread. */
    private final Executor loop;
    /** Handlers waiting, first in first out: a ring of {@code pending.length} slots. */
    private Runnable[] pending = new Runnable[64];
    private int first;
    private int waiting;
    /** Parked spares, newest first. */
    private Spare idle;
    /** Spares woken (or being started) that have not yet taken a handler. */
    private int searching;
    /**
     * Whether the last handler run was slow: then each waiting handler gets a spare of its own, as a
     * thread per stream would, instead of waiting for one that runs them one after another.
     */
    private boolean slow;
    /** Set once the loop has ended: a spare that finds the queue empty then ends instead of parking. */
    private boolean closed;
    /** The executor the loop's handlers were given to ({@link HandOffs#executor}): the loop's only. */
    private Executor starter;
    /** Spares' threads (each given its first task) for the loop to start as its turn ends: guarded. */
    private final ArrayList<Runnable> toStart = new ArrayList<>();
    /** Whether {@link #toStart} may hold any: read without the lock by the loop at every turn's end. */
    private volatile boolean startsAsked;
    /** Wakes a waiting loop up to start what {@link #toStart} holds. */
    private static final Runnable NOTHING = () -> { };

    SpareThreads(Executor loop) {
        this.loop = loop;
    }

    /** One kept thread, taking handlers from the queue each time it is woken. */
    private static final class Spare implements Runnable {
        private final SpareThreads owner;
        private final ConnectionThread thread = new ConnectionThread();
        /** The next parked spare while this one is on the idle stack. */
        private Spare next;
        /** Whether woken since the last scan: guarded by the lock. */
        private boolean used;

        Spare(SpareThreads owner) {
            this.owner = owner;
        }

        @Override
        public void run() {
            Runnable task = owner.take(this, false, false);
            long began = System.nanoTime();
            long sliceStart = began;
            while (task != null) {
                try {
                    task.run();
                } catch (Throwable e) {
                    ConnectionThread.report(e);
                }
                Thread.interrupted(); // a handler's interrupt is not the next one's
                long now = System.nanoTime();
                task = owner.take(this, true, now - began > SLOW_NANOS || now - sliceStart > SLICE_NANOS);
                began = now;
            }
        }
    }

    /**
     * Queues {@code task}, to run on a spare, and gives what {@code starter} (the loop's executor of
     * virtual threads, {@link HandOffs#executor}) must be given for it: a spare to wake, or null when a
     * spare already awake will take it. Allocates nothing while a spare is parked and the queue has room.
     */
    Runnable offer(Runnable task, Executor starter) {
        this.starter = starter;
        Spare wake;
        synchronized (lock) {
            add(task);
            if (searching > 0 && !(slow && searching < waiting)) {
                return null;
            }
            searching++;
            wake = popIdle();
        }
        if (wake == null) {
            wake = new Spare(this);
            wake.used = true; // not yet seen by a scan; written before the thread exists
        }
        return wake.thread.offer(wake, false);
    }

    /**
     * The next handler for {@code s}, or null when there is none: it then waits on the idle stack (or,
     * the loop having ended, is retired). {@code after}: {@code s} has just run one, slow or not
     * ({@code lastSlow}). Its own thread.
     */
    private Runnable take(Spare s, boolean after, boolean lastSlow) {
        Spare wake = null;
        boolean wakeNew = false;
        Runnable task;
        synchronized (lock) {
            if (after) {
                slow = lastSlow;
            }
            // after a slow one this spare parks, and the next handler waits for its turn on the carrier
            // behind the other threads, on a spare woken for it: a yield would queue this one behind
            // them in a queue visited after theirs. Once the loop has ended, the spares left finish the
            // queue themselves.
            task = lastSlow && !closed ? null : poll();
            if (!after) {
                searching--;
            }
            // handlers wait and nobody will take them: wake another first (before this one may park).
            // While handlers are slow, one for each; this one, if it parks, is one of those not searching
            if (waiting > 0 && (searching == 0 || slow && searching < waiting)) {
                searching++;
                wake = popIdle();
                wakeNew = wake == null;
            }
            if (task == null) {
                if (closed) {
                    s.thread.retire();
                } else {
                    s.next = idle;
                    idle = s;
                }
            }
        }
        if (wakeNew) {
            wake = new Spare(this);
            wake.used = true; // written before its thread exists
        }
        if (wake != null) {
            // parked: an unpark from this carrier; a new one, or one whose thread ended (interrupted), is
            // started by the loop
            wake.thread.run(wake, this::startFromLoop, false);
        }
        return task;
    }

    /**
     * Has the loop start {@code thread} (a spare's, given its first task) as its turn ends, into its own
     * queue (see the class comment); once the loop has ended, starts it here, untracked. Any thread.
     */
    private void startFromLoop(Runnable thread) {
        boolean ended;
        synchronized (lock) {
            ended = closed;
            if (!ended) {
                toStart.add(thread);
                startsAsked = true;
            }
        }
        if (ended) {
            HandOffs.untracked(thread);
        } else {
            loop.execute(NOTHING); // a loop waiting for events turns now
        }
    }

    /** Starts the spares' threads asked for since the last turn. The loop's thread, as its turn ends. */
    void startAsked() {
        if (!startsAsked) {
            return; // nearly always: a turn costs a volatile read here, not a lock
        }
        Runnable[] asked;
        synchronized (lock) {
            startsAsked = false;
            asked = toStart.toArray(new Runnable[0]);
            toStart.clear();
        }
        for (Runnable t : asked) {
            start(t);
        }
    }

    /** Starts a spare's thread from the loop's thread, into the loop's queue (see the class comment). */
    private void start(Runnable thread) {
        Executor s = starter;
        if (s == null) {
            HandOffs.untracked(thread);
        } else {
            try {
                s.execute(thread); // a plain task: the loop starts it as its turn ends
            } catch (RuntimeException e) {
                HandOffs.untracked(thread); // the server stops: queued handlers still get answered
            }
        }
    }

    /** The loop's scan: retires every parked spare not woken since the previous scan. */
    void trim() {
        Spare retired = null;
        synchronized (lock) {
            Spare kept = null;
            Spare s = idle;
            while (s != null) {
                Spare next = s.next;
                if (s.used) {
                    s.used = false;
                    s.next = kept;
                    kept = s;
                } else {
                    s.next = retired;
                    retired = s;
                }
                s = next;
            }
            idle = kept;
        }
        retireAll(retired);
    }

    /**
     * The loop has ended: every parked spare ends now, a busy one once the queue is empty, and one the
     * loop was to start is started untracked (the queue it was woken for must still be served).
     */
    void close() {
        Spare s;
        Runnable[] asked;
        synchronized (lock) {
            closed = true;
            s = idle;
            idle = null;
            asked = toStart.toArray(new Runnable[0]);
            toStart.clear();
        }
        retireAll(s);
        for (Runnable t : asked) {
            HandOffs.untracked(t);
        }
    }

    /** Parked spares now; for tests. */
    int parked() {
        synchronized (lock) {
            int n = 0;
            for (Spare s = idle; s != null; s = s.next) {
                n++;
            }
            return n;
        }
    }

    private static void retireAll(Spare s) {
        while (s != null) {
            Spare next = s.next;
            s.next = null;
            s.thread.retire();
            s = next;
        }
    }

    private Spare popIdle() {
        Spare s = idle;
        if (s != null) {
            idle = s.next;
            s.next = null;
            s.used = true;
        }
        return s;
    }

    private void add(Runnable task) {
        if (waiting == pending.length) {
            Runnable[] grown = new Runnable[waiting * 2];
            for (int i = 0; i < waiting; i++) {
                grown[i] = pending[(first + i) & (pending.length - 1)];
            }
            pending = grown;
            first = 0;
        }
        pending[(first + waiting++) & (pending.length - 1)] = task;
    }

    private Runnable poll() {
        if (waiting == 0) {
            return null;
        }
        Runnable t = pending[first];
        pending[first] = null;
        first = (first + 1) & (pending.length - 1);
        waiting--;
        return t;
    }
}
