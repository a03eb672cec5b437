package dev.brisk;

/**
 * Handles one request. Called on the thread chosen by the route's {@link Dispatch}; a handler
 * that returns normally has answered (an untouched context answers {@code 200} with an empty body).
 */
@FunctionalInterface
public interface Handler {
    void handle(Context ctx) throws Exception;
}
