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
     * Registers a route whose body is bound from JSON before its handler runs, as
     * {@link Context#bodyAsJson(java.lang.reflect.Type)} binds it. The route declares that the app
     * uses JSON, so an app without a {@link BriskConfig#json codec} fails {@link Brisk#create} with a
     * message naming the route, rather than answering {@code 500} at the first request.
     *
     * @param <T> the body's type
     * @param method the method it answers
     * @param path the path template
     * @param bodyType the body's type: a class, or a generic type such as {@code List<Todo>}
     * @param handler the handler, given the bound body
     * @return the route, to refine before start
     * @throws IllegalArgumentException when the path is malformed or an argument is null; the same
     *     method and path twice fail {@link Brisk#create}
     */
    <T> Route route(Method method, String path, java.lang.reflect.Type bodyType, BodyHandler<T> handler);

    /**
     * A {@code POST} route with a JSON body bound to {@code bodyType}
     * (see {@link #route(Method, String, java.lang.reflect.Type, BodyHandler)}).
     *
     * @param <T> the body's type
     * @param path the path template
     * @param bodyType the body's class
     * @param handler the handler, given the bound body
     * @return the route, to refine before start
     */
    default <T> Route post(String path, Class<T> bodyType, BodyHandler<T> handler) {
        return route(Method.POST, path, bodyType, handler);
    }

    /**
     * A {@code PUT} route with a JSON body bound to {@code bodyType}
     * (see {@link #route(Method, String, java.lang.reflect.Type, BodyHandler)}).
     *
     * @param <T> the body's type
     * @param path the path template
     * @param bodyType the body's class
     * @param handler the handler, given the bound body
     * @return the route, to refine before start
     */
    default <T> Route put(String path, Class<T> bodyType, BodyHandler<T> handler) {
        return route(Method.PUT, path, bodyType, handler);
    }

    /**
     * A {@code PATCH} route with a JSON body bound to {@code bodyType}
     * (see {@link #route(Method, String, java.lang.reflect.Type, BodyHandler)}).
     *
     * @param <T> the body's type
     * @param path the path template
     * @param bodyType the body's class
     * @param handler the handler, given the bound body
     * @return the route, to refine before start
     */
    default <T> Route patch(String path, Class<T> bodyType, BodyHandler<T> handler) {
        return route(Method.PATCH, path, bodyType, handler);
    }

    /**
     * Serves {@code files} under {@code prefix}: {@code GET} and {@code HEAD} of {@code prefix/<path>}
     * answer the file at {@code <path>} (see {@link StaticFiles} for what is served and how), and
     * {@code prefix} itself redirects to {@code prefix/}. The routes run on virtual threads by default,
     * because finding and opening a file may wait for the disk; the returned route sets both routes'
     * dispatch and middleware.
     *
     * <pre>{@code
     * cfg.staticFiles("/static", StaticFiles.directory(Path.of("web")).maxAge(Duration.ofHours(1)));
     * cfg.staticFiles("/", StaticFiles.classpath("public"));  // the whole path space, behind every route
     * }</pre>
     *
     * @param prefix the path the files are under, such as {@code /static}; {@code /} for the root
     * @param files the files and how they are served
     * @return both routes of the mount, to refine before start
     * @throws IllegalArgumentException when the prefix is malformed or has parameters, or a directory
     *     mount's directory does not exist
     */
    Route staticFiles(String prefix, StaticFiles files);

    /**
     * A WebSocket route: a {@code GET} whose handshake, once accepted, turns the connection into a
     * WebSocket session run by {@code spec}'s handlers (see {@link WebSocketConfig}). It runs inside the
     * middleware like any route, so middleware may authenticate the handshake; its dispatch is where the
     * session's handlers run. Limits: the options {@code ws-*} ({@link WebSocketOptions}).
     *
     * @param path the path template
     * @param spec called once, at once, to declare the handlers:
     *     {@code ws -> ws.onOpen(...).onText(...).onClose(...)}
     * @return the route, to refine before start
     * @throws IllegalArgumentException when the path is malformed or {@code spec} declares none of
     *     {@code onOpen}, {@code onText}, {@code onBinary}
     */
    Route ws(String path, java.util.function.Consumer<WebSocketConfig> spec);

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
