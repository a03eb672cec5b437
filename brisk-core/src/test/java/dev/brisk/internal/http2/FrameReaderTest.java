package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameReaderTest {
    /** Records what the reader reports, one string per call. */
    static final class Log implements FrameReader.ConnectionFrames, FrameReader.StreamFrames {
        final List<String> events = new ArrayList<>();
        final ByteArrayOutputStream data = new ByteArrayOutputStream();
        final ByteArrayOutputStream block = new ByteArrayOutputStream();

        @Override public void dataFrame(int s, int length, boolean end) { events.add("data " + s + " " + length + " " + end); }
        @Override public void data(int s, byte[] a, int off, int len) { data.write(a, off, len); }
        @Override public void dataEnd(int s, boolean end) { events.add("dataEnd " + s + " " + end); }
        @Override public void headers(int s, boolean end, int dep) { events.add("headers " + s + " " + end + " " + dep); }
        @Override public void headerBytes(byte[] a, int off, int len) { block.write(a, off, len); }
        @Override public void headersEnd(int s) { events.add("headersEnd " + s); }
        @Override public void priority(int s, int dep) { events.add("priority " + s + " " + dep); }
        @Override public void rstStream(int s, int code) { events.add("rst " + s + " " + code); }
        @Override public void setting(int id, int value) { events.add("setting " + id + " " + value); }
        @Override public void settingsEnd(boolean ack) { events.add("settingsEnd " + ack); }
        @Override public void ping(boolean ack, long payload) { events.add("ping " + ack + " " + payload); }
        @Override public void goAway(int last, int code) { events.add("goaway " + last + " " + code); }
        @Override public void windowUpdate(int s, int inc) { events.add("window " + s + " " + inc); }
        @Override public void unknownFrame(int type) { events.add("unknown " + type); }
        @Override public void emptyContinuation() { events.add("emptyContinuation"); }
        @Override public void streamError(int s, int code) { events.add("streamError " + s + " " + code); }
    }

    static byte[] frame(int type, int flags, int stream, int... payload) {
        byte[] b = new byte[payload.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) payload[i];
        }
        return frameOf(type, flags, stream, b);
    }

    static byte[] frameOf(int type, int flags, int stream, byte[] payload) {
        byte[] f = new byte[9 + payload.length];
        f[0] = (byte) (payload.length >>> 16);
        f[1] = (byte) (payload.length >>> 8);
        f[2] = (byte) payload.length;
        f[3] = (byte) type;
        f[4] = (byte) flags;
        f[5] = (byte) (stream >>> 24);
        f[6] = (byte) (stream >>> 16);
        f[7] = (byte) (stream >>> 8);
        f[8] = (byte) stream;
        System.arraycopy(payload, 0, f, 9, payload.length);
        return f;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    /** Feeds {@code in} split at {@code split}, as a connection would: unconsumed bytes stay for the next read. */
    static Log feed(byte[] in, int split) throws Http2Exception {
        Log log = new Log();
        FrameReader r = new FrameReader(log, log, 16_384);
        byte[] buf = new byte[in.length];
        int end = 0;
        int start = 0;
        for (int chunk : new int[] {split, in.length - split}) {
            System.arraycopy(in, end, buf, end, chunk);
            end += chunk;
            start = r.read(buf, start, end);
        }
        assertThat(start).as("everything consumed").isEqualTo(in.length);
        assertThat(r.atFrameBoundary()).isTrue();
        return log;
    }

    private static final byte[] CONVERSATION = concat(
            frame(H2.SETTINGS, 0, 0, 0, 4, 0, 0, 0x10, 0, 0, 5, 0, 0, 0x40, 0),
            frame(H2.SETTINGS, H2.ACK, 0),
            frame(H2.HEADERS, H2.PADDED | H2.PRIORITY_FLAG, 1, 2, 0, 0, 0, 3, 16, 'a', 'b', 0, 0),
            frame(H2.CONTINUATION, H2.END_HEADERS, 1, 'c'),
            frame(H2.DATA, H2.PADDED, 1, 3, 'x', 'y', 0, 0, 0),
            frame(H2.DATA, H2.END_STREAM, 1, 'z'),
            frame(H2.PING, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42),
            frame(H2.WINDOW_UPDATE, 0, 0, 0, 0, 1, 0),
            frame(H2.PRIORITY, 0, 3, 0, 0, 0, 1, 7),
            frame(H2.RST_STREAM, 0, 1, 0, 0, 0, 8),
            frame(0x42, 0xff, 0, 1, 2, 3),
            frame(H2.GOAWAY, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 'b', 'y', 'e'));

    @Test
    void readsAConversationSplitAtEveryOffset() throws Exception {
        List<String> expected = null;
        for (int split = 0; split <= CONVERSATION.length; split++) {
            Log log = feed(CONVERSATION, split);
            assertThat(log.data.toString()).isEqualTo("xyz");
            assertThat(log.block.toString()).isEqualTo("abc");
            if (expected == null) {
                expected = log.events;
                assertThat(expected).containsExactly("setting 4 4096", "setting 5 16384", "settingsEnd false",
                        "settingsEnd true", "headers 1 false 3", "headersEnd 1", "data 1 6 false", "dataEnd 1 false",
                        "data 1 1 true", "dataEnd 1 true", "ping false 42", "window 0 256", "priority 3 1",
                        "rst 1 8", "unknown 66", "goaway 1 0");
            } else {
                assertThat(log.events).as("split at %d", split).isEqualTo(expected);
            }
        }
    }

    private static int errorOf(byte[] in) {
        try {
            feed(in, in.length);
        } catch (Http2Exception e) {
            return e.code;
        }
        return -1;
    }

    @Test
    void connectionErrorsOfTheFormat() {
        assertThat(errorOf(frame(H2.DATA, 0, 0, 1))).as("DATA on stream 0").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.HEADERS, H2.END_HEADERS, 0))).as("HEADERS on stream 0").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.SETTINGS, 0, 1))).as("SETTINGS on a stream").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.SETTINGS, 0, 0, 1, 2, 3))).as("SETTINGS of 3 bytes").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.SETTINGS, H2.ACK, 0, 0, 0, 0, 0, 0, 0))).as("ack with payload").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.PING, 0, 0, 1))).as("short PING").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.PING, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0))).as("PING on a stream").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.RST_STREAM, 0, 1, 0, 0, 8))).as("short RST_STREAM").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.WINDOW_UPDATE, 0, 0, 0, 1))).as("short WINDOW_UPDATE").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.GOAWAY, 0, 0, 0, 0, 0, 0))).as("short GOAWAY").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.PUSH_PROMISE, 0, 1, 0, 0, 0, 2))).as("PUSH_PROMISE").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.CONTINUATION, H2.END_HEADERS, 1))).as("CONTINUATION alone").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frameOf(H2.DATA, 0, 1, new byte[16_385]))).as("over the frame size").isEqualTo(H2.FRAME_SIZE_ERROR);
        assertThat(errorOf(frame(H2.DATA, H2.PADDED, 1, 5, 1, 2))).as("padding past the frame").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(frame(H2.HEADERS, H2.PADDED | H2.PRIORITY_FLAG, 1, 1, 0, 0, 0, 0, 16)))
                .as("HEADERS padding past its priority fields").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(concat(frame(H2.HEADERS, 0, 1, 'a'), frame(H2.DATA, 0, 1, 'b'))))
                .as("DATA inside a header block").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(concat(frame(H2.HEADERS, 0, 1, 'a'), frame(H2.CONTINUATION, H2.END_HEADERS, 3, 'b'))))
                .as("CONTINUATION of another stream").isEqualTo(H2.PROTOCOL_ERROR);
        assertThat(errorOf(concat(frame(H2.HEADERS, 0, 1, 'a'), frame(0x42, 0, 0))))
                .as("an unknown frame inside a header block").isEqualTo(H2.PROTOCOL_ERROR);
    }

    @Test
    void aPriorityFrameOfTheWrongSizeIsAStreamError() throws Exception {
        Log log = feed(concat(frame(H2.PRIORITY, 0, 5, 0, 0, 0, 1), frameOf(H2.PING, 0, 0, new byte[8])), 5);
        assertThat(log.events).containsExactly("streamError 5 " + H2.FRAME_SIZE_ERROR, "ping false 0");
    }

    @Test
    void readsNothingOnceStopped() throws Exception {
        Log log = new Log();
        FrameReader r = new FrameReader(log, log, 16_384);
        byte[] two = concat(frameOf(H2.PING, 0, 0, new byte[8]), frameOf(H2.PING, 0, 0, new byte[8]));
        r.stop();
        assertThat(r.read(two, 0, two.length)).isEqualTo(two.length);
        assertThat(log.events).isEmpty();
    }
}
