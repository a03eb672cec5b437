package dev.brisk.internal.http1;

import dev.brisk.internal.ops.AdmissionControl;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection's side of the in-flight limit: takes a slot for a request before any handler code
 * runs (after a buffered body is read, before a streamed one is), waits in the admission queue when
 * there is none, and gives the slot back
 * exactly once — by completion, failure or close, whichever comes first (hence the atomic flag: a
 * handler's thread completes while the loop may close).
 *
 * <p>Loop thread, except {@link #release} (any thread).
 */
final class AdmissionGate {
    private final AdmissionControl admission;
    private final AtomicBoolean holdsSlot = new AtomicBoolean();
    /** When the handler got the request: an adaptive limit's latency runs from here, not from admission. */
    private long dispatchedAt;
    /** Whether the current request reached its handler (then completion gives the slot back). */
    private boolean dispatched;
    private AdmissionControl.Ticket ticket;

    AdmissionGate(AdmissionControl admission) {
        this.admission = admission;
    }

    /** A new request's head is whole: nothing is dispatched yet. */
    void newRequest() {
        dispatched = false;
    }

    /**
     * The request is handed to its handler (for a streamed body: its handler starts while the body is
     * read). From here the request's time is the server's: before it, reading a body the client may
     * trickle was not, and a latency sample counted from admission let a slow uploader cut an
     * adaptive limit.
     */
    void dispatched() {
        dispatched = true;
        dispatchedAt = System.nanoTime();
    }

    static final int ADMITTED = 0;
    static final int QUEUED = 1;
    static final int FULL = 2;

    /**
     * A slot now ({@link #ADMITTED}), a place in the queue ({@link #QUEUED}: {@code onGrant} runs, on
     * any thread, when a slot is passed on), or neither ({@link #FULL}).
     */
    int admit(Runnable onGrant) {
        if (admission.tryAcquire()) {
            taken();
            return ADMITTED;
        }
        AdmissionControl.Ticket t = new AdmissionControl.Ticket(onGrant);
        if (admission.enqueue(t)) {
            ticket = t;
            return QUEUED;
        }
        return FULL;
    }

    /** The queue passed a slot to this connection. Loop thread. */
    void granted() {
        ticket = null;
        taken();
    }

    /** Leaves the queue on timeout; false when a grant won the race (then it arrives as usual). */
    boolean abandon() {
        if (ticket != null && ticket.abandon(admission)) {
            ticket = null;
            return true;
        }
        return false;
    }

    private void taken() {
        holdsSlot.set(true);
    }

    /**
     * Gives the slot back (once): with the handler's latency for an adaptive limit when the request
     * reached it, else with none. Any thread (the handler's sees the dispatch's writes through the hand-off).
     */
    void release() {
        if (holdsSlot.compareAndSet(true, false)) {
            if (dispatched) {
                admission.release(System.nanoTime() - dispatchedAt, false);
            } else {
                admission.releaseUnmeasured();
            }
        }
    }

    /** Gives the slot back unless the request reached its handler (which gives it back itself). */
    void releaseUndispatched() {
        if (!dispatched) {
            release();
        }
    }

    /** The connection closes: leaves the queue and returns a slot no handler will return. */
    void close(boolean queued) {
        if (queued && ticket != null) {
            ticket.abandon(admission); // if a grant won the race, granted() finds the connection closed
            ticket = null;
        }
        releaseUndispatched();
    }
}
