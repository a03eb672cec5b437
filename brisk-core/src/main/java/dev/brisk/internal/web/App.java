package dev.brisk.internal.web;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.Dispatch;
import dev.brisk.ExceptionHandler;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.JsonCodec;
import dev.brisk.Method;
import dev.brisk.internal.ops.Readiness;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.routing.RouteMatch;
import dev.brisk.internal.routing.Router;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A started app's frozen request handling: routing, dispatch to the chosen executor, exception and
 * error mapping. Shared by all I/O loops; immutable apart from a lookup cache.
 */
public final class App {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    private final Router router;
    private final FastRoutes fastRoutes;
    private final Handler notFound;
    private final Handler methodNotAllowed;
    private final Handler notImplemented;
    private final Handler autoOptions;
    private final List<Handler> afterFilters;
    private final Map<Class<?>, ExceptionHandler<Throwable>> exceptionHandlers;
    private final Map<Class<?>, ExceptionHandler<Throwable>> resolved = new ConcurrentHashMap<>();
    private final Map<Integer, Handler> errorHandlers;
    private final JsonCodec codec;
    private final Dispatch defaultDispatch;
    private final Readiness readiness;
    private volatile Executor virtualThreads;
    private volatile Executor workers;

    App(Router router, FastRoutes fastRoutes, Handler notFound, Handler methodNotAllowed, Handler notImplemented,
        Handler autoOptions, List<Handler> afterFilters,
        Map<Class<?>, ExceptionHandler<Throwable>> exceptionHandlers, Map<Integer, Handler> errorHandlers,
        JsonCodec codec, Dispatch defaultDispatch, Readiness readiness) {
        this.router = router;
        this.fastRoutes = fastRoutes;
        this.notFound = notFound;
        this.methodNotAllowed = methodNotAllowed;
        this.notImplemented = notImplemented;
        this.autoOptions = autoOptions;
        this.afterFilters = afterFilters;
        this.exceptionHandlers = exceptionHandlers;
        this.errorHandlers = errorHandlers;
        this.codec = codec;
        this.defaultDispatch = defaultDispatch;
        this.readiness = readiness;
    }

    /** Whether the app wants traffic; graceful shutdown turns it off first. */
    public Readiness readiness() {
        return readiness;
    }

    /** The executors for {@link Dispatch#VIRTUAL_THREADS} and {@link Dispatch#WORKER_POOL}; set by the server at start. */
    public void executors(Executor virtualThreads, Executor workers) {
        this.virtualThreads = virtualThreads;
        this.workers = workers;
    }

    /** Every normal route (fast-static ones included as their GET fallbacks), for per-route metrics. */
    public java.util.List<CompiledRoute> routes() {
        return router.routes();
    }

    public FastRoutes fastRoutes() {
        return fastRoutes;
    }

    /**
     * Finds {@code ex}'s route and remembers on it the chain to run and where; called on the I/O
     * thread right after the head is parsed, so admission can see the route before the body is read.
     */
    public void route(Exchange ex) {
        Method m = ex.methodEnum();
        Handler chain;
        Dispatch dispatch = defaultDispatch;
        ex.codec(codec);
        if (m == null) {
            chain = notImplemented;
        } else if (ex.asteriskPath()) {
            chain = m == Method.OPTIONS ? autoOptions : notFound;
            ex.allow("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS");
        } else {
            RouteMatch match = ex.exactMatch(router);
            if (match == null) {
                match = ex.dynamicMatch(router);
            }
            if (match == null) {
                chain = notFound;
            } else {
                CompiledRoute r = match.entry().route(m);
                if (r == null && match.rawParams().length == 0) {
                    // an exact path without this method: a parameterized route may still have it
                    RouteMatch dynamic = ex.dynamicMatch(router);
                    if (dynamic != null && dynamic.entry().route(m) != null) {
                        match = dynamic;
                        r = dynamic.entry().route(m);
                    }
                }
                if (r == null) {
                    ex.allow(match.entry().allow());
                    chain = m == Method.OPTIONS ? autoOptions : methodNotAllowed;
                } else {
                    ex.bind(r, match.rawParams(), codec);
                    chain = r.chain();
                    dispatch = r.dispatch();
                }
            }
        }
        ex.routed(chain, dispatch);
    }

    /**
     * Runs {@code ex}'s chain (routing it first if {@link #route} was not called) on the route's
     * dispatch; the owner's {@code complete} is called when done. Called on the I/O thread.
     */
    public void dispatch(Exchange ex) {
        if (ex.chain() == null) {
            route(ex);
        }
        Dispatch dispatch = ex.dispatchMode();
        if (dispatch == Dispatch.EVENT_LOOP && ex.bodyDeferred()) {
            dispatch = Dispatch.VIRTUAL_THREADS; // it will block waiting for its body
        }
        final Handler h = ex.chain();
        switch (dispatch) {
            case EVENT_LOOP -> run(ex, h);
            case VIRTUAL_THREADS -> execute(virtualThreads, ex, h);
            case WORKER_POOL -> execute(workers, ex, h);
        }
    }

    /**
     * Runs {@code ex}'s chain (routing it first if {@link #route} was not called) on the calling thread,
     * whatever the route's dispatch: the blocking engine's connection thread is the handler's thread.
     */
    public void runInline(Exchange ex) {
        if (ex.chain() == null) {
            route(ex);
        }
        run(ex, ex.chain());
    }

    private void execute(Executor executor, Exchange ex, Handler h) {
        try {
            executor.execute(() -> run(ex, h));
        } catch (RejectedExecutionException e) {
            ex.resetResponse();
            ex.status(503).text("Service Unavailable");
            ex.owner().complete(ex);
        }
    }

    /** Runs a chain, its after filters and error mapping, then hands the exchange back. */
    void run(Exchange ex, Handler chain) {
        try {
            chain.handle(ex);
        } catch (Throwable t) {
            mapException(ex, t);
        }
        for (Handler after : afterFilters) {
            try {
                after.handle(ex);
            } catch (Throwable t) {
                mapException(ex, t);
            }
        }
        Handler onError = errorHandlers.isEmpty() ? null : errorHandlers.get(ex.status());
        if (onError != null) {
            try {
                onError.handle(ex);
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "error handler for " + ex.status() + " failed", t);
                internalError(ex);
            }
        }
        ex.owner().complete(ex);
    }

    private void mapException(Exchange ex, Throwable t) {
        ExceptionHandler<Throwable> h = exceptionHandlers.isEmpty() ? null : find(t.getClass());
        ex.resetResponse();
        if (h != null) {
            try {
                h.handle(t, ex);
                return;
            } catch (Throwable t2) {
                LOG.log(System.Logger.Level.WARNING, "exception handler failed for " + t, t2);
                ex.resetResponse();
                internalError(ex);
                return;
            }
        }
        if (t instanceof HttpException he) {
            ex.status(he.status());
            String msg = he.getMessage();
            ex.text(msg == null ? "" : msg);
            return;
        }
        if (t instanceof ClientDisconnectedException) {
            // the client left: nobody will read an answer, and clients must not be able to fill the logs
            LOG.log(System.Logger.Level.DEBUG, "client disconnected during " + ex.method() + " " + ex.rawPath());
            internalError(ex);
            return;
        }
        LOG.log(System.Logger.Level.ERROR, "unhandled exception in " + ex.method() + " "
                + (ex.routeTemplate() != null ? ex.routeTemplate() : ex.rawPath()), t);
        internalError(ex);
    }

    private static void internalError(Exchange ex) {
        ex.resetResponse();
        ex.status(500).text("Internal Server Error");
    }

    private ExceptionHandler<Throwable> find(Class<?> type) {
        ExceptionHandler<Throwable> h = resolved.get(type);
        if (h == null && !resolved.containsKey(type)) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                h = exceptionHandlers.get(c);
                if (h != null) {
                    break;
                }
            }
            if (h != null) {
                resolved.put(type, h);
            }
        }
        return h;
    }
}
