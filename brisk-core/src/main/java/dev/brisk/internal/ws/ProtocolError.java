package dev.brisk.internal.ws;

/**
 * The peer broke the protocol or a limit: the connection is failed with {@link #code} (RFC 6455
 * section 7.1.7). No stack trace: it is an answer to bad input, not a bug.
 */
final class ProtocolError extends Exception {
    private final int code;

    ProtocolError(int code, String reason) {
        super(reason, null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}
