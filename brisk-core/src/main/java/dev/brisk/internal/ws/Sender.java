package dev.brisk.internal.ws;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A session's outgoing side: builds each message's frame (compressed when that pays), queues it in its
 * {@link Outbound} and has the wire's loop write it, from whichever thread sends. A send from the loop
 * thread while it takes frames just read ({@link #hold}) is written once that is done, so an inline
 * handler answering many messages of one read costs one write; but at once when {@link #HOLD_MAX} bytes
 * or more wait (batching gains nothing then, and a handler sending large messages would otherwise meet
 * the outbound limit with bytes the socket could have taken), and when the handler waits on a send's
 * future ({@link #beforeWait}). A send from another thread posts one write task at a time. Tracks how
 * long a write has made no progress, for the write timeout.
 *
 * <p>A send past the outbound limits is refused and reported once to its {@link WebSocketConnection}
 * ({@code tooSlow}), which closes the session with 1008.
 *
 * <p>Threads: {@link #message} and {@link #queued} from any thread; the rest on the loop thread.
 */
final class Sender {
    /** Queued bytes from which a send during a hold is written at once. */
    static final long HOLD_MAX = 64 * 1024;
    private final Wire wire;
    private final WebSocketConnection conn;
    private final WebSockets ws;
    private final Outbound outbound;
    private final MessageDeflater deflater;
    private final long writeNanos;
    /** {@link #HOLD_MAX}, or half the outbound limit when that is smaller. */
    private final long holdMax;
    private final AtomicBoolean flushPosted = new AtomicBoolean();
    private final AtomicBoolean tooSlow = new AtomicBoolean();
    /**
     * Held by a sender while it compresses and queues one message, so the queue's order is the order of
     * compression (a kept window needs it). Not the {@link Outbound}'s own lock, which the loop takes to
     * write: a write never waits for a compression.
     */
    private final java.util.concurrent.locks.ReentrantLock sendLock = new java.util.concurrent.locks.ReentrantLock();
    /** Set once the session closed: the compressor is to be ended (see {@link #endDeflater}). */
    private final AtomicBoolean ending = new AtomicBoolean();
    /** Under {@link #sendLock}: the compressor was ended (given back to its pool). */
    private boolean deflaterEnded;
    private final Runnable completeTask = () -> {
        completionPosted = false;
        completeWritten();
    };
    private final Runnable flushTask = () -> {
        flushPosted.set(false);
        flush();
    };
    // loop thread only
    /** The futures of messages just written, completed once the write is over ({@link #completeWritten}). */
    private final java.util.ArrayList<CompletableFuture<Void>> written = new java.util.ArrayList<>();
    /** A {@link #flush} runs: a flush asked for meanwhile (from a completion's callback) is its next round. */
    private boolean flushing;
    /** {@link #completeTask} is posted and has not run yet. */
    private boolean completionPosted;
    private boolean again;
    private boolean holding;
    private boolean dirty;
    private long stalledSince;

    /** @param deflater the session's compressor when permessage-deflate was agreed, else null */
    Sender(Wire wire, WebSocketConnection conn, WebSockets ws, MessageDeflater deflater) {
        this.wire = wire;
        this.conn = conn;
        this.ws = ws;
        this.outbound = new Outbound(ws.options().outboundLimit(), ws.budget());
        this.holdMax = Math.min(HOLD_MAX, ws.options().outboundLimit() / 2); // a small limit is not met by a hold alone
        this.deflater = deflater;
        this.writeNanos = ws.writeTimeoutNanos();
    }

    /** Queues a data message and has it written. Any thread. */
    CompletableFuture<Void> message(int opcode, byte[] data, int off, int len) {
        if (!conn.isOpen()) {
            return closed();
        }
        CompletableFuture<Void> f = new SendFuture<>(this);
        int r;
        sendLock.lock();
        try {
            if (!conn.isOpen() || deflaterEnded) {
                return closed(); // the deflater may be ended: compress nothing once the session is over
            }
            byte[] z = deflater == null ? null : deflater.compress(data, off, len);
            ByteBuffer frame = z == null ? Frames.frame(opcode, false, data, off, len)
                    : Frames.frame(opcode, true, z, 0, z.length);
            r = outbound.offer(frame, f, false);
        } finally {
            sendLock.unlock();
            if (ending.get()) {
                // the session closed while this one held the lock (on any way out): the deflater may be left to
                // us; whoever holds the lock last ends it
                endDeflater();
            }
        }
        if (r == Outbound.OK) {
            ws.stats().messagesOut.increment();
            request();
        } else if (r == Outbound.LIMIT) {
            f.completeExceptionally(new ClientDisconnectedException(
                    "WebSocket session closed: more unsent bytes than ws-outbound-limit allows"));
            refused();
        } else {
            return closed();
        }
        return f;
    }

    private static CompletableFuture<Void> closed() {
        return CompletableFuture.failedFuture(new ClientDisconnectedException("WebSocket session is closed"));
    }

    /** A ping or a pong; refused past the limits like a message (a peer that pings and reads no pongs). */
    void control(int opcode, byte[] payload) {
        if (outbound.offer(Frames.frame(opcode, false, payload, 0, payload.length), null, false) == Outbound.LIMIT) {
            refused();
            return;
        }
        request();
    }

    /** The session's last frame (a close): queued whatever the limits, and nothing after it. */
    void last(ByteBuffer closeFrame) {
        outbound.offer(closeFrame, null, true);
        request();
    }

    /** Whether a send was refused for the limits: the session is then to end with 1008. Any thread. */
    boolean tooSlow() {
        return tooSlow.get();
    }

    private void refused() {
        if (tooSlow.compareAndSet(false, true)) {
            ws.stats().slowReceivers.increment();
            conn.tooSlowReceiver();
        }
    }

    /** Sends from the loop thread wait until {@link #release}: frames just read are being taken. */
    void hold() {
        holding = true;
    }

    /** Writes what was sent while held. */
    void release() {
        holding = false;
        if (dirty) {
            dirty = false;
            flush(true, false);
        }
    }

    /** Has what is queued written: now, at the end of a hold, or by a task on the loop. */
    private void request() {
        if (wire.inLoop()) {
            if (holding && outbound.queued() < holdMax) {
                dirty = true;
            } else {
                dirty = false;
                flush(holding, true);
            }
        } else if (flushPosted.compareAndSet(false, true)) {
            wire.execute(flushTask);
        }
    }

    /** Writes what the socket takes; the rest on the next writable event. Loop thread. */
    void flush() {
        flush(false, false);
    }

    /**
     * As {@link #flush()}. {@code reader}: this is the thread that reads the peer, between two reads
     * (frames just taken); a blocking write then keeps it from hearing the peer, and that time is not the
     * peer's silence. A write from another thread (a task on a duplex blocking wire) runs while the reader
     * still listens, so it earns no such credit. {@code inSend}: called within a send from the loop
     * thread; the futures written then complete in a task after it, not before the send returns: a future
     * complete on return runs a {@code thenRun} at once, inside the caller, and a chain of such sends
     * would recurse a level per message.
     */
    private void flush(boolean reader, boolean inSend) {
        if (flushing) {
            // a send from a completion's callback below (a chain of thenRun sends): the running flush goes
            // round again, so such a chain is a loop on one stack, not a write nested per message
            again = true;
            return;
        }
        flushing = true;
        try {
            boolean more;
            do {
                again = false;
                long before = outbound.queued();
                boolean all = flushOnce(reader);
                if (inSend) {
                    completeLater();
                } else {
                    completeWritten();
                }
                // round again for sends from the callbacks; on a blocking wire (no writable event to come) also
                // after the write's own bound on rounds, while it makes progress
                more = !conn.isClosed() && (again || !all && wire.blocking() && outbound.queued() < before);
            } while (more);
        } finally {
            flushing = false;
        }
    }

    /** Has {@link #completeWritten} run in a task on the loop, once for all written until it runs. */
    private void completeLater() {
        if (!written.isEmpty() && !completionPosted) {
            completionPosted = true;
            wire.execute(completeTask);
        }
    }

    /** Completes the futures of the messages written: outside the write, since their callbacks may send. */
    private void completeWritten() {
        while (!written.isEmpty()) { // a callback waiting on a send (beforeWait) may add more meanwhile
            if (written.size() == 1) {
                written.remove(0).complete(null);
                continue;
            }
            java.util.List<CompletableFuture<Void>> done = new java.util.ArrayList<>(written);
            written.clear();
            for (CompletableFuture<Void> f : done) {
                f.complete(null);
            }
        }
    }

    /** One flush: writes what the socket takes; true when everything queued is written. */
    private boolean flushOnce(boolean reader) {
        if (conn.isClosed()) {
            return false;
        }
        boolean all;
        boolean deaf = reader && wire.blocking();
        long began = deaf ? wire.clock() : 0;
        try {
            long before = outbound.queued();
            all = outbound.flush(wire, written);
            if (deaf) {
                conn.deaf(began, wire.clock()); // a blocking write on the reading thread: nothing was read meanwhile
            }
            if (!all && outbound.queued() != before) {
                stalledSince = wire.clock(); // progress: the write timeout counts from here
            }
        } catch (IOException e) {
            conn.writeFailed(e);
            return false;
        }
        if (all) {
            stalledSince = 0;
            wire.writeInterest(false);
            conn.allWritten();
        } else {
            if (stalledSince == 0) {
                stalledSince = wire.clock();
            }
            wire.writeInterest(true);
        }
        return all;
    }

    /**
     * A thread is about to wait on {@code sent}, a send's future or one derived from it. On the loop
     * thread nothing else would write the session while this one waits, so what is queued is written
     * now: on a blocking wire each write returns once all it was given is taken (or fails, which closes
     * the session and fails the futures); on a selector loop the socket takes what it can at once, and
     * if that leaves bytes queued and {@code sent} not done, the wait fails instead of stopping the loop
     * for good. Other threads just wait. Any thread.
     *
     * @throws IllegalStateException on a selector loop's thread, when the socket cannot take what is queued now
     */
    void beforeWait(CompletableFuture<?> sent) {
        if (sent.isDone() || !wire.inLoop()) {
            return;
        }
        dirty = false;
        boolean progress;
        do {
            // directly, even from a completion's callback inside a running flush: the queue is between writes
            long before = outbound.queued();
            flushOnce(holding);
            progress = outbound.queued() < before;
            completeWritten(); // callbacks may send more (thenCompose): queued again, written next round
        } while (!sent.isDone() && !conn.isClosed() && progress && outbound.queued() > 0);
        if (!sent.isDone() && !wire.blocking() && outbound.queued() > 0) {
            throw new IllegalStateException("a WebSocket handler on the I/O loop's thread waited for a send the socket"
                    + " cannot take now, which would stop the loop: use the future's callbacks, or dispatch the route"
                    + " to virtual threads");
        }
    }

    /** Whether a write has made no progress for the write timeout. */
    boolean stalled(long now) {
        return stalledSince != 0 && now - stalledSince > writeNanos;
    }

    /** When a stalled write times out, or {@code fallback} when none is stalled. */
    long stallDeadline(long fallback) {
        if (stalledSince == 0) {
            return fallback;
        }
        long at = stalledSince + writeNanos;
        return at - fallback < 0 ? at : fallback;
    }

    /** Bytes queued and not yet written. Any thread. */
    long queued() {
        return outbound.queued();
    }

    /** Drops the frames not yet begun: a slow receiver's close must not wait behind them. */
    void dropUnstarted() {
        outbound.dropUnstarted();
    }

    /**
     * The session is over: queued frames are dropped (their futures fail), the compressor is ended —
     * now, or by the sender compressing right now once it is done (the loop does not wait for it).
     */
    void close() {
        outbound.close(); // first: the unwritten ones fail, so a callback below waiting on one does not wait
        completeWritten(); // written before the end: their task may never run now
        if (deflater != null) {
            ending.set(true);
            endDeflater();
        }
    }

    /** Ends the compressor unless a sender holds it (that sender ends it after: it checks {@link #ending} once unlocked). */
    private void endDeflater() {
        if (deflater != null && sendLock.tryLock()) {
            try {
                if (!deflaterEnded) {
                    deflaterEnded = true;
                    deflater.end();
                }
            } finally {
                sendLock.unlock();
            }
        }
    }
}
