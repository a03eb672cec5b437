package dev.brisk.internal.ws;

/**
 * The close status codes of RFC 6455 section 7.4 that this server sends, and which codes a peer may
 * send: the registered ones a close frame may carry (1000-1003, 1007-1014) and those for libraries
 * (3000-3999) and applications (4000-4999). 1004 is reserved; 1005, 1006 and 1015 stand for "no
 * code", "no close frame" and "TLS failed" and never travel in a frame.
 */
final class CloseCodes {
    static final int NORMAL = 1000;
    static final int GOING_AWAY = 1001;
    static final int PROTOCOL_ERROR = 1002;
    static final int UNSUPPORTED_DATA = 1003;
    /** Reported, never sent: the peer's close frame had no code. */
    static final int NO_STATUS = 1005;
    /** Reported, never sent: the connection ended without a close frame. */
    static final int ABNORMAL = 1006;
    static final int INVALID_DATA = 1007;
    static final int POLICY = 1008;
    static final int TOO_BIG = 1009;
    static final int INTERNAL_ERROR = 1011;
    static final int TRY_AGAIN_LATER = 1013;

    private CloseCodes() {
    }

    /** Whether a peer's close frame may carry {@code code}. */
    static boolean validOnWire(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
    }
}
