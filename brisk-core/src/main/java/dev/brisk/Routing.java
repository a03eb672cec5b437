package dev.brisk;

/**
 * Route registration, shared by the app and its groups. Paths start with {@code /}; a segment
 * {@code {name}} captures one segment; a last segment {@code *} captures the rest of the path. Exact
 * paths are found by a hash lookup before the parameterized ones are tried.
 */
public interface Routing {
    Route route(Method method, String path, Handler handler);

    default Route get(String path, Handler handler) { return route(Method.GET, path, handler); }
    default Route post(String path, Handler handler) { return route(Method.POST, path, handler); }
    default Route put(String path, Handler handler) { return route(Method.PUT, path, handler); }
    default Route delete(String path, Handler handler) { return route(Method.DELETE, path, handler); }
    default Route patch(String path, Handler handler) { return route(Method.PATCH, path, handler); }
    default Route head(String path, Handler handler) { return route(Method.HEAD, path, handler); }
    default Route options(String path, Handler handler) { return route(Method.OPTIONS, path, handler); }
}
