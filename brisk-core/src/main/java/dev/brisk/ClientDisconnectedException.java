package dev.brisk;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The client closed the connection while the handler was waiting for it (e.g. for a request body sent
 * with {@code Expect: 100-continue}). Nothing can be answered; the framework logs it at debug level
 * only, so a client cannot fill the logs by hanging up.
 */
public final class ClientDisconnectedException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception; the cause is an {@link IOException} with the same message.
     *
     * @param message what the server was waiting for when the client went away
     */
    public ClientDisconnectedException(String message) {
        super(message, new IOException(message));
    }
}
