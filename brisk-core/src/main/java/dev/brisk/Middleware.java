package dev.brisk;

/**
 * Wraps a handler. {@link #apply} is called once per route at start-up, never per request; the
 * returned handler decides whether and when to call {@code next}.
 */
@FunctionalInterface
public interface Middleware {
    Handler apply(Handler next);
}
