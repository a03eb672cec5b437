package dev.brisk.internal.routing;

import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.Method;
import java.util.List;

/**
 * A route ready to serve: its method, its template (for logs and metrics, never the raw path), the
 * names of its path parameters in order, its handler chain built once at start-up, its dispatch,
 * whether load shedding spares it, and its response counters.
 */
public record CompiledRoute(Method method, String template, List<String> paramNames, Handler chain, Dispatch dispatch,
                            boolean neverShed, RouteStats stats) {
    /** A route with fresh counters. */
    public CompiledRoute(Method method, String template, List<String> paramNames, Handler chain, Dispatch dispatch,
                         boolean neverShed) {
        this(method, template, paramNames, chain, dispatch, neverShed, new RouteStats());
    }
}
