package dev.brisk.internal.ops;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-flight request limit with a short bounded queue, checked right after a request head is
 * parsed and its route found, before its body is read. Lock-free: a CAS on the in-flight count; a
 * freed slot passes straight to the oldest waiter, so waiting requests are served in order.
 *
 * <p>A waiter is a {@link Ticket}: exactly one of "granted a slot", "timed out" and "cancelled" wins
 * its CAS, so a slot is never lost nor given twice, whichever threads race.
 */
public final class AdmissionControl {
    /** A request waiting for a slot. */
    public static final class Ticket {
        static final int WAITING = 0;
        static final int GRANTED = 1;
        static final int GONE = 2;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final Runnable onGrant;

        /** {@code onGrant} runs (on the releasing thread) once a slot is this ticket's: it must hand off quickly. */
        public Ticket(Runnable onGrant) {
            this.onGrant = onGrant;
        }

        /**
         * Gives up waiting (timeout, close); true when it was still waiting, so no slot is held. The
         * ticket leaves the queue at once: left for the next grant to skip, tickets of requests that timed
         * out piled up, with their connections' callbacks, for as long as every slot stayed taken.
         */
        public boolean abandon(AdmissionControl owner) {
            if (state.compareAndSet(WAITING, GONE)) {
                owner.queued.decrementAndGet();
                owner.queue.remove(this); // the queue holds at most request-queue-size live tickets: short
                return true;
            }
            return false;
        }
    }

    private final ConcurrencyLimit limit;
    private final int queueSize;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final ConcurrentLinkedQueue<Ticket> queue = new ConcurrentLinkedQueue<>();

    public AdmissionControl(ConcurrencyLimit limit, int queueSize) {
        this.limit = limit;
        this.queueSize = queueSize;
    }

    /** Takes a slot if one is free: the common, allocation-free path. */
    public boolean tryAcquire() {
        return tryTakeSlot();
    }

    /**
     * After {@link #tryAcquire} failed: a place in the queue (true; the ticket's grant will follow,
     * possibly at once), or none (false: refuse the request).
     */
    public boolean enqueue(Ticket ticket) {
        if (queueSize == 0) {
            return false;
        }
        if (queued.incrementAndGet() > queueSize) {
            queued.decrementAndGet();
            return false;
        }
        queue.add(ticket);
        // a slot may have been freed between the failed take and the add, with nobody left to pass it on
        grantFreeSlots();
        return true;
    }

    /**
     * A request that held a slot is done: its latency feeds the limit, and the slot goes to the oldest
     * waiter, else back to the pool. It goes back to the pool also when the limit has come down below the
     * requests in flight (an adaptive limit cut it): under sustained overload the queue is never empty,
     * and handing every slot on would keep the in-flight count at its old height for good.
     */
    public void release(long rttNanos, boolean dropped) {
        limit.onSample(rttNanos, inFlight.get(), dropped);
        giveBack();
    }

    /**
     * A request that held a slot ends without having reached its handler (refused while its body was
     * read, its connection closed): the slot goes on as above, but its time was the client's, not the
     * server's, so it is no latency sample for the limit.
     */
    public void releaseUnmeasured() {
        giveBack();
    }

    private void giveBack() {
        int n = inFlight.get();
        if (n <= limit.current() && grantNext()) {
            return;
        }
        inFlight.decrementAndGet();
        // a waiter may have queued after grantNext looked and before the slot came back
        grantFreeSlots();
    }

    /** Hands free slots to waiters while both exist. */
    private void grantFreeSlots() {
        while (!queue.isEmpty() && tryTakeSlot()) {
            if (!grantNext()) {
                inFlight.decrementAndGet(); // the waiters had all gone: the slot goes back
                break;
            }
        }
    }

    /** Gives a slot that is already counted to the oldest live waiter; false if there is none. */
    private boolean grantNext() {
        Ticket t;
        while ((t = queue.poll()) != null) {
            if (t.state.compareAndSet(Ticket.WAITING, Ticket.GRANTED)) {
                queued.decrementAndGet();
                t.onGrant.run();
                return true;
            }
        }
        return false;
    }

    private boolean tryTakeSlot() {
        while (true) {
            int n = inFlight.get();
            if (n >= limit.current()) {
                return false;
            }
            if (inFlight.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Tickets in the queue, live or not (a grant may still have to skip a few): for tests. */
    int queueLength() {
        return queue.size();
    }

    public int queued() {
        return queued.get();
    }

    public int limit() {
        return limit.current();
    }
}
