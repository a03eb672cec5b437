package dev.brisk.internal.routing;

import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.Method;
import java.util.List;

/**
 * A route ready to serve: its method, its template (for logs and metrics, never the raw path), the
 * names of its path parameters in order, its handler chain built once at start-up, its dispatch,
 * whether load shedding spares it, its response counters, its own request-body limit ({@link #SERVER_LIMIT}:
 * the server's) and whether it streams its request body.
 */
public record CompiledRoute(Method method, String template, List<String> paramNames, Handler chain, Dispatch dispatch,
                            boolean neverShed, RouteStats stats, long maxBodySize, boolean streamBody) {
    /** {@link #maxBodySize}: the route takes the server's {@code max-body-size}. */
    public static final long SERVER_LIMIT = -1;

    /** A route with fresh counters, the server's body limit and a buffered body. */
    public CompiledRoute(Method method, String template, List<String> paramNames, Handler chain, Dispatch dispatch,
                         boolean neverShed) {
        this(method, template, paramNames, chain, dispatch, neverShed, new RouteStats(), SERVER_LIMIT, false);
    }

    /** A route with fresh counters. */
    public CompiledRoute(Method method, String template, List<String> paramNames, Handler chain, Dispatch dispatch,
                         boolean neverShed, long maxBodySize, boolean streamBody) {
        this(method, template, paramNames, chain, dispatch, neverShed, new RouteStats(), maxBodySize, streamBody);
    }
}
