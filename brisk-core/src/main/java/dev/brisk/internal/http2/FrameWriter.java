package dev.brisk.internal.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes frames into a connection's {@link Http2Output}: the control frames, a header block as
 * {@code HEADERS} and as many {@code CONTINUATION}s as the peer's frame size asks (nothing can come
 * between them: the output is one ordered queue), and {@code DATA} frames, copied or as a view.
 * Encodings only; what to send and when is the connection's. Loop thread only.
 */
final class FrameWriter {
    private final Http2Output out;
    /** The largest payload the peer accepts ({@code SETTINGS_MAX_FRAME_SIZE}). */
    private int peerMaxFrame = H2.MIN_MAX_FRAME_SIZE;

    FrameWriter(Http2Output out) {
        this.out = out;
    }

    void peerMaxFrame(int size) {
        peerMaxFrame = size;
    }

    int peerMaxFrame() {
        return peerMaxFrame;
    }

    /** Our {@code SETTINGS}: pairs of id and value. */
    void settings(int... pairs) {
        ByteBuffer b = out.room(H2.FRAME_HEADER + pairs.length * 3);
        Http2Output.header(b, pairs.length * 3, H2.SETTINGS, 0, 0);
        for (int i = 0; i < pairs.length; i += 2) {
            b.putShort((short) pairs[i]).putInt(pairs[i + 1]);
        }
    }

    void settingsAck() {
        Http2Output.header(out.room(H2.FRAME_HEADER), 0, H2.SETTINGS, H2.ACK, 0);
    }

    void ping(boolean ack, long payload) {
        ByteBuffer b = out.room(H2.FRAME_HEADER + 8);
        Http2Output.header(b, 8, H2.PING, ack ? H2.ACK : 0, 0);
        b.putLong(payload);
    }

    void goAway(int lastStream, int code, String debug) {
        byte[] d = debug == null ? new byte[0] : debug.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(d.length, 256);
        ByteBuffer b = out.room(H2.FRAME_HEADER + 8 + n);
        Http2Output.header(b, 8 + n, H2.GOAWAY, 0, 0);
        b.putInt(lastStream).putInt(code).put(d, 0, n);
    }

    void rstStream(int stream, int code) {
        ByteBuffer b = out.room(H2.FRAME_HEADER + 4);
        Http2Output.header(b, 4, H2.RST_STREAM, 0, stream);
        b.putInt(code);
    }

    void windowUpdate(int stream, int increment) {
        ByteBuffer b = out.room(H2.FRAME_HEADER + 4);
        Http2Output.header(b, 4, H2.WINDOW_UPDATE, 0, stream);
        b.putInt(increment);
    }

    /** A header block: {@code HEADERS} then {@code CONTINUATION}s, each within the peer's frame size. */
    void headers(int stream, byte[] block, int len, boolean endStream) {
        int max = Math.min(peerMaxFrame, out.maxInline());
        int off = 0;
        boolean first = true;
        do {
            int n = Math.min(max, len - off);
            boolean last = off + n == len;
            int flags = (last ? H2.END_HEADERS : 0) | (first && endStream ? H2.END_STREAM : 0);
            ByteBuffer b = out.room(H2.FRAME_HEADER + n);
            Http2Output.header(b, n, first ? H2.HEADERS : H2.CONTINUATION, flags, stream);
            b.put(block, off, n);
            off += n;
            first = false;
        } while (off < len);
    }

    /** A {@code DATA} frame with {@code n} bytes of {@code src} from its position, copied; advances {@code src}. */
    void dataCopy(int stream, ByteBuffer src, int n, boolean endStream) {
        ByteBuffer b = out.room(H2.FRAME_HEADER + n);
        Http2Output.header(b, n, H2.DATA, endStream ? H2.END_STREAM : 0, stream);
        int limit = src.limit();
        src.limit(src.position() + n);
        b.put(src);
        src.limit(limit);
    }

    /** A {@code DATA} frame of the ASCII {@code text}, copied; it fits one pooled buffer. */
    void dataAscii(int stream, String text, boolean endStream) {
        int n = text.length();
        ByteBuffer b = out.room(H2.FRAME_HEADER + n);
        Http2Output.header(b, n, H2.DATA, endStream ? H2.END_STREAM : 0, stream);
        dev.brisk.internal.http.Ascii.put(b, text);
    }

    /** A {@code DATA} frame whose payload goes out as a view of {@code src}'s next {@code n} bytes; advances {@code src}. */
    void dataView(int stream, ByteBuffer src, int n, boolean endStream) {
        Http2Output.header(out.room(H2.FRAME_HEADER), n, H2.DATA, endStream ? H2.END_STREAM : 0, stream);
        out.append(src.slice(src.position(), n));
        src.position(src.position() + n);
    }
}
