package dev.brisk.internal.http2;

/**
 * Splits a connection's bytes into HTTP/2 frames (RFC 9113 4, 6) and checks their format: sizes,
 * stream zero or not, padding, and that a header block's {@code CONTINUATION}s follow it with
 * nothing in between. A pure codec: bytes in, calls on a {@link ConnectionFrames} and a {@link StreamFrames} out, no socket. Frames of
 * any size up to {@code maxFrameSize} pass through a small buffer: a {@code DATA} payload and a header
 * block fragment are handed over piece by piece as they arrive; only the small fixed-size frames
 * are waited for whole.
 *
 * <pre>
 *   HEADER (9 bytes) ─┬─ DATA ─────────▶ [PAD_LENGTH] ─▶ DATA_BYTES ─────────────▶ [PADDING] ─▶ HEADER
 *                     ├─ HEADERS ──────▶ [PAD_LENGTH] ─▶ [PRIORITY] ─▶ FRAGMENT ─▶ [PADDING] ─▶ HEADER
 *                     ├─ CONTINUATION ─────────────────────────────▶ FRAGMENT ─────────────▶ HEADER
 *                     ├─ SETTINGS, PING, RST_STREAM, PRIORITY, WINDOW_UPDATE, GOAWAY ─▶ FIXED ─▶ HEADER
 *                     └─ unknown types, GOAWAY debug data, a PRIORITY of a wrong size ─▶ SKIP ─▶ HEADER
 * </pre>
 *
 * <p>Errors: a connection error is thrown as {@link Http2Exception}; the one stream error of the
 * format (a {@code PRIORITY} frame of the wrong size) goes to {@link StreamFrames#streamError}. Loop
 * thread only.
 */
final class FrameReader {
    /** What the frames say about the connection itself. A method may throw a connection error; the reader then stops. */
    interface ConnectionFrames {
        /** One setting of a {@code SETTINGS} frame (not an ack). */
        void setting(int id, int value) throws Http2Exception;

        /** A {@code SETTINGS} frame is over; {@code ack}: it was an acknowledgement (empty). */
        void settingsEnd(boolean ack) throws Http2Exception;

        void ping(boolean ack, long payload) throws Http2Exception;

        void goAway(int lastStream, int code) throws Http2Exception;

        /** A {@code WINDOW_UPDATE}: the connection's ({@code stream} 0) or a stream's. */
        void windowUpdate(int stream, int increment) throws Http2Exception;

        /** A frame of a type this side does not know: ignored (5.5), but it is still a frame. */
        void unknownFrame(int type) throws Http2Exception;

        /** An empty {@code CONTINUATION} that does not end its block: a frame that carries nothing. */
        void emptyContinuation() throws Http2Exception;
    }

    /** What the frames say about streams: requests and their bodies. A method may throw a connection error. */
    interface StreamFrames {
        /** A {@code DATA} frame begins: {@code length} is its whole payload, padding included (flow control counts it). */
        void dataFrame(int stream, int length, boolean endStream) throws Http2Exception;

        /** Bytes of the current {@code DATA} frame's data (padding excluded). */
        void data(int stream, byte[] a, int off, int len) throws Http2Exception;

        /** The current {@code DATA} frame is over. */
        void dataEnd(int stream, boolean endStream) throws Http2Exception;

        /** A header block begins ({@code HEADERS}); {@code dependency} is -1 without priority fields. */
        void headers(int stream, boolean endStream, int dependency) throws Http2Exception;

        /** A piece of the header block. */
        void headerBytes(byte[] a, int off, int len) throws Http2Exception;

        /** The header block is whole ({@code END_HEADERS} seen). */
        void headersEnd(int stream) throws Http2Exception;

        void priority(int stream, int dependency) throws Http2Exception;

        void rstStream(int stream, int code) throws Http2Exception;

        /** A frame that is an error of one stream only: reset it with {@code code}. */
        void streamError(int stream, int code) throws Http2Exception;
    }

    private static final int HEADER = 0;
    private static final int PAD_LENGTH = 1;
    private static final int PRIORITY_FIELDS = 2;
    private static final int DATA_BYTES = 3;
    private static final int FRAGMENT = 4;
    private static final int PADDING = 5;
    private static final int FIXED = 6;
    private static final int SKIP = 7;

    private final ConnectionFrames conn;
    private final StreamFrames streams;
    private final int maxFrameSize;
    private int state = HEADER;
    // the current frame
    private int length;
    private int type;
    private int flags;
    private int stream;
    /** Payload bytes of the current frame not consumed yet. */
    private int remaining;
    private int padding;
    /** The stream whose header block waits for CONTINUATION frames, or 0. */
    private int continuing;
    /** The listener wants no more frames (its connection is closing). */
    private boolean stopped;

    FrameReader(ConnectionFrames conn, StreamFrames streams, int maxFrameSize) {
        this.conn = conn;
        this.streams = streams;
        this.maxFrameSize = maxFrameSize;
    }

    /** No more frames: {@link #read} returns at once from now on. */
    void stop() {
        stopped = true;
    }

    /** Whether a header block is open: only its {@code CONTINUATION} may come next. */
    boolean inHeaderBlock() {
        return continuing != 0;
    }

    /** Whether nothing of a frame is pending: the last byte consumed ended a frame. */
    boolean atFrameBoundary() {
        return state == HEADER;
    }

    /**
     * Consumes frames from {@code a[off..end)} as far as they go.
     *
     * @return where the unconsumed bytes start (a partial frame header or fixed-size payload)
     */
    int read(byte[] a, int off, int end) throws Http2Exception {
        int i = off;
        while (true) {
            if (stopped) {
                return end;
            }
            int avail = end - i;
            switch (state) {
                case HEADER -> {
                    if (avail < H2.FRAME_HEADER) {
                        return i;
                    }
                    length = (a[i] & 0xff) << 16 | (a[i + 1] & 0xff) << 8 | a[i + 2] & 0xff;
                    type = a[i + 3] & 0xff;
                    flags = a[i + 4] & 0xff;
                    stream = int31(a, i + 5);
                    i += H2.FRAME_HEADER;
                    remaining = length;
                    padding = 0;
                    begin();
                }
                case PAD_LENGTH -> {
                    if (avail < 1) {
                        return i;
                    }
                    padding = a[i++] & 0xff;
                    remaining--;
                    int fixed = type == H2.HEADERS && (flags & H2.PRIORITY_FLAG) != 0 ? 5 : 0;
                    if (padding > remaining - fixed) {
                        throw new Http2Exception(H2.PROTOCOL_ERROR, "padding longer than the frame");
                    }
                    remaining -= padding; // what follows excludes the padding
                    afterPadLength();
                }
                case PRIORITY_FIELDS -> {
                    if (avail < 5) {
                        return i;
                    }
                    int dependency = int31(a, i);
                    i += 5;
                    remaining -= 5;
                    startBlock(dependency);
                }
                case DATA_BYTES -> {
                    int n = Math.min(avail, remaining);
                    if (n > 0) {
                        streams.data(stream, a, i, n);
                        i += n;
                        remaining -= n;
                    }
                    if (remaining > 0) {
                        return i;
                    }
                    boolean end2 = (flags & H2.END_STREAM) != 0;
                    int s = stream;
                    toPaddingOrHeader();
                    streams.dataEnd(s, end2);
                }
                case FRAGMENT -> {
                    int n = Math.min(avail, remaining);
                    if (n > 0) {
                        streams.headerBytes(a, i, n);
                        i += n;
                        remaining -= n;
                    }
                    if (remaining > 0) {
                        return i;
                    }
                    boolean whole = (flags & H2.END_HEADERS) != 0;
                    int s = stream;
                    continuing = whole ? 0 : s;
                    toPaddingOrHeader();
                    if (whole) {
                        streams.headersEnd(s);
                    }
                }
                case PADDING -> {
                    int n = Math.min(avail, padding);
                    i += n;
                    padding -= n;
                    if (padding > 0) {
                        return i;
                    }
                    state = HEADER;
                }
                case FIXED -> {
                    int need = type == H2.SETTINGS ? 6 : type == H2.GOAWAY ? 8 : length;
                    if (avail < need) {
                        return i;
                    }
                    fixed(a, i);
                    i += need;
                    remaining -= need;
                    if (type == H2.GOAWAY) {
                        state = remaining > 0 ? SKIP : HEADER;
                    } else if (remaining == 0) {
                        state = HEADER;
                        if (type == H2.SETTINGS) {
                            conn.settingsEnd(false);
                        }
                    }
                }
                case SKIP -> {
                    int n = Math.min(avail, remaining);
                    i += n;
                    remaining -= n;
                    if (remaining > 0) {
                        return i;
                    }
                    state = HEADER;
                    if (type == H2.PRIORITY) {
                        streams.streamError(stream, H2.FRAME_SIZE_ERROR);
                    }
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }
    }

    private void toPaddingOrHeader() {
        state = padding > 0 ? PADDING : HEADER;
    }

    /** Checks a new frame's header and picks the state its payload is read in. */
    private void begin() throws Http2Exception {
        if (length > maxFrameSize) {
            throw new Http2Exception(H2.FRAME_SIZE_ERROR, "frame of " + length + " bytes exceeds SETTINGS_MAX_FRAME_SIZE");
        }
        if (continuing != 0 && (type != H2.CONTINUATION || stream != continuing)) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "a header block must be followed by its CONTINUATION frames only");
        }
        switch (type) {
            case H2.DATA -> {
                requireStream();
                if ((flags & H2.PADDED) != 0 && length < 1) {
                    throw new Http2Exception(H2.FRAME_SIZE_ERROR, "padded DATA frame without a pad length");
                }
                streams.dataFrame(stream, length, (flags & H2.END_STREAM) != 0);
                if ((flags & H2.PADDED) != 0) {
                    state = PAD_LENGTH;
                } else {
                    state = DATA_BYTES;
                }
            }
            case H2.HEADERS -> {
                requireStream();
                int min = ((flags & H2.PADDED) != 0 ? 1 : 0) + ((flags & H2.PRIORITY_FLAG) != 0 ? 5 : 0);
                if (length < min) {
                    throw new Http2Exception(H2.FRAME_SIZE_ERROR, "HEADERS frame too short for its fields");
                }
                if ((flags & H2.PADDED) != 0) {
                    state = PAD_LENGTH;
                } else {
                    afterPadLength();
                }
            }
            case H2.CONTINUATION -> {
                requireStream();
                if (continuing == 0) {
                    throw new Http2Exception(H2.PROTOCOL_ERROR, "CONTINUATION without a header block");
                }
                if (length == 0 && (flags & H2.END_HEADERS) == 0) {
                    conn.emptyContinuation();
                }
                state = FRAGMENT;
            }
            case H2.PRIORITY -> {
                requireStream();
                state = length == 5 ? FIXED : SKIP;
            }
            case H2.RST_STREAM -> {
                requireStream();
                requireLength(length == 4, "RST_STREAM");
                state = FIXED;
            }
            case H2.SETTINGS -> {
                requireConnection();
                if ((flags & H2.ACK) != 0) {
                    requireLength(length == 0, "SETTINGS ack");
                    state = HEADER;
                    conn.settingsEnd(true);
                    return;
                }
                requireLength(length % 6 == 0, "SETTINGS");
                if (length == 0) {
                    state = HEADER;
                    conn.settingsEnd(false);
                } else {
                    state = FIXED;
                }
            }
            case H2.PUSH_PROMISE -> throw new Http2Exception(H2.PROTOCOL_ERROR, "PUSH_PROMISE from a client");
            case H2.PING -> {
                requireConnection();
                requireLength(length == 8, "PING");
                state = FIXED;
            }
            case H2.GOAWAY -> {
                requireConnection();
                requireLength(length >= 8, "GOAWAY");
                state = FIXED;
            }
            case H2.WINDOW_UPDATE -> {
                requireLength(length == 4, "WINDOW_UPDATE");
                state = FIXED;
            }
            default -> {
                conn.unknownFrame(type);
                state = length > 0 ? SKIP : HEADER;
            }
        }
    }

    /** After a HEADERS frame's pad length (or at once): its priority fields, or its fragment. */
    private void afterPadLength() throws Http2Exception {
        if (type == H2.DATA) {
            state = DATA_BYTES;
        } else if ((flags & H2.PRIORITY_FLAG) != 0) {
            state = PRIORITY_FIELDS;
        } else {
            startBlock(-1);
        }
    }

    private void startBlock(int dependency) throws Http2Exception {
        state = FRAGMENT;
        streams.headers(stream, (flags & H2.END_STREAM) != 0, dependency);
        if (remaining == 0) {
            // an empty fragment: the FRAGMENT state ends the frame at once
            return;
        }
    }

    private void fixed(byte[] a, int i) throws Http2Exception {
        switch (type) {
            case H2.PRIORITY -> streams.priority(stream, int31(a, i));
            case H2.RST_STREAM -> streams.rstStream(stream, int32(a, i));
            case H2.SETTINGS -> conn.setting((a[i] & 0xff) << 8 | a[i + 1] & 0xff, int32(a, i + 2));
            case H2.PING -> conn.ping((flags & H2.ACK) != 0, (long) int32(a, i) << 32 | int32(a, i + 4) & 0xffffffffL);
            case H2.GOAWAY -> conn.goAway(int31(a, i), int32(a, i + 4));
            case H2.WINDOW_UPDATE -> conn.windowUpdate(stream, int31(a, i));
            default -> throw new IllegalStateException("type " + type);
        }
    }

    private void requireStream() throws Http2Exception {
        if (stream == 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "frame type " + type + " on stream 0");
        }
    }

    private void requireConnection() throws Http2Exception {
        if (stream != 0) {
            throw new Http2Exception(H2.PROTOCOL_ERROR, "frame type " + type + " on a stream");
        }
    }

    private static void requireLength(boolean ok, String what) throws Http2Exception {
        if (!ok) {
            throw new Http2Exception(H2.FRAME_SIZE_ERROR, what + " frame of a wrong length");
        }
    }

    private static int int31(byte[] a, int i) {
        return int32(a, i) & 0x7fffffff;
    }

    private static int int32(byte[] a, int i) {
        return (a[i] & 0xff) << 24 | (a[i + 1] & 0xff) << 16 | (a[i + 2] & 0xff) << 8 | a[i + 3] & 0xff;
    }
}
