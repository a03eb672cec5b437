package dev.brisk.internal.tls;

import dev.brisk.internal.transport.InputDrain;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A client that spoke plain HTTP to a TLS port (an {@code http://} URL with the HTTPS port): answered
 * {@code 400} in the clear, which a browser or curl shows, instead of a TLS alert it cannot read; then
 * the wire goes to an {@link InputDrain} (what the client still sends dropped, {@link #MAX_BYTES} and
 * {@link #NANOS} at most, within the handshake deadline), as an HTTP/1.1 lingering close would.
 *
 * <pre>
 *   (taken over from TlsWire) ──400 written──▶ (InputDrain: output shut, input dropped) ──▶ CLOSED
 * </pre>
 *
 * <p>Loop thread only.
 */
final class PlainHttpRefusal {
    static final long MAX_BYTES = 64 * 1024;
    static final long NANOS = 2_000_000_000L;
    private static final byte[] ANSWER = answer();
    private static final Runnable NOTHING = () -> { };

    private PlainHttpRefusal() {
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
     * Answers {@code wire} and drains it; its old protocol must not touch it again. Never throws.
     *
     * @param handshakeDeadline when the handshake would have timed out: the drain ends by then at the latest
     */
    static void takeOver(Wire wire, long handshakeDeadline) {
        try {
            wire.write(new ByteBuffer[] {ByteBuffer.wrap(ANSWER)}, 1); // far below any send buffer
        } catch (IOException | RuntimeException e) {
            wire.close();
            return;
        }
        long nanos = Math.max(0, Math.min(NANOS, handshakeDeadline - wire.clock()));
        InputDrain.start(wire, null, MAX_BYTES, nanos, NOTHING, NOTHING);
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
}
