package dev.brisk.internal.http2;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.FuzzInput;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link FrameReader} with Jazzer: {@code ./brisk fuzz --target h2-frames} fuzzes
 * it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #read()} and on every
 * input kept in {@code src/test/resources/dev/brisk/internal/http2/FrameReaderFuzzTestInputs/read/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks {@code SETTINGS_MAX_FRAME_SIZE}
 * ({@link #MAX_FRAME_SIZES}); the payload is what a client sends after its preface, arriving in the pieces
 * the split points cut (what the reader leaves unconsumed is kept and comes again before the next piece, as
 * {@link Http2Input} does). Properties, over what the reader reports (a piece of {@code DATA} or of a header
 * block joined to the piece before it, as the cuts decide how they are handed over):
 * <ul>
 *   <li>the same reports whole, byte by byte and in the fuzzer's pieces, up to the same connection error;</li>
 *   <li>they begin with what {@link #reference} reports for the input's whole frames, written from RFC 9113
 *       4.1–4.2 and 6 frame by frame with every payload whole; where the reference ends with a connection
 *       error or the frames fill the input exactly, they are the same.</li>
 * </ul>
 */
class FrameReaderFuzzTest {
    static final int[] MAX_FRAME_SIZES = {16_384, 64, H2.MAX_MAX_FRAME_SIZE};

    static Stream<byte[]> read() {
        List<byte[]> seeds = new ArrayList<>();
        byte[] valid = cat(
                frame(H2.SETTINGS, 0, 0, 0, 3, 0, 0, 0, 100, 0, 4, 0, 1, 0, 0),
                frame(H2.SETTINGS, H2.ACK, 0),
                frame(H2.WINDOW_UPDATE, 0, 0, 0, 1, 0, 0),
                frame(H2.HEADERS, H2.PADDED | H2.PRIORITY_FLAG, 1, 2, 0, 0, 0, 3, 16, 0x82, 0x84, 0, 0),
                frame(H2.CONTINUATION, 0, 1),
                frame(H2.CONTINUATION, H2.END_HEADERS, 1, 0x87),
                frame(H2.DATA, H2.PADDED, 1, 1, 'a', 'b', 0),
                frame(H2.DATA, H2.END_STREAM, 1, 'c'),
                frame(H2.PRIORITY, 0, 3, 0, 0, 0, 1, 16),
                frame(H2.PRIORITY, 0, 3, 0, 0, 0, 1),
                frame(H2.RST_STREAM, 0, 1, 0, 0, 0, 8),
                frame(H2.PING, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8),
                frame(0x20, 0, 0, 9, 9),
                frame(H2.GOAWAY, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 'b', 'y', 'e'));
        byte[][] faults = {
                frame(H2.DATA, 0, 0, 1),
                frame(H2.DATA, H2.PADDED, 1, 1),
                frame(H2.HEADERS, H2.PADDED | H2.PRIORITY_FLAG, 1, 1, 0, 0, 0, 3, 16),
                frame(H2.HEADERS, 0, 1, 0x82), // no END_HEADERS: the DATA after it is out of place
                frame(H2.SETTINGS, 0, 0, 0, 3, 0),
                frame(H2.PUSH_PROMISE, H2.END_HEADERS, 1, 0, 0, 0, 2),
                frame(H2.WINDOW_UPDATE, 0, 1, 0, 0, 1),
                frame(H2.CONTINUATION, H2.END_HEADERS, 1, 0x82),
        };
        for (int s = 0; s < MAX_FRAME_SIZES.length; s++) {
            seeds.add(FuzzInput.encode(s, new int[] {5, 10, 33, 50, 71}, valid));
            for (byte[] fault : faults) {
                seeds.add(FuzzInput.encode(s, new int[] {3}, cat(frame(H2.SETTINGS, 0, 0), fault, frame(H2.DATA, 0, 1, 'x'))));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void read(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        int maxFrameSize = MAX_FRAME_SIZES[in.selector() % MAX_FRAME_SIZES.length];
        byte[] bytes = in.payload();
        List<String> whole = run(bytes, new int[] {bytes.length}, maxFrameSize);
        List<String> split = run(bytes, in.ends(), maxFrameSize);
        List<String> byteByByte = run(bytes, FuzzInput.byteByByte(bytes.length), maxFrameSize);
        if (!split.equals(whole) || !byteByByte.equals(whole)) {
            throw new AssertionError("frames " + HexFormat.of().formatHex(bytes) + " in pieces ending at "
                    + Arrays.toString(in.ends()) + ": " + split + " (byte by byte " + byteByByte + ") but whole " + whole);
        }
        Reference ref = new Reference(maxFrameSize);
        List<String> expected = ref.read(bytes);
        boolean exact = ref.failed || ref.consumed == bytes.length;
        if (exact ? !whole.equals(expected) : !begins(whole, expected)) {
            throw new AssertionError("frames " + HexFormat.of().formatHex(bytes) + " at most " + maxFrameSize
                    + " bytes each: " + whole + " but the reference " + (exact ? "" : "begins ") + expected);
        }
    }

    /**
     * Whether {@code events} begin with {@code prefix}; the prefix's last report may be a header block's
     * bytes that a frame the reference did not take (a CONTINUATION cut short) carries on.
     */
    private static boolean begins(List<String> events, List<String> prefix) {
        int n = prefix.size();
        if (n == 0) {
            return true;
        }
        if (events.size() < n || !events.subList(0, n - 1).equals(prefix.subList(0, n - 1))) {
            return false;
        }
        String last = prefix.get(n - 1);
        return events.get(n - 1).equals(last) || last.startsWith("block ") && events.get(n - 1).startsWith(last);
    }

    /** What the reader reports for {@code bytes} arriving in pieces ending at {@code ends}. */
    private static List<String> run(byte[] bytes, int[] ends, int maxFrameSize) {
        Log log = new Log();
        FrameReader reader = new FrameReader(log, log, maxFrameSize);
        byte[] buffered = new byte[0];
        int from = 0;
        try {
            for (int end : ends) {
                byte[] a = cat(buffered, Arrays.copyOfRange(bytes, from, end));
                from = end;
                int left = reader.read(a, 0, a.length);
                if (left < 0 || left > a.length) {
                    throw new AssertionError("read returned " + left + " of " + a.length);
                }
                buffered = Arrays.copyOfRange(a, left, a.length);
                if (buffered.length >= Math.max(H2.FRAME_HEADER, 8)) {
                    throw new AssertionError(buffered.length + " bytes left unconsumed: more than a frame header or a fixed field");
                }
            }
        } catch (Http2Exception e) {
            log.add("error " + e.code);
        }
        return log.events;
    }

    /** Records the reports; a piece of data or of a header block is joined to the piece before it. */
    static final class Log implements FrameReader.ConnectionFrames, FrameReader.StreamFrames {
        final List<String> events = new ArrayList<>();

        void add(String event) {
            events.add(event);
        }

        private void piece(String kind, byte[] a, int off, int len) {
            String hex = HexFormat.of().formatHex(a, off, off + len);
            int last = events.size() - 1;
            if (last >= 0 && events.get(last).startsWith(kind)) {
                events.set(last, events.get(last) + hex);
            } else {
                events.add(kind + hex);
            }
        }

        @Override public void dataFrame(int s, int length, boolean end) { add("dataFrame " + s + " " + length + " " + end); }
        @Override public void data(int s, byte[] a, int off, int len) { piece("data " + s + " ", a, off, len); }
        @Override public void dataEnd(int s, boolean end) { add("dataEnd " + s + " " + end); }
        @Override public void headers(int s, boolean end, int dep) { add("headers " + s + " " + end + " " + dep); }
        @Override public void headerBytes(byte[] a, int off, int len) { piece("block ", a, off, len); }
        @Override public void headersEnd(int s) { add("headersEnd " + s); }
        @Override public void priority(int s, int dep) { add("priority " + s + " " + dep); }
        @Override public void rstStream(int s, int code) { add("rst " + s + " " + code); }
        @Override public void streamError(int s, int code) { add("streamError " + s + " " + code); }
        @Override public void setting(int id, int value) { add("setting " + id + " " + value); }
        @Override public void settingsEnd(boolean ack) { add("settingsEnd " + ack); }
        @Override public void ping(boolean ack, long payload) { add("ping " + ack + " " + payload); }
        @Override public void goAway(int last, int code) { add("goaway " + last + " " + code); }
        @Override public void windowUpdate(int s, int inc) { add("window " + s + " " + inc); }
        @Override public void unknownFrame(int type) { add("unknown " + type); }
        @Override public void emptyContinuation() { add("emptyContinuation"); }
    }

    /**
     * A reference reader: takes whole frames only, each with its payload at hand, and reports them in the
     * order the interfaces ask (a frame's start before its payload's checks, as the reader must report what
     * it has before the bytes that fault arrive).
     */
    static final class Reference {
        private final int maxFrameSize;
        private final Log log = new Log();
        private int continuing;
        boolean failed;
        int consumed;

        Reference(int maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        List<String> read(byte[] b) {
            int i = 0;
            while (!failed && b.length - i >= H2.FRAME_HEADER) {
                int length = u8(b, i) << 16 | u8(b, i + 1) << 8 | u8(b, i + 2);
                int type = u8(b, i + 3);
                int flags = u8(b, i + 4);
                int stream = u32(b, i + 5) & 0x7fffffff;
                // 4.2: a frame above the size limit is a FRAME_SIZE_ERROR, known from its header alone
                if (length > maxFrameSize) {
                    return fail(H2.FRAME_SIZE_ERROR);
                }
                // 6.10: a header block is followed by its own CONTINUATION frames and nothing else
                if (continuing != 0 && (type != H2.CONTINUATION || stream != continuing)) {
                    return fail(H2.PROTOCOL_ERROR);
                }
                if (b.length - i - H2.FRAME_HEADER < length) {
                    break; // the reference takes whole frames only
                }
                byte[] p = Arrays.copyOfRange(b, i + H2.FRAME_HEADER, i + H2.FRAME_HEADER + length);
                i += H2.FRAME_HEADER + length;
                frame(type, flags, stream, p);
                if (!failed) {
                    consumed = i;
                }
            }
            return log.events;
        }

        private List<String> fail(int code) {
            log.add("error " + code);
            failed = true;
            return log.events;
        }

        private void frame(int type, int flags, int stream, byte[] p) {
            boolean padded = (flags & H2.PADDED) != 0;
            switch (type) {
                case H2.DATA -> { // 6.1
                    if (stream == 0) {
                        fail(H2.PROTOCOL_ERROR);
                        return;
                    }
                    if (padded && p.length == 0) {
                        fail(H2.FRAME_SIZE_ERROR);
                        return;
                    }
                    log.add("dataFrame " + stream + " " + p.length + " " + ((flags & H2.END_STREAM) != 0));
                    int pad = padded ? u8(p, 0) : 0;
                    int start = padded ? 1 : 0;
                    if (pad > p.length - start) {
                        fail(H2.PROTOCOL_ERROR); // padding as long as the payload or longer
                        return;
                    }
                    if (p.length - start - pad > 0) {
                        log.piece("data " + stream + " ", p, start, p.length - start - pad);
                    }
                    log.add("dataEnd " + stream + " " + ((flags & H2.END_STREAM) != 0));
                }
                case H2.HEADERS -> { // 6.2
                    if (stream == 0) {
                        fail(H2.PROTOCOL_ERROR);
                        return;
                    }
                    boolean priority = (flags & H2.PRIORITY_FLAG) != 0;
                    int start = (padded ? 1 : 0) + (priority ? 5 : 0);
                    if (p.length < start) {
                        fail(H2.FRAME_SIZE_ERROR);
                        return;
                    }
                    int pad = padded ? u8(p, 0) : 0;
                    if (pad > p.length - start) {
                        fail(H2.PROTOCOL_ERROR);
                        return;
                    }
                    int dependency = priority ? u32(p, padded ? 1 : 0) & 0x7fffffff : -1;
                    log.add("headers " + stream + " " + ((flags & H2.END_STREAM) != 0) + " " + dependency);
                    block(stream, flags, p, start, p.length - pad);
                }
                case H2.PRIORITY -> { // 6.3
                    if (stream == 0) {
                        fail(H2.PROTOCOL_ERROR);
                    } else if (p.length != 5) {
                        log.add("streamError " + stream + " " + H2.FRAME_SIZE_ERROR);
                    } else {
                        log.add("priority " + stream + " " + (u32(p, 0) & 0x7fffffff));
                    }
                }
                case H2.RST_STREAM -> { // 6.4
                    if (stream == 0) {
                        fail(H2.PROTOCOL_ERROR);
                    } else if (p.length != 4) {
                        fail(H2.FRAME_SIZE_ERROR);
                    } else {
                        log.add("rst " + stream + " " + u32(p, 0));
                    }
                }
                case H2.SETTINGS -> { // 6.5
                    boolean ack = (flags & H2.ACK) != 0;
                    if (stream != 0) {
                        fail(H2.PROTOCOL_ERROR);
                    } else if (ack ? p.length != 0 : p.length % 6 != 0) {
                        fail(H2.FRAME_SIZE_ERROR);
                    } else {
                        for (int k = 0; k < p.length; k += 6) {
                            log.add("setting " + (u8(p, k) << 8 | u8(p, k + 1)) + " " + u32(p, k + 2));
                        }
                        log.add("settingsEnd " + ack);
                    }
                }
                case H2.PUSH_PROMISE -> fail(H2.PROTOCOL_ERROR); // 8.4: a client cannot push
                case H2.PING -> { // 6.7
                    if (stream != 0) {
                        fail(H2.PROTOCOL_ERROR);
                    } else if (p.length != 8) {
                        fail(H2.FRAME_SIZE_ERROR);
                    } else {
                        log.add("ping " + ((flags & H2.ACK) != 0) + " " + ((long) u32(p, 0) << 32 | (u32(p, 4) & 0xffffffffL)));
                    }
                }
                case H2.GOAWAY -> { // 6.8
                    if (stream != 0) {
                        fail(H2.PROTOCOL_ERROR);
                    } else if (p.length < 8) {
                        fail(H2.FRAME_SIZE_ERROR);
                    } else {
                        log.add("goaway " + (u32(p, 0) & 0x7fffffff) + " " + u32(p, 4));
                    }
                }
                case H2.WINDOW_UPDATE -> { // 6.9: on a stream or the connection
                    if (p.length != 4) {
                        fail(H2.FRAME_SIZE_ERROR);
                    } else {
                        log.add("window " + stream + " " + (u32(p, 0) & 0x7fffffff));
                    }
                }
                case H2.CONTINUATION -> { // 6.10
                    if (stream == 0 || continuing == 0) {
                        fail(H2.PROTOCOL_ERROR);
                        return;
                    }
                    if (p.length == 0 && (flags & H2.END_HEADERS) == 0) {
                        log.add("emptyContinuation");
                    }
                    block(stream, flags, p, 0, p.length);
                }
                default -> log.add("unknown " + type); // 5.5: ignored
            }
        }

        private void block(int stream, int flags, byte[] p, int from, int to) {
            if (to > from) {
                log.piece("block ", p, from, to - from);
            }
            if ((flags & H2.END_HEADERS) != 0) {
                log.add("headersEnd " + stream);
                continuing = 0;
            } else {
                continuing = stream;
            }
        }
    }

    static byte[] frame(int type, int flags, int stream, int... payload) {
        byte[] b = new byte[H2.FRAME_HEADER + payload.length];
        b[0] = (byte) (payload.length >> 16);
        b[1] = (byte) (payload.length >> 8);
        b[2] = (byte) payload.length;
        b[3] = (byte) type;
        b[4] = (byte) flags;
        b[5] = (byte) (stream >>> 24);
        b[6] = (byte) (stream >> 16);
        b[7] = (byte) (stream >> 8);
        b[8] = (byte) stream;
        for (int i = 0; i < payload.length; i++) {
            b[H2.FRAME_HEADER + i] = (byte) payload[i];
        }
        return b;
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static int u8(byte[] b, int i) {
        return b[i] & 0xff;
    }

    private static int u32(byte[] b, int i) {
        return u8(b, i) << 24 | u8(b, i + 1) << 16 | u8(b, i + 2) << 8 | u8(b, i + 3);
    }
}
