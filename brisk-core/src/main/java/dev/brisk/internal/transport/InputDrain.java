package dev.brisk.internal.transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The end of a connection whose peer may still be sending: output shut, and what still arrives read
 * and dropped, one buffer per readiness (so that many such connections draining at once share the
 * loop with everything else), for at most a number of bytes and a time, then closed. Closing at once
 * with unread input would make the kernel reset the connection, which can destroy the last answer
 * before the peer reads it. A protocol of its own, which takes the wire over from the one that wrote
 * that answer (an HTTP/1.1 lingering close, a plain-HTTP refusal on a TLS port), the seam an upgrade uses.
 *
 * <pre>
 *   (started) ──output shut──▶ DRAINING ──end of stream / its bytes / its time / error──▶ CLOSED
 * </pre>
 *
 * <p>Where the transport drains better itself ({@link Wire#lingerElsewhere}: the blocking engine's one
 * lingering thread, instead of each connection's thread draining its socket dry before the next runs),
 * it gets the socket once the output is shut, and no drain is made.
 *
 * <p>Loop thread only.
 */
public final class InputDrain implements Protocol {
    private final Wire wire;
    private final long maxBytes;
    private final Runnable ended;
    private ByteBuffer scratch;
    private long deadline;
    private long bytes;
    private boolean closed;

    private InputDrain(Wire wire, ByteBuffer scratch, long maxBytes, Runnable ended) {
        this.wire = wire;
        this.scratch = scratch;
        this.maxBytes = maxBytes;
        this.ended = ended;
    }

    /**
     * Shuts {@code wire}'s output and drains it; its old protocol must not touch it again. Never throws.
     *
     * @param scratch a pooled buffer ({@code wire.inPool()}) to read into, given to the drain, or null
     * @param maxBytes the most bytes read and dropped
     * @param nanos the longest the drain lasts
     * @param started runs once the output is shut (the drain has begun), before anything else
     * @param ended runs once the socket is closed, if {@code started} ran
     */
    public static void start(Wire wire, ByteBuffer scratch, long maxBytes, long nanos, Runnable started,
            Runnable ended) {
        try {
            wire.shutdownOutput();
        } catch (IOException | RuntimeException e) {
            if (scratch != null) {
                wire.inPool().release(scratch);
            }
            wire.close();
            return;
        }
        started.run();
        if (wire.lingerElsewhere(maxBytes, nanos, ended)) {
            if (scratch != null) {
                wire.inPool().release(scratch); // the transport drains with a buffer of its own
            }
            return;
        }
        InputDrain d = new InputDrain(wire, scratch != null ? scratch : wire.inPool().acquire(), maxBytes, ended);
        wire.protocol(d);
        d.deadline = wire.clock() + nanos;
        wire.deadline(d.deadline);
        wire.writeInterest(false);
        wire.readInterest(true);
        d.onReadable();
    }

    @Override
    public void onReadable() {
        if (closed) {
            return;
        }
        try {
            // one read per turn, like a connection reading a request: a flood of refused uploads
            // draining at once must not hold the loop away from the connections it serves
            scratch.clear();
            onBytes(null, wire.read(scratch));
        } catch (IOException e) {
            close();
        }
    }

    @Override
    public void onWritable() {
        wire.writeInterest(false); // nothing more goes out
    }

    @Override
    public void onTimer(long now) {
        if (now - deadline > 0) {
            close();
        }
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (n < 0 || (bytes += n) > maxBytes) {
            close();
        }
    }

    @Override
    public void drain() {
        // closing already, within its own bound: closing now with input unread could reset the answer
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ended.run();
        wire.inPool().release(scratch);
        scratch = null;
        wire.close();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean idle() {
        return false; // the peer may still be reading the last answer
    }

    @Override
    public boolean holdsInput() {
        return true;
    }

    @Override
    public boolean awaitsTask() {
        return false;
    }
}
