package dev.brisk.internal.http1;

import dev.brisk.internal.web.Exchange;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Pipelined requests whose handlers run one after another in one hand-off to the connection's virtual
 * thread, instead of one hand-off there and back per request. The loop parses the requests already
 * buffered behind the first, as long as each is one a handler may run ahead of its turn for (see
 * {@link Http1Connection}); the thread runs their handlers in order and tells the loop of each as it
 * ends, so a handler that blocks holds back no answer before it; the loop writes the answers in order,
 * those ready together in one write.
 *
 * <pre>
 *   member i:  parsed ──(the thread ran its handler)──▶ ended ──(its turn: i == cursor)──▶ sent ──▶ written
 *   cursor:    0 ──answer 0 written──▶ 1 ──▶ … ──▶ size − 1 ──written──▶ (the run is over: READ_HEAD)
 *   the thread stops at member s (an answer before it is a stream or over 16 KiB, the server drains, the
 *   connection is gone, or the slice is spent): members s… are not run ahead; each is dispatched alone
 *   in its turn
 * </pre>
 *
 * <p>Threads: made and read on the loop; {@link #member} and {@link #ended(int)} also on the
 * connection's thread, which sees the members through the hand-off that started it. Each member's end
 * is set here by that thread (so the loop, writing one answer, sees which next ones are ready and
 * writes them together) and then told to the loop as a task (so a loop with nothing else to do wakes).
 */
final class PipelineRun {
    /** The most requests one run takes: a bound on the answers the loop holds for one connection. */
    static final int MAX = 16;
    /**
     * How long the thread runs a run's handlers back to back before it stops (the rest go one by one,
     * each in its turn): while it runs them it keeps its carrier, and other connections' handlers wait.
     */
    static final long SLICE_NANOS = 500_000;
    /**
     * The largest answer body after which the thread runs on: answers wait in memory for their turn, so a
     * connection holds at most {@code MAX} of these besides the one being written.
     */
    static final int SMALL_ANSWER = 16 * 1024;

    private final Exchange[] members = new Exchange[MAX];
    private final long[] headAt = new long[MAX];
    /** 1 once a member's handler has ended and its answer is set: written by the connection's thread. */
    private final AtomicIntegerArray ended = new AtomicIntegerArray(MAX);
    private int size;
    private int cursor;
    /** Whether the current member's answer was handed to the writer. */
    private boolean sent;
    /** Whether the current member was dispatched alone, the run having stopped before it. */
    private boolean dispatchedAlone;
    /** The first member the thread did not run (then it runs none after it): MAX while it runs on. */
    private volatile int stoppedAt = MAX;
    /** The connection closed: answers that end from now on are dropped. */
    private boolean discarded;

    /** Adds the next request (its head whole at {@code nanos}); check {@link #full} first. */
    void add(Exchange ex, long nanos) {
        members[size] = ex;
        headAt[size] = nanos;
        size++;
    }

    boolean full() {
        return size == MAX;
    }

    int size() {
        return size;
    }

    Exchange member(int i) {
        return members[i];
    }

    /** The member being answered. */
    int cursor() {
        return cursor;
    }

    /** Member {@code i}'s handler has ended and its answer is set (it may be written in its turn). Any thread. */
    void ended(int i) {
        ended.set(i, 1);
    }

    private boolean isEnded(int i) {
        return ended.get(i) == 1;
    }

    /**
     * Whether the current member's answer is to be written now: its handler has ended and it was not
     * handed to the writer yet. True once per member (it is then taken as sent).
     */
    boolean takeCurrent() {
        if (sent || !isEnded(cursor)) {
            return false;
        }
        sent = true;
        return true;
    }

    /** Whether a member follows the one being answered. */
    boolean hasNext() {
        return cursor + 1 < size;
    }

    /** Whether the member after the one being answered has ended too: their answers may go out together. */
    boolean nextDone() {
        return cursor + 1 < size && isEnded(cursor + 1);
    }

    /** The cursor moves to the next member, which it returns. */
    Exchange advance() {
        sent = false;
        dispatchedAlone = false;
        return members[++cursor];
    }

    /**
     * The thread runs no member from {@code i} on (an earlier answer may end the connection, or the
     * slice is spent): each is dispatched alone in its turn. Connection's thread.
     */
    void stopAt(int i) {
        stoppedAt = i;
    }

    /**
     * Whether the current member is to be dispatched alone now: the thread stopped before it, and it
     * was not dispatched yet. True once per member.
     */
    boolean takeStopped() {
        if (cursor < stoppedAt || dispatchedAlone) {
            return false;
        }
        dispatchedAlone = true;
        return true;
    }

    /** When the current member's head was whole. */
    long headAt() {
        return headAt[cursor];
    }

    /** Whether the connection closed during the run ({@link #discard}). */
    boolean discarded() {
        return discarded;
    }

    /** The connection closed: the answers of members not written yet are dropped (their streams closed). */
    void discard() {
        discarded = true;
        for (int i = cursor + 1; i < size; i++) {
            if (isEnded(i)) {
                Exchange.closeQuietly(members[i].responseStream());
            }
        }
    }
}
