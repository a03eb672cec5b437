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
 * handler answering many messages of one read costs one write; a send from another thread posts one
 * write task at a time. Tracks how long a write has made no progress, for the write timeout.
 *
 * <p>A send past the outbound limits is refused and reported once to its {@link WebSocketConnection}
 * ({@code tooSlow}), which closes the session with 1008.
 *
 * <p>Threads: {@link #message} and {@link #queued} from any thread; the rest on the loop thread.
 */
final class Sender {
    private final Wire wire;
    private final WebSocketConnection conn;
    private final WebSockets ws;
    private final Outbound outbound;
    private final MessageDeflater deflater;
    private final long writeNanos;
    private final AtomicBoolean flushPosted = new AtomicBoolean();
    private final AtomicBoolean tooSlow = new AtomicBoolean();
    private final Runnable flushTask = () -> {
        flushPosted.set(false);
        flush();
    };
    // loop thread only
    private boolean holding;
    private boolean dirty;
    private long stalledSince;

    /** @param deflater the session's compressor when permessage-deflate was agreed, else null */
    Sender(Wire wire, WebSocketConnection conn, WebSockets ws, MessageDeflater deflater) {
        this.wire = wire;
        this.conn = conn;
        this.ws = ws;
        this.outbound = new Outbound(ws.options().outboundLimit(), ws.budget());
        this.deflater = deflater;
        this.writeNanos = ws.writeTimeoutNanos();
    }

    /** Queues a data message and has it written. Any thread. */
    CompletableFuture<Void> message(int opcode, byte[] data, int off, int len) {
        if (!conn.isOpen()) {
            return closed();
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        int r;
        outbound.lock().lock();
        try {
            if (!conn.isOpen()) {
                return closed(); // the deflater may be ended: compress nothing once the session is over
            }
            byte[] z = deflater == null ? null : deflater.compress(data, off, len);
            ByteBuffer frame = z == null ? Frames.frame(opcode, false, data, off, len)
                    : Frames.frame(opcode, true, z, 0, z.length);
            r = outbound.offer(frame, f, false);
        } finally {
            outbound.lock().unlock();
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
            flush(true);
        }
    }

    /** Has what is queued written: now, at the end of a hold, or by a task on the loop. */
    private void request() {
        if (wire.inLoop()) {
            if (holding) {
                dirty = true;
            } else {
                flush();
            }
        } else if (flushPosted.compareAndSet(false, true)) {
            wire.execute(flushTask);
        }
    }

    /** Writes what the socket takes; the rest on the next writable event. Loop thread. */
    void flush() {
        flush(false);
    }

    /**
     * As {@link #flush()}; {@code reader} when this is the thread that reads the peer, between two
     * reads (frames just taken): a blocking write then keeps it from hearing the peer, and that time is
     * not the peer's silence. A write from another thread (a task on a duplex blocking wire) runs while
     * the reader still listens, so it earns no such credit.
     */
    private void flush(boolean reader) {
        if (conn.isClosed()) {
            return;
        }
        boolean all;
        boolean deaf = reader && wire.blocking();
        long began = deaf ? wire.clock() : 0;
        try {
            long before = outbound.queued();
            all = outbound.flush(wire);
            if (deaf) {
                conn.deaf(began, wire.clock()); // a blocking write on the reading thread: nothing was read meanwhile
            }
            if (!all && outbound.queued() != before) {
                stalledSince = wire.clock(); // progress: the write timeout counts from here
            }
        } catch (IOException e) {
            conn.writeFailed(e);
            return;
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

    /** The session is over: queued frames are dropped (their futures fail), the compressor is ended. */
    void close() {
        outbound.close();
        if (deflater != null) {
            outbound.lock().lock(); // a sender may be compressing right now
            try {
                deflater.end();
            } finally {
                outbound.lock().unlock();
            }
        }
    }
}
