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
 * like any route, so middleware and filters see them too.
 *
 * <p>A chain never assumes the {@code Context} it is handed is an {@link Exchange}: middleware may pass
 * a wrapper of its own to {@code next}. What a core needs beyond the Context API is captured here
 * (the Allow value) or signalled through it ({@link HandlerStart}). Used by one thread, before start.
 */
final class Chains {
    private final List<Middleware> appMiddleware;
    private final Handler[] befores;

    Chains(List<Middleware> appMiddleware, List<Handler> befores) {
        this.appMiddleware = List.copyOf(appMiddleware);
        this.befores = befores.toArray(Handler[]::new);
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

    /** The answer to a method the server does not know: app middleware only, no before filters. */
    Handler notImplemented() {
        return wrap(appMiddleware, ctx -> {
            throw new HttpException(501, "Method Not Implemented");
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

    /** The before filters, the mark, the handler: headers the handler sets are dropped if it fails. */
    private Handler core(Handler handler) {
        Handler[] bs = befores;
        if (bs.length == 0) {
            return ctx -> {
                HandlerStart.signal(ctx);
                handler.handle(ctx);
            };
        }
        return ctx -> {
            for (Handler b : bs) {
                b.handle(ctx);
            }
            HandlerStart.signal(ctx);
            handler.handle(ctx);
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
