package dev.brisk;

/**
 * Wraps a handler. {@link #apply} is called once per route at start-up, never per request; the
 * returned handler decides whether and when to call {@code next}.
 */
@FunctionalInterface
public interface Middleware {
    /**
     * Wraps {@code next}.
     *
     * @param next the rest of the chain
     * @return the handler to run instead of {@code next}; called concurrently, so it must be thread-safe
     */
    Handler apply(Handler next);
}
