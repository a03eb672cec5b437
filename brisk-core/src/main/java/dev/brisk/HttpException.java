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
    /** The HTTP status, 400 to 599. */
    private final int status;

    /**
     * Creates the exception, without a stack trace: it is an answer, not a bug.
     *
     * @param status 400 to 599
     * @param message the response body; sent to the client, so never secrets or internals
     * @throws IllegalArgumentException for a status outside 4xx and 5xx
     */
    public HttpException(int status, String message) {
        super(message, null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("HttpException status must be 4xx or 5xx: " + status);
        }
        this.status = status;
    }

    /** {@return the HTTP status the exception maps to} */
    public int status() {
        return status;
    }

    /** 400. */
    public static class BadRequest extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public BadRequest(String message) { super(400, message); }
    }

    /** 401. */
    public static class Unauthorized extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public Unauthorized(String message) { super(401, message); }
    }

    /** 403. */
    public static class Forbidden extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public Forbidden(String message) { super(403, message); }
    }

    /** 404. */
    public static class NotFound extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public NotFound(String message) { super(404, message); }
    }

    /** 409. */
    public static class Conflict extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public Conflict(String message) { super(409, message); }
    }

    /** 413. */
    public static class PayloadTooLarge extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public PayloadTooLarge(String message) { super(413, message); }
    }

    /** 415. */
    public static class UnsupportedMediaType extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public UnsupportedMediaType(String message) { super(415, message); }
    }

    /** 422. */
    public static class UnprocessableContent extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public UnprocessableContent(String message) { super(422, message); }
    }

    /** 503. */
    public static class ServiceUnavailable extends HttpException {
        private static final long serialVersionUID = 1L;
        /**
         * Creates the exception.
         *
         * @param message the response body
         */
        public ServiceUnavailable(String message) { super(503, message); }
    }
}
