package dev.brisk;

import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * Everything an app declares before it starts: options, routes, middleware, error mapping. Used only
 * inside {@link Brisk#create}; frozen afterwards.
 */
public interface BriskConfig extends Routing {

    /**
     * The engine options; every value set here can be overridden from outside (see {@link ConfigSource}).
     *
     * @return the app's options builder, the same one on every call
     */
    ServerOptions.Builder options();

    /**
     * Shorthand for {@code options().port(port)}.
     *
     * @param port the port to listen on, 0 for any free port ({@link Brisk#port()} then tells which)
     * @return this config
     */
    default BriskConfig port(int port) {
        options().port(port);
        return this;
    }

    /**
     * Shorthand for {@code options().host(host)}.
     *
     * @param host the address to listen on
     * @return this config
     */
    default BriskConfig host(String host) {
        options().host(host);
        return this;
    }

    /**
     * The app's default dispatch for normal routes.
     *
     * @param dispatch where handlers run unless a route says otherwise
     * @return this config
     */
    default BriskConfig dispatch(Dispatch dispatch) {
        options().dispatch(dispatch);
        return this;
    }

    /**
     * Where outside configuration comes from (default {@link ConfigSource#load()}); pass
     * {@link ConfigSource#empty()} to use only the values set in code.
     *
     * @param source the outside configuration; not null
     * @return this config
     */
    BriskConfig configSource(ConfigSource source);

    /**
     * The JSON codec for {@link Context#json} and {@link Context#bodyAsJson}.
     *
     * @param codec the codec, called from handler threads concurrently
     * @return this config
     */
    BriskConfig json(JsonCodec codec);

    /**
     * The executor for {@link Dispatch#WORKER_POOL} routes; the app does not shut it down.
     *
     * @param executor the pool; its owner shuts it down after the app closes
     * @return this config
     */
    BriskConfig workerPool(ExecutorService executor);

    /**
     * A fixed response for an exact {@code GET} (and {@code HEAD}) path, served without per-request objects.
     * It is answered before routing: no middleware, before or after filters run for it (no CORS headers,
     * no authentication, no compression), so use it only for what every client may see as it is.
     *
     * @param path the exact path, without a query
     * @param response the prebuilt response
     * @return this config
     */
    BriskConfig fastGet(String path, StaticResponse response);

    /**
     * Declares the liveness and readiness routes ({@code GET /health}, {@code GET /ready} unless
     * {@code spec} moves them), the readiness checks and the initial readiness; see {@link HealthConfig}.
     * Once per app: {@code cfg.health(h -> h.check("database", db::ping))}.
     *
     * @param spec called once, at once, with the health configuration
     * @return this config
     */
    BriskConfig health(Consumer<HealthConfig> spec);

    /**
     * Routes under {@code prefix}.
     *
     * @param prefix the path prefix of every route in the group, such as {@code /api}
     * @param routes called once, at once, to declare the group's routes
     * @return this config
     */
    BriskConfig group(String prefix, Consumer<RouteGroup> routes);

    /**
     * Wraps every route (outermost first, in registration order), and the 404/405 answers too.
     *
     * @param middleware the wrapper
     * @return this config
     */
    BriskConfig use(Middleware middleware);

    /**
     * Runs before every route's handler, in registration order.
     *
     * @param filter runs on the route's handler thread, with the route's context
     * @return this config
     */
    BriskConfig before(Handler filter);

    /**
     * Runs after every route's handler (also after an exception was mapped), in registration order.
     *
     * @param filter runs on the route's handler thread, with the route's context
     * @return this config
     */
    BriskConfig after(Handler filter);

    /**
     * Maps exceptions of {@code type} (and subclasses, unless a closer mapping exists) to a response.
     *
     * @param <T> the exception type
     * @param type the exception class
     * @param handler writes the response for the exception
     * @return this config
     */
    <T extends Throwable> BriskConfig exception(Class<T> type, ExceptionHandler<? super T> handler);

    /**
     * Replaces the response whenever a request ends with {@code status}: runs last, after the middleware
     * and the after filters, keeping their headers; the way to give the framework's own error answers
     * (see {@link Middleware}) a body of your own.
     *
     * @param status the HTTP status, such as 404
     * @param handler writes the replacement response
     * @return this config
     */
    BriskConfig error(int status, Handler handler);
}
