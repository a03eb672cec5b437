package dev.brisk.internal.ws;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads a client's frames (RFC 6455 section 5.2): a pure codec over a byte buffer, with no socket.
 * {@link #header} takes a whole frame header when the buffer holds one and checks it; the payload is
 * then handed over in pieces as it arrives ({@link #payload}), unmasked in place, so a large frame never
 * needs to sit in the buffer whole.
 *
 * <p>Checked here, per frame: the reserved bits (RSV1 only as permessage-deflate's "compressed" mark on
 * a message's first frame, when negotiated), the opcode, the mask (a client must mask), a control
 * frame's size and FIN, the 64-bit length's high bit, and {@code ws-max-frame-size}. Whether frames
 * follow each other correctly (a continuation with no message, a new message inside one) is the
 * message's business, not the frame's.
 *
 * <pre>
 *   HEADER ──header whole, valid──▶ PAYLOAD (remaining &gt; 0) ──last byte unmasked──▶ HEADER
 *     └── header with no payload ─▶ HEADER (the frame is done at once)
 * </pre>
 *
 * <p>One per connection; one thread at a time.
 */
final class FrameParser {
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;
    static final int PING = 0x9;
    static final int PONG = 0xA;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long maxFrameSize;
    private final boolean deflate;
    private int opcode;
    private boolean fin;
    private boolean rsv1;
    private long length;
    private long remaining;
    private final byte[] mask = new byte[4];
    private int maskPos;
    private boolean inPayload;

    /**
     * @param maxFrameSize the largest payload a frame may declare (1009 beyond)
     * @param deflate whether permessage-deflate was negotiated (RSV1 is then allowed where it means "compressed")
     */
    FrameParser(long maxFrameSize, boolean deflate) {
        this.maxFrameSize = maxFrameSize;
        this.deflate = deflate;
    }

    /** Whether a frame's payload is still being read. */
    boolean inPayload() {
        return inPayload;
    }

    int opcode() {
        return opcode;
    }

    boolean fin() {
        return fin;
    }

    boolean rsv1() {
        return rsv1;
    }

    /** The current frame's payload length. */
    long length() {
        return length;
    }

    /** Payload bytes of the current frame not handed over yet. */
    long remaining() {
        return remaining;
    }

    static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    /**
     * Takes the next frame's header from {@code in} when it holds the whole header: true then, with
     * the frame's fields set and {@code in} past the header; false (nothing taken) when more bytes are needed.
     *
     * @throws ProtocolError for a header this server must refuse
     */
    boolean header(ByteBuffer in) throws ProtocolError {
        int avail = in.remaining();
        if (avail < 2) {
            return false;
        }
        int p = in.position();
        int b0 = in.get(p) & 0xFF;
        int b1 = in.get(p + 1) & 0xFF;
        int len7 = b1 & 0x7F;
        int size = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + ((b1 & 0x80) != 0 ? 4 : 0);
        if (avail < size) {
            checkFirstBytes(b0, b1); // fail fast: a bad frame need not wait for the rest of its header
            return false;
        }
        checkFirstBytes(b0, b1);
        long len;
        int q = p + 2;
        if (len7 == 126) {
            len = ((in.get(q) & 0xFF) << 8) | (in.get(q + 1) & 0xFF);
            q += 2;
        } else if (len7 == 127) {
            len = in.getLong(q);
            if (len < 0) {
                throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "frame length with the high bit set");
            }
            q += 8;
        } else {
            len = len7;
        }
        opcode = b0 & 0x0F;
        fin = (b0 & 0x80) != 0;
        rsv1 = (b0 & 0x40) != 0;
        if (isControl(opcode) && len > 125) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "control frame longer than 125 bytes");
        }
        if (len > maxFrameSize) {
            throw new ProtocolError(CloseCodes.TOO_BIG, "frame larger than " + maxFrameSize + " bytes");
        }
        for (int i = 0; i < 4; i++) {
            mask[i] = in.get(q + i);
        }
        in.position(q + 4);
        length = len;
        remaining = len;
        maskPos = 0;
        inPayload = len > 0;
        return true;
    }

    private void checkFirstBytes(int b0, int b1) throws ProtocolError {
        int op = b0 & 0x0F;
        if ((b0 & 0x30) != 0) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "reserved bit RSV2 or RSV3 set");
        }
        if (op != CONTINUATION && op != TEXT && op != BINARY && op != CLOSE && op != PING && op != PONG) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "unknown opcode " + op);
        }
        if ((b0 & 0x40) != 0 && (!deflate || op == CONTINUATION || isControl(op))) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, deflate
                    ? "RSV1 set on a continuation or control frame" : "reserved bit RSV1 set without an extension");
        }
        if (isControl(op) && (b0 & 0x80) == 0) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "fragmented control frame");
        }
        if ((b1 & 0x80) == 0) {
            throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "unmasked client frame");
        }
    }

    /**
     * Unmasks, in place, the current frame's payload bytes that {@code in} holds from its position (at
     * most what the frame has left) and returns how many; the caller takes them and moves {@code in} on.
     */
    int payload(ByteBuffer in) {
        int n = (int) Math.min(in.remaining(), remaining);
        if (n == 0) {
            return 0;
        }
        unmask(in.array(), in.arrayOffset() + in.position(), n);
        remaining -= n;
        if (remaining == 0) {
            inPayload = false;
        }
        return n;
    }

    private void unmask(byte[] a, int off, int n) {
        int i = off;
        int end = off + n;
        if (n >= 16) {
            long m = 0;
            for (int j = 0; j < 8; j++) {
                m |= (mask[(maskPos + j) & 3] & 0xFFL) << (8 * j);
            }
            // eight bytes at a time; eight is a multiple of four, so the mask's phase stays put
            for (; i + 8 <= end; i += 8) {
                LONGS.set(a, i, (long) LONGS.get(a, i) ^ m);
            }
        }
        int pos = maskPos;
        for (; i < end; i++) {
            a[i] ^= mask[pos];
            pos = (pos + 1) & 3;
        }
        maskPos = pos;
    }
}
