package dev.brisk;

/**
 * Wraps a handler. {@link #apply} is called at start-up, never per request: once per route (and once
 * per app answer: 404, 405, automatic OPTIONS), plus once more for a route with group or route
 * middleware, whose chain then also answers the CORS preflights announcing that route's method (see
 * {@link Cors}). The returned handler decides whether and when to call {@code next}.
 *
 * <p><b>Error answers.</b> When a before filter or the handler throws (and for the app's own 404, 405
 * and 501), the exception is turned into the error answer inside {@code next}, at the route's core: by
 * the app's exception handlers, else an {@link HttpException}'s status and message, else {@code 500}.
 * So {@code next.handle(ctx)} returns normally with the error answer already set, and the code after it
 * runs on every answer; {@code ctx.status()} then tells what the answer is:
 *
 * <pre>{@code
 * cfg.use(next -> ctx -> {
 *     long t = System.nanoTime();
 *     next.handle(ctx);   // returns on a 404 or a handler's exception too
 *     ctx.header("Server-Timing", "app;dur=" + (System.nanoTime() - t) / 1e6);
 * });
 * }</pre>
 *
 * <p>Headers on an error answer: those a middleware set before {@code next} and those it sets after
 * {@code next} returns stay; those set by the failing stage (the handler, or the before filters when
 * one of them failed) are dropped with the rest of its answer. An exception a middleware throws itself
 * is mapped outside the whole chain: that answer keeps only the headers set before the handler started
 * (none when it had not started). After filters run
 * after the chain, and the status's error handler ({@link BriskConfig#error}) last, on the final
 * status. A middleware no longer sees the exception: it inspects {@code ctx.status()} instead.
 */
@FunctionalInterface
public interface Middleware {
    /**
     * Wraps {@code next}.
     *
     * @param next the rest of the chain: further middleware, the before filters and the handler
     * @return the handler to run instead of {@code next}; called concurrently, so it must be thread-safe
     */
    Handler apply(Handler next);
}
