package dev.brisk.internal.http2;

/**
 * A connection error (RFC 9113 5.4.1): the connection answers with {@code GOAWAY} carrying
 * {@link #code} and closes. Stream errors are not exceptions: they reset one stream and go on.
 * Without a stack trace: it is a verdict on the peer's bytes, made often by hostile ones.
 */
final class Http2Exception extends Exception {
    final int code;

    Http2Exception(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }
}
