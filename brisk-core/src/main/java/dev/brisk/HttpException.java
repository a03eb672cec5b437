package dev.brisk;

/**
 * An exception that maps to an HTTP status. Its message is meant for the client and is sent as the
 * response body unless an exception or error handler answers otherwise: plain text, or
 * {@code {"status":409,"error":"Conflict","message":"..."}} when the request's {@code Accept} prefers
 * {@code application/json}. Thrown by a handler or before filter, it is answered before control returns
 * to the middleware (see {@link Middleware}).
 */
public class HttpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public HttpException(int status, String message) {
        super(message, null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("HttpException status must be 4xx or 5xx: " + status);
        }
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** 400. */
    public static class BadRequest extends HttpException {
        private static final long serialVersionUID = 1L;
        public BadRequest(String message) { super(400, message); }
    }

    /** 401. */
    public static class Unauthorized extends HttpException {
        private static final long serialVersionUID = 1L;
        public Unauthorized(String message) { super(401, message); }
    }

    /** 403. */
    public static class Forbidden extends HttpException {
        private static final long serialVersionUID = 1L;
        public Forbidden(String message) { super(403, message); }
    }

    /** 404. */
    public static class NotFound extends HttpException {
        private static final long serialVersionUID = 1L;
        public NotFound(String message) { super(404, message); }
    }

    /** 409. */
    public static class Conflict extends HttpException {
        private static final long serialVersionUID = 1L;
        public Conflict(String message) { super(409, message); }
    }

    /** 413. */
    public static class PayloadTooLarge extends HttpException {
        private static final long serialVersionUID = 1L;
        public PayloadTooLarge(String message) { super(413, message); }
    }

    /** 415. */
    public static class UnsupportedMediaType extends HttpException {
        private static final long serialVersionUID = 1L;
        public UnsupportedMediaType(String message) { super(415, message); }
    }

    /** 422. */
    public static class UnprocessableContent extends HttpException {
        private static final long serialVersionUID = 1L;
        public UnprocessableContent(String message) { super(422, message); }
    }

    /** 503. */
    public static class ServiceUnavailable extends HttpException {
        private static final long serialVersionUID = 1L;
        public ServiceUnavailable(String message) { super(503, message); }
    }
}
