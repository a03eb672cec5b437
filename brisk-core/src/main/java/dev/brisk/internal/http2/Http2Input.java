package dev.brisk.internal.http2;

import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An HTTP/2 connection's unread bytes: a buffer (pooled, or a larger one of its own for what an earlier
 * protocol handed over) held only while bytes wait in it or a read is in progress; the client's
 * connection preface checked as it arrives, then the frames handed to the {@link FrameReader}. Why the reading flag: on a duplex blocking wire a posted task may close the
 * connection while this thread waits in {@code wire.read}, and the buffer under that read must not go
 * back to the pool until the read returns.
 *
 * <p>Loop thread only (on a duplex blocking wire: whoever holds the wire's turn).
 */
final class Http2Input {
    private final Wire wire;
    /** Write mode: the unread bytes are those from {@link #start} to the position. */
    private ByteBuffer in;
    private int start;
    private int prefaceSeen;
    /** This thread is in {@code wire.read(in)}. */
    private boolean reading;

    Http2Input(Wire wire) {
        this.wire = wire;
    }

    /** Takes bytes an earlier protocol read (an upgrade, a preface detector) as the first input. */
    void putFirst(ByteBuffer buffered) {
        if (buffered == null || !buffered.hasRemaining()) {
            return;
        }
        hold();
        if (in.remaining() < buffered.remaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(buffered.remaining() + in.capacity());
            wire.inPool().release(in);
            in = bigger;
        }
        in.put(buffered);
    }

    /** Reads what the wire has into the buffer: the count, or -1 at the end of the stream. */
    int read() throws IOException {
        hold();
        reading = true;
        try {
            return wire.read(in);
        } finally {
            reading = false;
        }
    }

    /** Appends bytes a completion-based transport delivered. */
    void put(byte[] src, int n) {
        hold();
        in.put(src, 0, n);
    }

    /** Whether the last read filled the buffer: more may be waiting. */
    boolean filled() {
        return in != null && !in.hasRemaining();
    }

    /**
     * Checks the client's preface in what is buffered and consumes it; true once all 24 bytes have come.
     * A byte that differs is a connection error.
     */
    boolean preface() throws Http2Exception {
        if (in == null) {
            return false;
        }
        byte[] a = in.array();
        int n = Math.min(H2.PREFACE.length - prefaceSeen, in.position() - start);
        for (int i = 0; i < n; i++) {
            if (a[start + i] != H2.PREFACE[prefaceSeen + i]) {
                throw new Http2Exception(H2.PROTOCOL_ERROR, "invalid connection preface");
            }
        }
        prefaceSeen += n;
        start += n;
        return prefaceSeen == H2.PREFACE.length;
    }

    /** Hands what is buffered to {@code reader}; what it cannot take yet (part of a frame's header or of a fixed-size payload) stays. */
    void frames(FrameReader reader) throws Http2Exception {
        if (in != null) {
            start = reader.read(in.array(), start, in.position());
        }
    }

    /** Drops what is buffered (the connection is closing: what still arrives is not read). */
    void drop() {
        if (in != null) {
            in.position(start);
        }
    }

    /** Whether no byte waits unread. */
    boolean empty() {
        return in == null || in.position() == start;
    }

    /** Whether a buffer is held. */
    boolean held() {
        return in != null;
    }

    /** Gives the buffer back if nothing waits in it. */
    void releaseIfEmpty() {
        if (in != null && in.position() == start) {
            release();
        }
    }

    /** Gives the buffer back, unless a read is in progress (its thread gives it back when it returns). */
    void releaseUnlessReading() {
        if (!reading) {
            release();
        }
    }

    /** Gives the buffer back. */
    void release() {
        if (in != null) {
            wire.inPool().release(in);
            in = null;
            start = 0;
        }
    }

    private void hold() {
        if (in == null) {
            in = wire.inPool().acquire();
            start = 0;
        } else if (!in.hasRemaining() && start > 0) {
            in.flip().position(start);
            in.compact();
            start = 0;
        }
    }
}
