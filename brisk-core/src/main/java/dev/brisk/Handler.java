package dev.brisk;

/**
 * Handles one request. Called on the thread chosen by the route's {@link Dispatch}; a handler
 * that returns normally has answered (an untouched context answers {@code 200} with an empty body).
 */
@FunctionalInterface
public interface Handler {
    /**
     * Handles the request.
     *
     * @param ctx the request and its response; valid until this method returns
     * @throws Exception mapped to a response by the app's {@link ExceptionHandler}s, else {@code 500}
     */
    void handle(Context ctx) throws Exception;
}
