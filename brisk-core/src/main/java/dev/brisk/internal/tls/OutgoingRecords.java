package dev.brisk.internal.tls;

import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The records a {@link TlsWire} sends: plaintext wrapped into {@code netOut} record by record, flushed
 * on the plain wire, the time they have waited for the socket, and at the end {@code close_notify}
 * and the half-close. {@code netOut} is held only while it holds bytes the socket has not taken.
 *
 * <p>Threads: its wire's (the thread holding the wire's turn), like the {@link TlsWire} that owns it.
 */
final class OutgoingRecords {
    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};
    /** Enough for every alert an engine queues on close (user_canceled and close_notify mid-handshake). */
    private static final int MAX_CLOSE_WRAPS = 4;

    private final Wire plain;
    private final SSLEngine engine;
    private final TlsBuffers buffers;
    private final ByteBuffer[] one = new ByteBuffer[1];
    private ByteBuffer netOut; // write mode: ciphertext from position 0 to position
    /** {@link #closeOutput} waits for {@code netOut} to be flushed, then half-closes. */
    private boolean shutdownAfterFlush;
    /** Wraps made since the engine's outbound side was closed (the alerts it held, close_notify last). */
    private int closeWraps;
    /** When records first waited for the socket; 0 while none wait. */
    private long stalledSince;

    OutgoingRecords(Wire plain, SSLEngine engine, TlsBuffers buffers) {
        this.plain = plain;
        this.engine = engine;
        this.buffers = buffers;
    }

    /**
     * Wraps and sends from {@code srcs} while the socket takes the records: the plaintext bytes that went
     * into records (those still waiting for the socket included, as on a plain wire's write).
     */
    long write(ByteBuffer[] srcs, int count) throws IOException {
        if (!flush()) {
            return 0;
        }
        long total = 0;
        while (remaining(srcs, count)) {
            total += wrap(srcs, count);
            if (!flush()) {
                break;
            }
        }
        return total;
    }

    /** Wraps what the engine has to send of its own (a handshake step, a key update) and flushes it. */
    boolean wrapOwn() throws IOException {
        wrap(NOTHING, 1);
        return flush();
    }

    /**
     * Writes {@code netOut} to the socket: true when it is all gone (and, after {@link #closeOutput}
     * found the socket full, {@code close_notify} after it and the half-close).
     */
    boolean flush() throws IOException {
        if (!flushRecords()) {
            return false;
        }
        return !shutdownAfterFlush || closeOutput(true);
    }

    /**
     * After {@code closeOutbound}: flushes the records waiting, then wraps {@code close_notify} into the
     * emptied {@code netOut} (the engine wraps only into a packet's worth of room, so not behind a waiting
     * record) and flushes it, then half-closes the plain wire if {@code halfClose}. True when all that is
     * done; false while the socket is full, and then the {@link #flush} that empties {@code netOut} goes on
     * with it (half-closing), or the caller calls this again once the socket takes more.
     */
    boolean closeOutput(boolean halfClose) throws IOException {
        while (true) { // the records waiting, then what the engine still holds: close_notify last
            if (!flushRecords()) {
                shutdownAfterFlush = halfClose;
                return false;
            }
            // one record per wrap: an alert queued before it (user_canceled mid-handshake, a key
            // update's answer) comes first; bounded, as mid-handshake an engine may not say it is done
            if (engine.isOutboundDone() || closeWraps == MAX_CLOSE_WRAPS) {
                break;
            }
            closeWraps++;
            wrap(NOTHING, 1);
        }
        shutdownAfterFlush = false;
        if (halfClose) {
            plain.shutdownOutput();
        }
        return true;
    }

    /** {@return whether records wait for the socket} */
    boolean pending() {
        return netOut != null && netOut.position() > 0;
    }

    /** {@return whether records have waited for the socket longer than {@code timeoutNanos} at {@code now}} */
    boolean stalled(long now, long timeoutNanos) {
        return stalledSince != 0 && now - stalledSince > timeoutNanos;
    }

    /** Lets go of {@code netOut} at close: back to the pool if {@code pool}, else to the garbage collector. */
    void release(boolean pool) {
        if (netOut != null) {
            if (pool) {
                buffers.give(netOut);
            }
            netOut = null;
        }
    }

    /** Encrypts from {@code srcs} into {@code netOut} (what fits): the plaintext bytes taken. */
    private long wrap(ByteBuffer[] srcs, int count) throws IOException {
        if (netOut == null) {
            netOut = buffers.take(TlsBuffers.SIZE);
        }
        SSLEngineResult r = engine.wrap(srcs, 0, count, netOut);
        if (r.getStatus() == SSLEngineResult.Status.CLOSED && r.bytesProduced() == 0 && r.bytesConsumed() == 0
                && remaining(srcs, count)) {
            throw new SSLException("TLS closed");
        }
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW && netOut.position() == 0) {
            netOut = buffers.grow(netOut, engine.getSession().getPacketBufferSize());
        }
        return r.bytesConsumed();
    }

    /** Writes {@code netOut} to the socket: true when it is all gone. */
    private boolean flushRecords() throws IOException {
        if (netOut == null) {
            return true;
        }
        if (netOut.position() > 0) {
            netOut.flip();
            one[0] = netOut;
            try {
                plain.write(one, 1); // the protocol above counts the bytes: plaintext, as on a plain wire
            } finally {
                one[0] = null;
                netOut.compact();
            }
        }
        if (netOut.position() > 0) {
            if (stalledSince == 0) {
                stalledSince = plain.clock();
            }
            plain.writeInterest(true);
            return false;
        }
        stalledSince = 0;
        buffers.give(netOut);
        netOut = null;
        return true;
    }

    private static boolean remaining(ByteBuffer[] srcs, int count) {
        for (int i = 0; i < count; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }
}
