package dev.brisk.internal.ws;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.FuzzInput;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of a WebSocket connection's reading side ({@link FrameParser} and {@link Inbound})
 * with Jazzer: {@code ./brisk fuzz --target ws-frames} fuzzes it; the default test run (Jazzer's regression
 * mode) runs it on the seeds of {@link #read()} and on every input kept in
 * {@code src/test/resources/dev/brisk/internal/ws/InboundFuzzTestInputs/read/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks {@code ws-max-frame-size}, {@code ws-max-message-size}
 * and permessage-deflate (off, on, on with {@code client_no_context_takeover}); the payload is what a client
 * sends after its handshake, arriving in the pieces the split points cut. Properties, over the messages,
 * control frames and the close code of a protocol error that come out:
 * <ul>
 *   <li>the same whole, byte by byte and in the fuzzer's pieces;</li>
 *   <li>they begin with what {@link Reference} finds for the input's whole frames, written from RFC 6455 5
 *       and RFC 7692 7.2.2 (frames unmasked whole, messages joined, text checked with the JDK's UTF-8
 *       decoder, compressed messages inflated with a fresh {@link Inflater} of its own); the same where it
 *       ends with an error or the frames fill the input;</li>
 *   <li>the memory budget gets back every byte: each message's reservation covers it, and once the
 *       messages are released and the connection is over, nothing is reserved.</li>
 * </ul>
 */
class InboundFuzzTest {
    static final long[] MAX_FRAME = {1 << 20, 125, 1000};
    static final int[] MAX_MESSAGE = {1 << 20, 16, 1000};
    static final int DEFLATE_MODES = 3;

    static Stream<byte[]> read() {
        List<byte[]> seeds = new ArrayList<>();
        byte[] text = "héllo wörld".getBytes(StandardCharsets.UTF_8);
        byte[] compressed = deflate("hello hello hello hello".getBytes(StandardCharsets.UTF_8));
        List<byte[]> inputs = List.of(
                cat(frame(0x81, text), frame(0x89, new byte[] {1, 2}), frame(0x82, new byte[300])),
                cat(frame(0x01, Arrays.copyOf(text, 2)), frame(0x8A, new byte[0]), frame(0x80, Arrays.copyOfRange(text, 2, text.length))),
                cat(frame(0xC1, compressed), frame(0xC1, compressed), frame(0x88, new byte[] {3, (byte) 0xE8})),
                cat(frame(0x41, Arrays.copyOf(compressed, 5)), frame(0x80, Arrays.copyOfRange(compressed, 5, compressed.length))),
                frame(0x81, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}),
                cat(frame(0x01, new byte[] {(byte) 0xF0, (byte) 0x9F}), frame(0x89, new byte[0]), frame(0x80, new byte[] {(byte) 0x98, (byte) 0x80})),
                cat(frame(0x81, new byte[0]), frame(0x00, new byte[] {1})),
                frame(0x09, new byte[0]),
                frame(0xB1, new byte[0]),
                new byte[] {(byte) 0x82, 0x7F, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4},
                new byte[] {(byte) 0x82, 0x7E, 0, 5, 1, 2, 3, 4, 1, 2, 3, 4, 5});
        for (int s = 0; s < MAX_FRAME.length * DEFLATE_MODES * MAX_MESSAGE.length; s += 4) {
            for (byte[] input : inputs) {
                seeds.add(FuzzInput.encode(s, new int[] {3, 9, 20}, input));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void read(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        int sel = in.selector();
        long maxFrame = MAX_FRAME[sel % MAX_FRAME.length];
        int deflateMode = (sel / MAX_FRAME.length) % DEFLATE_MODES;
        int maxMessage = MAX_MESSAGE[(sel / (MAX_FRAME.length * DEFLATE_MODES)) % MAX_MESSAGE.length];
        byte[] bytes = in.payload();
        List<String> whole = run(bytes, new int[] {bytes.length}, maxFrame, maxMessage, deflateMode);
        List<String> split = run(bytes, in.ends(), maxFrame, maxMessage, deflateMode);
        List<String> byteByByte = run(bytes, FuzzInput.byteByByte(bytes.length), maxFrame, maxMessage, deflateMode);
        String setting = "frames at most " + maxFrame + ", messages at most " + maxMessage + ", deflate mode " + deflateMode;
        if (!split.equals(whole) || !byteByByte.equals(whole)) {
            throw new AssertionError(HexFormat.of().formatHex(bytes) + " (" + setting + ") in pieces ending at "
                    + Arrays.toString(in.ends()) + ": " + split + " (byte by byte " + byteByByte + ") but whole " + whole);
        }
        Reference ref = new Reference(maxFrame, maxMessage, deflateMode);
        List<String> expected = ref.read(bytes);
        boolean exact = ref.failed || ref.consumed == bytes.length;
        if (exact ? !whole.equals(expected) : whole.size() < expected.size() || !whole.subList(0, expected.size()).equals(expected)) {
            throw new AssertionError(HexFormat.of().formatHex(bytes) + " (" + setting + "): " + whole + " but the reference "
                    + (exact ? "" : "begins ") + expected);
        }
    }

    /** What comes out of {@code bytes} arriving in pieces ending at {@code ends}; checks the budget's account. */
    private static List<String> run(byte[] bytes, int[] ends, long maxFrame, int maxMessage, int deflateMode) {
        List<String> events = new ArrayList<>();
        MemoryBudget budget = new MemoryBudget(Long.MAX_VALUE / 2);
        long[] held = new long[1];
        Inbound.Listener listener = new Inbound.Listener() {
            @Override
            public void message(int type, byte[] message, long reserved) {
                if (reserved < message.length) {
                    throw new AssertionError("a message of " + message.length + " bytes reserved only " + reserved);
                }
                held[0] += reserved;
                events.add("message " + type + " " + HexFormat.of().formatHex(message));
            }

            @Override
            public void control(int opcode, byte[] payload, int len) {
                events.add("control " + opcode + " " + HexFormat.of().formatHex(payload, 0, len));
            }

            @Override
            public boolean accepting() {
                return true;
            }
        };
        MessageInflater inflater = deflateMode == 0 ? null : new MessageInflater(new DeflateOffer(false, deflateMode == 2, 15, ""), budget);
        Inbound inbound = new Inbound(new FrameParser(maxFrame, deflateMode != 0), inflater, maxMessage, budget, listener);
        ByteBuffer buf = ByteBuffer.allocate(bytes.length + 16);
        int from = 0;
        try {
            for (int end : ends) {
                buf.put(bytes, from, end - from); // write mode: what is unread, then the new piece
                from = end;
                buf.flip();
                inbound.process(buf);
                buf.compact();
                if (buf.position() >= 14) {
                    throw new AssertionError(buf.position() + " bytes left unread: more than a frame header");
                }
            }
        } catch (ProtocolError e) {
            events.add("error " + e.code());
        } finally {
            inbound.release();
        }
        budget.release(held[0]);
        if (budget.used() != 0) {
            throw new AssertionError(budget.used() + " bytes still reserved after the connection ended: " + events);
        }
        return events;
    }

    /**
     * A reference reader: takes whole frames only, unmasks each whole, and finds the messages, control
     * frames and errors as RFC 6455 and RFC 7692 say, in the order the checks are made (a frame's header,
     * then its place in the message, then its payload).
     */
    static final class Reference {
        private final long maxFrame;
        private final int maxMessage;
        private final int deflateMode;
        private final List<String> events = new ArrayList<>();
        private Inflater inflater;
        private int type; // the message being received, 0 for none
        private boolean compressed;
        private final ByteArrayOutputStream message = new ByteArrayOutputStream();
        boolean failed;
        int consumed;

        Reference(long maxFrame, int maxMessage, int deflateMode) {
            this.maxFrame = maxFrame;
            this.maxMessage = maxMessage;
            this.deflateMode = deflateMode;
        }

        List<String> read(byte[] b) {
            int i = 0;
            while (!failed && b.length - i >= 2) {
                int b0 = b[i] & 0xff;
                int b1 = b[i + 1] & 0xff;
                int len7 = b1 & 0x7f;
                int head = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4;
                if (b.length - i < head) {
                    break;
                }
                long length = len7 == 126 ? ByteBuffer.wrap(b, i + 2, 2).getShort() & 0xffff
                        : len7 == 127 ? ByteBuffer.wrap(b, i + 2, 8).getLong() : len7;
                int code = headerFault(b0, b1, length);
                if (code != 0) {
                    return fail(code);
                }
                if (b.length - i - head < length) {
                    break; // whole frames only
                }
                byte[] p = Arrays.copyOfRange(b, i + head, i + head + (int) length);
                for (int k = 0; k < p.length; k++) {
                    p[k] ^= b[i + head - 4 + (k & 3)]; // 5.3: the client's mask
                }
                i += head + (int) length;
                frame(b0, p);
                if (!failed) {
                    consumed = i;
                }
            }
            return events;
        }

        /** 5.2's rules for a frame's first bytes and length, in the order the parser checks them; 0 if none. */
        private int headerFault(int b0, int b1, long length) {
            int op = b0 & 0x0f;
            boolean control = op >= 8;
            if ((b0 & 0x30) != 0) {
                return CloseCodes.PROTOCOL_ERROR; // RSV2, RSV3: no extension uses them
            }
            if (!List.of(0, 1, 2, 8, 9, 10).contains(op)) {
                return CloseCodes.PROTOCOL_ERROR;
            }
            if ((b0 & 0x40) != 0 && (deflateMode == 0 || op == 0 || control)) {
                return CloseCodes.PROTOCOL_ERROR; // RFC 7692 6: RSV1 only on a message's first frame
            }
            if (control && (b0 & 0x80) == 0) {
                return CloseCodes.PROTOCOL_ERROR; // 5.5: control frames are not fragmented
            }
            if ((b1 & 0x80) == 0) {
                return CloseCodes.PROTOCOL_ERROR; // 5.1: a client masks every frame
            }
            if (length < 0) {
                return CloseCodes.PROTOCOL_ERROR; // the 64-bit length's high bit
            }
            if (control && length > 125) {
                return CloseCodes.PROTOCOL_ERROR;
            }
            return length > maxFrame ? CloseCodes.TOO_BIG : 0;
        }

        private List<String> fail(int code) {
            events.add("error " + code);
            failed = true;
            return events;
        }

        private void frame(int b0, byte[] p) {
            int op = b0 & 0x0f;
            boolean fin = (b0 & 0x80) != 0;
            if (op >= 8) {
                events.add("control " + op + " " + HexFormat.of().formatHex(p));
                return;
            }
            if (op == 0 && type == 0 || op != 0 && type != 0) {
                fail(CloseCodes.PROTOCOL_ERROR); // 5.4: a continuation without a message, or a message inside one
                return;
            }
            if (op != 0) {
                type = op;
                compressed = (b0 & 0x40) != 0;
                message.reset();
            }
            if ((long) message.size() + p.length > maxMessage) {
                fail(CloseCodes.TOO_BIG);
                return;
            }
            message.writeBytes(p);
            if (type == 1 && !compressed && !utf8Prefix(message.toByteArray())) {
                fail(CloseCodes.INVALID_DATA); // 8.1: fail as soon as the text cannot be UTF-8
                return;
            }
            if (!fin) {
                return;
            }
            byte[] data = message.toByteArray();
            int t = type;
            type = 0;
            if (compressed) {
                data = inflate(data);
                if (data == null) {
                    return;
                }
            }
            if (t == 1 && !utf8(data)) {
                fail(CloseCodes.INVALID_DATA);
                return;
            }
            events.add("message " + t + " " + HexFormat.of().formatHex(data));
        }

        /** RFC 7692 7.2.2: the message with 00 00 FF FF appended, inflated; null after failing. */
        private byte[] inflate(byte[] data) {
            if (inflater == null) {
                inflater = new Inflater(true);
            }
            byte[] in = Arrays.copyOf(data, data.length + 4);
            in[data.length + 2] = (byte) 0xff;
            in[data.length + 3] = (byte) 0xff;
            inflater.setInput(in);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[4096];
            int n = 0;
            try {
                while (n <= maxMessage) {
                    int k = inflater.inflate(chunk, 0, Math.min(chunk.length, maxMessage + 1 - n));
                    out.write(chunk, 0, k);
                    n += k;
                    if (inflater.finished()) {
                        inflater.reset(); // the sender ended its stream: the next message begins another
                        break;
                    }
                    if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        break;
                    }
                }
            } catch (DataFormatException e) {
                fail(CloseCodes.INVALID_DATA);
                return null;
            }
            if (n > maxMessage) {
                fail(CloseCodes.TOO_BIG);
                return null;
            }
            if (deflateMode == 2) {
                inflater.reset(); // client_no_context_takeover: every message starts afresh
            }
            return out.toByteArray();
        }

        private static boolean utf8(byte[] b) {
            return decode(b, true) == 0;
        }

        /** Whether {@code b} is valid UTF-8 or could become so with more bytes. */
        private static boolean utf8Prefix(byte[] b) {
            int left = decode(b, false);
            if (left < 0) {
                return false;
            }
            if (left == 0) {
                return true;
            }
            // an unfinished character: valid if some continuation byte keeps it possible
            for (int c = 0x80; c <= 0xbf; c++) {
                byte[] more = Arrays.copyOf(b, b.length + 1);
                more[b.length] = (byte) c;
                if (utf8Prefix(more)) {
                    return true;
                }
            }
            return false;
        }

        /** The JDK's decoder over {@code b}: -1 if malformed, else the bytes it left undecoded (0 at a character's end). */
        private static int decode(byte[] b, boolean end) {
            CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            ByteBuffer in = ByteBuffer.wrap(b);
            CoderResult r = d.decode(in, CharBuffer.allocate(b.length + 1), end);
            if (r.isError()) {
                return -1;
            }
            if (end) {
                return d.flush(CharBuffer.allocate(2)).isError() ? -1 : in.remaining();
            }
            return in.remaining();
        }
    }

    /** A masked client frame. */
    static byte[] frame(int b0, byte[] payload) {
        byte[] mask = {0x37, (byte) 0xfa, 0x21, 0x3d};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b0);
        if (payload.length < 126) {
            out.write(0x80 | payload.length);
        } else {
            out.write(0x80 | 126);
            out.write(payload.length >> 8);
            out.write(payload.length);
        }
        out.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            out.write(payload[i] ^ mask[i & 3]);
        }
        return out.toByteArray();
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** What a client would send: deflated with a sync flush, the 00 00 FF FF at the end cut off. */
    static byte[] deflate(byte[] text) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(text);
        byte[] out = new byte[text.length + 64];
        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        d.end();
        return Arrays.copyOf(out, n - 4);
    }
}
