package dev.brisk.internal.http;

/**
 * A request that cannot be served as sent. Carries the status to answer with; the connection is
 * always closed after that answer, so no byte after the fault is ever parsed as a new request.
 */
public final class HttpParseException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    public HttpParseException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
