package dev.brisk;

/**
 * Turns an exception thrown by a handler or middleware into a response. Registered per exception
 * type; the handler for the closest superclass of the thrown exception wins.
 *
 * @param <T> the exception type handled
 */
@FunctionalInterface
public interface ExceptionHandler<T extends Throwable> {
    /**
     * Writes the response for {@code exception}, on the thread that ran the failed handler.
     *
     * @param exception what the handler or middleware threw
     * @param ctx the failed request's context
     * @throws Exception answered with {@code 500}
     */
    void handle(T exception, Context ctx) throws Exception;
}
