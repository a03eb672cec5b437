package dev.brisk;

import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * Everything an app declares before it starts: options, routes, middleware, error mapping. Used only
 * inside {@link Brisk#create}; frozen afterwards.
 */
public interface BriskConfig extends Routing {

    /** The engine options; every value set here can be overridden from outside (see {@link ConfigSource}). */
    ServerOptions.Builder options();

    default BriskConfig port(int port) {
        options().port(port);
        return this;
    }

    default BriskConfig host(String host) {
        options().host(host);
        return this;
    }

    /** The app's default dispatch for normal routes. */
    default BriskConfig dispatch(Dispatch dispatch) {
        options().dispatch(dispatch);
        return this;
    }

    /**
     * Where outside configuration comes from (default {@link ConfigSource#load()}); pass
     * {@link ConfigSource#empty()} to use only the values set in code.
     */
    BriskConfig configSource(ConfigSource source);

    /** The JSON codec for {@link Context#json} and {@link Context#bodyAsJson}. */
    BriskConfig json(JsonCodec codec);

    /** The executor for {@link Dispatch#WORKER_POOL} routes; the app does not shut it down. */
    BriskConfig workerPool(ExecutorService executor);

    /** A fixed response for an exact {@code GET} (and {@code HEAD}) path, served without per-request objects. */
    BriskConfig fastGet(String path, StaticResponse response);

    /**
     * Declares the liveness and readiness routes ({@code GET /health}, {@code GET /ready} unless
     * {@code spec} moves them), the readiness checks and the initial readiness; see {@link HealthConfig}.
     * Once per app: {@code cfg.health(h -> h.check("database", db::ping))}.
     */
    BriskConfig health(Consumer<HealthConfig> spec);

    /** Routes under {@code prefix}. */
    BriskConfig group(String prefix, Consumer<RouteGroup> routes);

    /** Wraps every route (outermost first, in registration order), and the 404/405 answers too. */
    BriskConfig use(Middleware middleware);

    /** Runs before every route's handler, in registration order. */
    BriskConfig before(Handler filter);

    /** Runs after every route's handler (also after an exception was mapped), in registration order. */
    BriskConfig after(Handler filter);

    /** Maps exceptions of {@code type} (and subclasses, unless a closer mapping exists) to a response. */
    <T extends Throwable> BriskConfig exception(Class<T> type, ExceptionHandler<? super T> handler);

    /**
     * Replaces the response whenever a request ends with {@code status}: runs last, after the middleware
     * and the after filters, keeping their headers; the way to give the framework's own error answers
     * (see {@link Middleware}) a body of your own.
     */
    BriskConfig error(int status, Handler handler);
}
