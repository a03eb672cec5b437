package dev.brisk;

/**
 * Turns an exception thrown by a handler or middleware into a response. Registered per exception
 * type; the handler for the closest superclass of the thrown exception wins.
 */
@FunctionalInterface
public interface ExceptionHandler<T extends Throwable> {
    void handle(T exception, Context ctx) throws Exception;
}
