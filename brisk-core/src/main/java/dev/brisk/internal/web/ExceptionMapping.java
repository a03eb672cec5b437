package dev.brisk.internal.web;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.ExceptionHandler;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns failures into answers: what a chain threw (the app's exception handlers, closest superclass
 * first; else an {@link HttpException}'s status and message; else 500, the bodies negotiated by
 * {@link ErrorBodies}), and a status into its error page (the app's error handlers, run once the chain
 * and after filters are done). A route's core maps what its before filters and handler throw itself,
 * through {@link ChainFailure}, so the middleware around it runs on; the runner maps the rest.
 *
 * <p>Each answer starts from {@link Exchange#resetResponse}: the failed handler's body and headers go,
 * what middleware and before filters set stays. Immutable after start-up apart from a bounded cache of
 * which handler serves which exception class; thread-safe, called on the handler's thread.
 */
final class ExceptionMapping {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    /** Exception classes are few; the bound keeps generated ones from growing the cache (and pinning them). */
    private static final int MAX_CACHED = 256;
    /** A cached miss: no handler for the class nor any superclass. */
    private static final ExceptionHandler<Throwable> NONE = (t, ctx) -> {
        throw new AssertionError("never called");
    };

    private final Map<Class<?>, ExceptionHandler<Throwable>> handlers;
    private final Map<Class<?>, ExceptionHandler<Throwable>> resolved = new ConcurrentHashMap<>();
    private final AtomicBoolean codecMissingLogged = new AtomicBoolean();
    /** Error handlers by status, or null when there are none. */
    private final Handler[] errorPages;

    ExceptionMapping(Map<Class<?>, ExceptionHandler<Throwable>> handlers, Map<Integer, Handler> errorHandlers) {
        this.handlers = Map.copyOf(handlers);
        Handler[] pages = null;
        for (Map.Entry<Integer, Handler> e : errorHandlers.entrySet()) {
            if (pages == null) {
                pages = new Handler[600]; // statuses are 100-599: an index, no boxing per request
            }
            pages[e.getKey()] = e.getValue();
        }
        this.errorPages = pages;
    }

    /** Answers {@code ex} for {@code t}, thrown by its chain's core, its middleware or an after filter. */
    void map(Exchange ex, Throwable t) {
        ExceptionHandler<Throwable> h = handlers.isEmpty() ? null : find(t.getClass());
        ex.resetResponse();
        if (h != null) {
            try {
                h.handle(t, ex.context());
            } catch (Throwable t2) {
                LOG.log(System.Logger.Level.WARNING, "exception handler failed for " + t, t2);
                internalError(ex);
            }
            return;
        }
        if (t instanceof HttpException he) {
            ErrorBodies.answer(ex, he.status(), he.getMessage());
            if (he instanceof BodyUnavailableException) {
                ex.header("Retry-After", "1");
            }
            return;
        }
        if (t instanceof MissingJsonCodec) {
            // a setup mistake every JSON request repeats: said loudly once, then quietly
            boolean first = codecMissingLogged.compareAndSet(false, true);
            LOG.log(first ? System.Logger.Level.ERROR : System.Logger.Level.DEBUG, t.getMessage() + " (in "
                    + ex.method() + " " + (ex.routeTemplate() != null ? ex.routeTemplate() : ex.rawPath()) + ")");
            internalError(ex);
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

    /** Runs the error handler for {@code ex}'s status, if there is one; one that throws gives a 500. */
    void errorPage(Exchange ex) {
        Handler page = errorPages == null ? null : errorPages[ex.status()];
        if (page != null) {
            ex.dropTrailers(); // they were the handler's body's: the page's body is another
            try {
                page.handle(ex.context());
            } catch (Throwable t) {
                LOG.log(System.Logger.Level.WARNING, "error handler for " + ex.status() + " failed", t);
                internalError(ex);
            }
        }
    }

    private static void internalError(Exchange ex) {
        ex.resetResponse();
        ErrorBodies.answer(ex, 500, "Internal Server Error");
    }

    private ExceptionHandler<Throwable> find(Class<?> type) {
        ExceptionHandler<Throwable> h = resolved.get(type);
        if (h == null) {
            h = NONE;
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                ExceptionHandler<Throwable> registered = handlers.get(c);
                if (registered != null) {
                    h = registered;
                    break;
                }
            }
            if (resolved.size() < MAX_CACHED) {
                resolved.putIfAbsent(type, h);
            }
        }
        return h == NONE ? null : h;
    }
}
