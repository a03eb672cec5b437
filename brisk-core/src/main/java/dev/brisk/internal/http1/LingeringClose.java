package dev.brisk.internal.http1;

import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The end of a connection whose client may still be sending: output shut, and what still arrives
 * read and dropped for at most {@link #NANOS} and {@link #MAX_BYTES}, then closed; one buffer per
 * readiness, so that many refused uploads draining at once share the loop with everything else. Closing at once
 * with unread input would make the kernel reset the connection, which can destroy the answer just
 * sent before the client reads it. A protocol of its own: an HTTP/1.1 connection that has written its
 * last answer hands its wire over, the same seam an upgrade uses.
 *
 * <pre>
 *   (handed over) ──output shut──▶ DRAINING ──end of stream / 1 MiB / 2 s / error──▶ CLOSED
 * </pre>
 *
 * <p>Where the transport drains better itself ({@link Wire#lingerElsewhere}: the blocking engine's one
 * lingering thread, instead of each connection's thread draining its socket dry before the next runs),
 * it gets the socket once the output is shut, and this protocol is not made.
 *
 * <p>Loop thread only.
 */
public final class LingeringClose implements Protocol {
    static final long NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long MAX_BYTES = 1 << 20;

    private final Wire wire;
    private final Http1Shared shared;
    private ByteBuffer scratch;
    private long deadline;
    private long bytes;
    private boolean closed;

    private LingeringClose(Wire wire, Http1Shared shared, ByteBuffer scratch) {
        this.wire = wire;
        this.shared = shared;
        this.scratch = scratch;
    }

    /**
     * Takes {@code wire} over from its protocol, which must not touch it again.
     *
     * @param scratch a pooled buffer to read into (the old protocol's input buffer), or null
     */
    public static void takeOver(Wire wire, Http1Shared shared, ByteBuffer scratch) {
        try {
            wire.shutdownOutput();
        } catch (IOException e) {
            if (scratch != null) {
                wire.inPool().release(scratch);
            }
            wire.close();
            return;
        }
        shared.lingerStarted();
        if (wire.lingerElsewhere(MAX_BYTES, NANOS, shared::lingerEnded)) {
            if (scratch != null) {
                wire.inPool().release(scratch); // the transport drains with a buffer of its own
            }
            return;
        }
        LingeringClose l = new LingeringClose(wire, shared, scratch != null ? scratch : wire.inPool().acquire());
        wire.protocol(l);
        l.deadline = wire.clock() + NANOS;
        wire.deadline(l.deadline);
        wire.writeInterest(false);
        wire.readInterest(true);
        l.onReadable();
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
            int n = wire.read(scratch);
            if (n < 0 || (bytes += n) > MAX_BYTES) {
                close();
            }
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
        if (n < 0 || (bytes += n) > MAX_BYTES) {
            close();
        }
    }

    @Override
    public void drain() {
        // closing already, within its own bound
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        shared.lingerEnded();
        release();
        wire.close();
    }

    private void release() {
        wire.inPool().release(scratch);
        scratch = null;
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
