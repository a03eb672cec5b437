package dev.brisk.internal.tls;

import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A client that spoke plain HTTP to a TLS port (an {@code http://} URL with the HTTPS port): answered
 * {@code 400} in the clear, which a browser or curl shows, instead of a TLS alert it cannot read; then
 * its output is shut, and what it still sends is read and dropped (closing with unread input would
 * reset the connection and could destroy the answer) until it closes, {@link #MAX_BYTES} have come or
 * {@link #NANOS} (at most the handshake deadline) have passed, as an HTTP/1.1 lingering close is bounded;
 * a drain leaves it to that bound. Takes the plain wire over from {@link TlsWire}, as an upgrade would;
 * where the transport drains better itself (the blocking engine's lingering thread, which frees the
 * connection's thread) it gets the socket instead, and this protocol is not made.
 *
 * <pre>
 *   (taken over) ──400 written, output shut──▶ DRAINING ──end of stream / 64 KiB / 2 s / error──▶ CLOSED
 * </pre>
 *
 * <p>Loop thread only.
 */
final class PlainHttpRefusal implements Protocol {
    static final long MAX_BYTES = 64 * 1024;
    static final long NANOS = 2_000_000_000L;
    private static final byte[] ANSWER = answer();

    private final Wire wire;
    private final long deadline;
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);
    private long bytes;
    private boolean closed;

    private PlainHttpRefusal(Wire wire, long deadline) {
        this.wire = wire;
        this.deadline = deadline;
    }

    /**
     * Whether {@code first}, a connection's first byte, starts plain HTTP rather than a TLS record: a
     * request line begins with a method, an upper-case token, and no TLS record type (20-24) or
     * SSL 2 hello (high bit set) is a letter.
     */
    static boolean startsPlainHttp(byte first) {
        return first >= 'A' && first <= 'Z';
    }

    /**
     * Answers and drains {@code wire}, whose old protocol must not touch it again; never throws.
     *
     * @param handshakeDeadline when the handshake would have timed out: the drain ends by then at the latest
     */
    static void takeOver(Wire wire, long handshakeDeadline) {
        long deadline = Math.min(handshakeDeadline, wire.clock() + NANOS);
        PlainHttpRefusal r = new PlainHttpRefusal(wire, deadline);
        wire.protocol(r);
        try {
            ByteBuffer[] out = {ByteBuffer.wrap(ANSWER)};
            wire.write(out, 1); // far below any send buffer: what the socket does not take is lost anyway
            wire.shutdownOutput();
            if (wire.lingerElsewhere(MAX_BYTES, Math.max(0, deadline - wire.clock()), () -> { })) {
                r.closed = true; // the transport drains and closes the socket
                return;
            }
        } catch (IOException | RuntimeException e) {
            r.close();
            return;
        }
        wire.deadline(deadline);
        wire.writeInterest(false);
        wire.readInterest(true);
    }

    private static byte[] answer() {
        byte[] body = "This port speaks HTTPS: the request was sent as plain HTTP. Use an https:// URL.\n"
                .getBytes(StandardCharsets.US_ASCII);
        String head = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    @Override
    public void onReadable() {
        if (closed) {
            return;
        }
        try {
            scratch.clear(); // one read per turn, like a lingering HTTP/1.1 connection
            int n = wire.read(scratch);
            onBytes(null, n);
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
        // closing already, within its own bound: closing now with input unread could reset the answer
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            wire.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean idle() {
        return false; // the client may still be reading the answer
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
