package dev.brisk;

/**
 * Route registration, shared by the app and its groups. Paths start with {@code /}; a segment
 * {@code {name}} captures one segment; a last segment {@code *} captures the rest of the path. Exact
 * paths are found by a hash lookup before the parameterized ones are tried.
 */
public interface Routing {
    /**
     * Registers a route.
     *
     * @param method the method it answers
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     * @throws IllegalArgumentException when the path is malformed; the same method and path twice fail
     *     {@link Brisk#create}
     */
    Route route(Method method, String path, Handler handler);

    /**
     * A {@code GET} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route get(String path, Handler handler) { return route(Method.GET, path, handler); }
    /**
     * A {@code POST} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route post(String path, Handler handler) { return route(Method.POST, path, handler); }
    /**
     * A {@code PUT} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route put(String path, Handler handler) { return route(Method.PUT, path, handler); }
    /**
     * A {@code DELETE} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route delete(String path, Handler handler) { return route(Method.DELETE, path, handler); }
    /**
     * A {@code PATCH} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route patch(String path, Handler handler) { return route(Method.PATCH, path, handler); }
    /**
     * A {@code HEAD} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route head(String path, Handler handler) { return route(Method.HEAD, path, handler); }
    /**
     * A {@code OPTIONS} route.
     *
     * @param path the path template
     * @param handler the handler
     * @return the route, to refine before start
     */
    default Route options(String path, Handler handler) { return route(Method.OPTIONS, path, handler); }
}
