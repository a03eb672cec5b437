package dev.brisk.internal.web;

import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.Middleware;
import dev.brisk.StaticResponse;
import java.util.List;

/**
 * Builds handler chains once, at start-up: middleware (outermost first) around the route's core, the
 * core being the before filters, the {@link HandlerStart} mark, then the handler. Also the app's own
 * answers (404, 405 with its Allow list, automatic OPTIONS, 501), which run through the app middleware
 * like any route, so middleware and filters see them too; and, for a route with middleware of its own
 * or its group's, the automatic OPTIONS answer run through that route's middleware, for preflights.
 *
 * <p>A core maps what it throws to the error answer itself ({@link ChainFailure}), so {@code next}
 * returns normally to the middleware around it, whose code after {@code next} then runs on error
 * answers too (a timing header, a log line). What middleware throws is left to {@link ChainRunner}.
 *
 * <p>A chain never assumes the {@code Context} it is handed is an {@link Exchange}: middleware may pass
 * a wrapper of its own to {@code next}. What a core needs beyond the Context API is captured here
 * (the Allow value) or signalled through it ({@link HandlerStart}, {@link ChainFailure}). Used by one
 * thread, before start.
 */
final class Chains {
    private final List<Middleware> appMiddleware;
    private final Handler[] befores;
    private final ExceptionMapping failures;

    Chains(List<Middleware> appMiddleware, List<Handler> befores, ExceptionMapping failures) {
        this.appMiddleware = List.copyOf(appMiddleware);
        this.befores = befores.toArray(Handler[]::new);
        this.failures = failures;
    }

    /** A route's chain: {@code middleware} (app, group and route, outermost first) around its core. */
    Handler route(List<Middleware> middleware, Handler handler) {
        return wrap(middleware, core(handler));
    }

    Handler notFound() {
        return wrap(appMiddleware, core(ctx -> {
            throw new HttpException.NotFound("Not Found");
        }));
    }

    /** A 400 answer saying {@code message}: a path no route may see ({@link UriCodec#unsafePath}). */
    Handler badRequest(String message) {
        return wrap(appMiddleware, core(ctx -> {
            throw new HttpException.BadRequest(message);
        }));
    }

    /** The 405 answer for a path whose methods are {@code allow}. */
    Handler methodNotAllowed(String allow) {
        return wrap(appMiddleware, core(ctx -> {
            // set and marked before throwing: error answers keep it, under any exception handler too
            ctx.header("Allow", allow);
            HandlerStart.signal(ctx);
            throw new HttpException(405, "Method Not Allowed");
        }));
    }

    /** The automatic OPTIONS answer for a path whose methods are {@code allow}. */
    Handler options(String allow) {
        return wrap(appMiddleware, core(ctx -> ctx.status(204).header("Allow", allow)));
    }

    /**
     * The automatic OPTIONS answer for a path whose methods are {@code allow}, run through
     * {@code middleware}: a route's own chain of middleware, so that a CORS preflight for that route
     * is judged by the middleware that guards the route (see {@link Routing}).
     */
    Handler preflight(List<Middleware> middleware, String allow) {
        return wrap(middleware, core(ctx -> ctx.status(204).header("Allow", allow)));
    }

    /** The answer to a method the server does not know: app middleware only, no before filters. */
    Handler notImplemented() {
        ExceptionMapping f = failures;
        return wrap(appMiddleware, ctx -> {
            HandlerStart.signal(ctx); // no filters here: what middleware set before next stays
            ChainFailure.mapOrRethrow(ctx, new HttpException(501, "Method Not Implemented"), f);
        });
    }

    /** A handler answering {@code response}: the normal route behind a fast-static one. */
    static Handler serving(StaticResponse response) {
        return ctx -> {
            ctx.status(response.status());
            List<String> h = response.headers();
            for (int i = 0; i < h.size(); i += 2) {
                ctx.addHeader(h.get(i), h.get(i + 1));
            }
            if (response.status() != 204 && response.status() != 304) {
                ctx.bytes(response.body()).contentType(response.contentType());
            }
        };
    }

    /**
     * The before filters, the mark, the handler, and the mapping of what they throw: the failing stage's
     * headers are dropped (the handler's, or the filters' when one of them fails), the middleware's stay.
     */
    private Handler core(Handler handler) {
        Handler[] bs = befores;
        ExceptionMapping f = failures;
        if (bs.length == 0) {
            return ctx -> {
                HandlerStart.signal(ctx);
                try {
                    handler.handle(ctx);
                } catch (Throwable t) {
                    ChainFailure.mapOrRethrow(ctx, t, f);
                }
            };
        }
        return ctx -> {
            HandlerStart.signal(ctx); // a failing filter drops the filters' headers, not the middleware's
            try {
                for (Handler b : bs) {
                    b.handle(ctx);
                }
                HandlerStart.signal(ctx);
                handler.handle(ctx);
            } catch (Throwable t) {
                ChainFailure.mapOrRethrow(ctx, t, f);
            }
        };
    }

    private static Handler wrap(List<Middleware> chain, Handler core) {
        Handler h = core;
        for (int i = chain.size() - 1; i >= 0; i--) {
            h = chain.get(i).apply(h);
            if (h == null) {
                throw new IllegalStateException("middleware returned a null handler: " + chain.get(i));
            }
        }
        return h;
    }
}
