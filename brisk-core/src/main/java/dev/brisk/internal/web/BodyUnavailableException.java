package dev.brisk.internal.web;

import dev.brisk.HttpException;

/**
 * A request body the server cannot take now (its memory budget or its spool disk is spent): a 503 the
 * client may retry, so its answer carries {@code Retry-After}. Thrown to a handler from the body
 * accessors; any thread.
 */
public final class BodyUnavailableException extends HttpException {
    private static final long serialVersionUID = 1L;

    /** @param message the answer's text, for the client */
    public BodyUnavailableException(String message) {
        super(503, message);
    }
}
