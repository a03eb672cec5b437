package dev.brisk.internal.ws;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A client's frames turned into whole messages and control frames: the {@link FrameParser}'s frames
 * joined across fragments (checking that they follow each other correctly), checked as UTF-8 as they
 * arrive (text, uncompressed) or once inflated (text, compressed), and bounded by
 * {@code ws-max-message-size} before a byte beyond it is held. A message's bytes are reserved from the
 * server's {@link MemoryBudget} as its buffer grows with the bytes that arrive (never for a length a
 * frame header only announces); the reservation goes with the whole message to the {@link Listener}.
 *
 * <p>One per connection, on the thread reading it. Pure apart from the budget: bytes in, messages out.
 */
final class Inbound {
    /** Where messages go. */
    interface Listener {
        /**
         * A whole, valid message; {@code reserved} bytes of the budget now belong to the listener, which
         * releases them once the message is handled.
         */
        void message(int type, byte[] data, long reserved);

        /** A whole control frame: {@code payload[0..len)}. */
        void control(int opcode, byte[] payload, int len) throws ProtocolError;

        /** Whether to go on with the next frame (false while paused or once closing). */
        boolean accepting();
    }

    private final FrameParser parser;
    private final Utf8Validator utf8 = new Utf8Validator();
    private final MessageInflater inflater;
    private final int maxMessage;
    private final MemoryBudget budget;
    private final Listener listener;
    private final byte[] control = new byte[125];
    private int controlLen;
    /** The message being received: its opcode (0: none), compression, bytes so far, and their reservation. */
    private int type;
    private boolean compressed;
    private byte[] buf;
    private int len;
    private long reserved;
    /** Where the current data frame's payload ends in the message ({@link #len} once it is all here). */
    private int frameEndsAt;
    private boolean discard;

    /** @param inflater the session's decompressor when permessage-deflate was agreed, else null */
    Inbound(FrameParser parser, MessageInflater inflater, int maxMessage, MemoryBudget budget, Listener listener) {
        this.parser = parser;
        this.inflater = inflater;
        this.maxMessage = maxMessage;
        this.budget = budget;
        this.listener = listener;
    }

    /** From now on data frames are read past and dropped (the server sent its close: only the peer's matters). */
    void discardData() {
        discard = true;
        dropMessage();
    }

    /** Whether part of a frame or a message is held (closing now would lose it). */
    boolean partial() {
        return parser.inPayload() || type != 0;
    }

    /**
     * Takes what {@code in} holds (read mode) as far as it goes: whole frames and the payload of the
     * current one. Stops when {@code in} runs out mid-header or the listener stops accepting.
     *
     * @throws ProtocolError when the peer broke the protocol or a limit; the caller fails the connection
     */
    void process(ByteBuffer in) throws ProtocolError {
        while (listener.accepting()) {
            if (!parser.inPayload()) {
                if (!parser.header(in)) {
                    return;
                }
                frameStart();
                if (!parser.inPayload()) {
                    frameEnd();
                }
                continue;
            }
            int n = parser.payload(in);
            if (n == 0) {
                return;
            }
            payload(in.array(), in.arrayOffset() + in.position(), n);
            in.position(in.position() + n);
            if (!parser.inPayload()) {
                frameEnd();
            }
        }
    }

    private void frameStart() throws ProtocolError {
        int op = parser.opcode();
        if (FrameParser.isControl(op)) {
            controlLen = 0;
            return;
        }
        if (op == FrameParser.CONTINUATION) {
            if (type == 0) {
                throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "continuation frame without a message");
            }
        } else {
            if (type != 0) {
                throw new ProtocolError(CloseCodes.PROTOCOL_ERROR, "a new message began inside a fragmented one");
            }
            type = op;
            compressed = parser.rsv1();
            len = 0;
            utf8.reset();
        }
        if (discard) {
            return;
        }
        long end = len + parser.length();
        if (end > maxMessage) {
            throw new ProtocolError(CloseCodes.TOO_BIG, "message larger than " + maxMessage + " bytes");
        }
        // nothing is reserved for what the header only announces: a client that declares a large frame
        // and sends little holds little (the buffer grows with the bytes that come)
        frameEndsAt = (int) end;
    }

    /**
     * Room for {@code need} bytes, doubling (at least 1 KiB) so copies stay few, but never past the
     * message's size where it is known (its last frame) nor past {@code ws-max-message-size}: what is
     * reserved is at most twice what arrived.
     */
    private void grow(int need) throws ProtocolError {
        int old = buf == null ? 0 : buf.length;
        int bound = parser.fin() ? frameEndsAt : maxMessage;
        int cap = (int) Math.min(bound, Math.max(need, Math.max(1024, old * 2L)));
        if (!budget.reserve(cap - old)) {
            throw new ProtocolError(CloseCodes.TRY_AGAIN_LATER, "the server holds too many messages");
        }
        reserved += cap - old;
        buf = buf == null ? new byte[cap] : Arrays.copyOf(buf, cap);
    }

    private void payload(byte[] a, int off, int n) throws ProtocolError {
        if (FrameParser.isControl(parser.opcode())) {
            System.arraycopy(a, off, control, controlLen, n);
            controlLen += n;
            return;
        }
        if (discard) {
            return;
        }
        if (buf == null || len + n > buf.length) {
            grow(len + n);
        }
        System.arraycopy(a, off, buf, len, n);
        len += n;
        if (type == FrameParser.TEXT && !compressed && !utf8.feed(a, off, n)) {
            throw new ProtocolError(CloseCodes.INVALID_DATA, "text message is not valid UTF-8");
        }
    }

    private void frameEnd() throws ProtocolError {
        int op = parser.opcode();
        if (FrameParser.isControl(op)) {
            listener.control(op, control, controlLen);
            return;
        }
        if (!parser.fin()) {
            return;
        }
        int t = type;
        type = 0;
        if (discard) {
            return;
        }
        byte[] data = buf == null ? new byte[0] : buf;
        int n = len;
        long r = reserved;
        buf = null;
        len = 0;
        reserved = 0;
        try {
            if (compressed) {
                byte[] out = inflater.inflate(data, n, maxMessage);
                if (!budget.reserve(out.length)) {
                    throw new ProtocolError(CloseCodes.TRY_AGAIN_LATER, "the server holds too many messages");
                }
                budget.release(r);
                r = out.length;
                data = out;
                n = out.length;
                if (t == FrameParser.TEXT && !Utf8Validator.valid(data, 0, n)) {
                    throw new ProtocolError(CloseCodes.INVALID_DATA, "text message is not valid UTF-8");
                }
            } else if (t == FrameParser.TEXT && !utf8.complete()) {
                throw new ProtocolError(CloseCodes.INVALID_DATA, "text message ends inside a UTF-8 character");
            }
        } catch (ProtocolError e) {
            budget.release(r);
            throw e;
        }
        if (data.length != n) {
            data = Arrays.copyOf(data, n);
        }
        listener.message(t, data, r);
    }

    private void dropMessage() {
        budget.release(reserved);
        reserved = 0;
        buf = null;
        len = 0;
    }

    /** The connection is over: the budget gets back what a message in progress held. */
    void release() {
        dropMessage();
        type = 0;
        if (inflater != null) {
            inflater.end();
        }
    }
}
