package dev.brisk.internal.http2;

import java.nio.charset.StandardCharsets;

/** The numbers of RFC 9113: frame types and flags, settings, error codes, the client preface. */
final class H2 {
    private H2() {
    }

    /** What a client sends first: {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}. */
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    static final int FRAME_HEADER = 9;

    // frame types
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int PRIORITY = 0x2;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;

    // flags
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int PADDED = 0x8;
    static final int PRIORITY_FLAG = 0x20;

    // settings
    static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;
    static final int SETTINGS_ENABLE_PUSH = 0x2;
    static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final int SETTINGS_MAX_FRAME_SIZE = 0x5;
    static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

    static final int DEFAULT_WINDOW = 65_535;
    static final int MAX_WINDOW = Integer.MAX_VALUE;
    static final int MIN_MAX_FRAME_SIZE = 16_384;
    static final int MAX_MAX_FRAME_SIZE = (1 << 24) - 1;
    static final int DEFAULT_HEADER_TABLE_SIZE = 4_096;

    // error codes
    static final int NO_ERROR = 0x0;
    static final int PROTOCOL_ERROR = 0x1;
    static final int INTERNAL_ERROR = 0x2;
    static final int FLOW_CONTROL_ERROR = 0x3;
    static final int SETTINGS_TIMEOUT = 0x4;
    static final int STREAM_CLOSED = 0x5;
    static final int FRAME_SIZE_ERROR = 0x6;
    static final int REFUSED_STREAM = 0x7;
    static final int CANCEL = 0x8;
    static final int COMPRESSION_ERROR = 0x9;
    static final int CONNECT_ERROR = 0xa;
    static final int ENHANCE_YOUR_CALM = 0xb;
    static final int INADEQUATE_SECURITY = 0xc;
    static final int HTTP_1_1_REQUIRED = 0xd;

    /** Whether {@code a[off..off+len)} is the start of the client preface (all of it when len is 24). */
    static boolean prefacePrefix(byte[] a, int off, int len) {
        int n = Math.min(len, PREFACE.length);
        for (int i = 0; i < n; i++) {
            if (a[off + i] != PREFACE[i]) {
                return false;
            }
        }
        return true;
    }
}
