package dev.brisk.internal.web;

import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.Method;
import dev.brisk.Middleware;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.RouteEntry;
import dev.brisk.internal.routing.RouteMatch;
import dev.brisk.internal.routing.Router;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides what runs for a request: its route's chain and dispatch, found from the raw path's bytes
 * (exact paths first, then the parameterized ones), or one of the app's own answers: 404, 405 and
 * automatic OPTIONS with the path's Allow list, 501 for an unknown method. The decision is recorded
 * on the exchange, so the connection sees the route before the body is read.
 *
 * <p><b>Preflights.</b> A CORS preflight is an {@code OPTIONS} request asking whether another method
 * may be sent ({@code Access-Control-Request-Method}); the app's own OPTIONS answer runs only the app
 * middleware, so a CORS middleware on a group or a route would never see the preflight for its route.
 * So when a path has no OPTIONS route and the request names a method the path has, and that method's
 * route has middleware beyond the app's, the automatic OPTIONS answer runs through that route's
 * middleware instead (built at start-up, on the route's dispatch): the preflight is judged by what
 * guards the request it announces. No route is recorded for it (its metrics and {@code routeTemplate}
 * are those of the automatic OPTIONS answer), and path parameters are not bound.
 *
 * <p>Built at start-up (every chain included: {@code Middleware.apply} never runs per request), then
 * immutable and shared by all I/O loops; {@link #route} runs on the I/O thread, once per request.
 */
final class Routing {
    private static final byte[] ROOT = {'/'};
    /** What the asterisk form ({@code OPTIONS *}) answers: every method the server knows. */
    private static final String ANY_PATH_ALLOW = "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS";

    /** The app's answers for a path that lacks the request's method. */
    private record Refusal(Handler methodNotAllowed, Handler options) {
    }

    private final Router router;
    private final Handler notFound;
    private final Handler notImplemented;
    private final Handler dotSegment;
    private final Handler nulInPath;
    private final Handler malformedEscape;
    private final Handler malformedUtf8;
    private final Handler anyPathOptions;
    private final Map<String, Refusal> refusals; // by Allow value: paths with the same methods share them
    private final Map<CompiledRoute, Handler> preflights; // by identity: the routes with middleware of their own
    private final RequestServices services;
    private final Dispatch defaultDispatch;

    /**
     * @param router every route added: the 405 and OPTIONS chains are built for its Allow values now
     * @param guarded the routes with middleware beyond the app's, with their whole middleware list:
     *     their preflight chains are built now
     */
    Routing(Router router, Chains chains, Map<CompiledRoute, List<Middleware>> guarded, RequestServices services,
            Dispatch defaultDispatch) {
        this.router = router;
        this.notFound = chains.notFound();
        this.notImplemented = chains.notImplemented();
        this.dotSegment = chains.badRequest("Dot segments ('.' or '..') are not allowed in a path");
        this.nulInPath = chains.badRequest("An encoded NUL (%00) is not allowed in a path");
        this.malformedEscape = chains.badRequest("Malformed percent-encoding");
        this.malformedUtf8 = chains.badRequest("Malformed UTF-8 in path");
        this.anyPathOptions = chains.options(ANY_PATH_ALLOW);
        Set<String> allows = router.allowValues();
        Map<String, Refusal> r = new HashMap<>();
        for (String allow : allows) {
            r.put(allow, new Refusal(chains.methodNotAllowed(allow), chains.options(allow)));
        }
        this.refusals = Map.copyOf(r);
        Map<CompiledRoute, Handler> p = new IdentityHashMap<>();
        if (!guarded.isEmpty()) {
            for (RouteEntry e : router.entries()) {
                for (CompiledRoute route : e.routes()) {
                    List<Middleware> mw = guarded.get(route);
                    if (mw != null) {
                        p.put(route, chains.preflight(mw, e.allow()));
                    }
                }
            }
        }
        this.preflights = Collections.unmodifiableMap(p);
        this.services = services;
        this.defaultDispatch = defaultDispatch;
    }

    /** Every normal route, in the order added. */
    List<CompiledRoute> routes() {
        return router.routes();
    }

    /** Finds {@code ex}'s chain, route and dispatch, and records them on it. */
    void route(Exchange ex) {
        ex.services(services);
        Method m = ex.methodEnum();
        if (m == null) {
            ex.routed(notImplemented, defaultDispatch);
            return;
        }
        byte[] b = ex.head();
        int from = ex.pathFrom();
        int to = ex.pathTo();
        if (from == to) {
            b = ROOT; // an absolute-form target without a path means "/"
            from = 0;
            to = 1;
        } else if (to - from == 1 && b[from] == '*') {
            ex.routed(m == Method.OPTIONS ? anyPathOptions : notFound, defaultDispatch);
            return;
        }
        int unsafe = UriCodec.unsafePath(b, from, to);
        if (unsafe != 0) { // a "." or ".." segment, a NUL, a path that does not decode: 400 before any route
            ex.routed(unsafe == UriCodec.NUL ? nulInPath : unsafe == UriCodec.DOT_SEGMENT ? dotSegment
                    : unsafe == UriCodec.MALFORMED_ESCAPE ? malformedEscape : malformedUtf8, defaultDispatch);
            return;
        }
        // a parameterized path's values go to an array the exchange keeps: routing allocates nothing more
        RouteMatch exact = router.findExact(b, from, to);
        RouteEntry entry;
        String[] params;
        if (exact != null) {
            entry = exact.entry();
            params = exact.rawParams();
        } else {
            params = ex.paramSlots(router.maxParams());
            entry = router.findDynamic(b, from, to, params);
        }
        if (entry == null) {
            ex.routed(notFound, defaultDispatch);
            return;
        }
        CompiledRoute r = entry.route(m);
        if (r == null && exact != null) {
            // an exact path without this method: a parameterized route may still have it
            String[] slots = ex.paramSlots(router.maxParams());
            RouteEntry dynamic = router.findDynamic(b, from, to, slots);
            if (dynamic != null && dynamic.route(m) != null) {
                entry = dynamic;
                params = slots;
                r = dynamic.route(m);
            }
        }
        if (r == null) {
            Refusal refusal = refusals.get(entry.allow());
            if (m != Method.OPTIONS) {
                ex.routed(refusal.methodNotAllowed(), defaultDispatch);
                return;
            }
            CompiledRoute announced = preflights.isEmpty() ? null
                    : announcedRoute(ex, entry, exact != null, b, from, to);
            Handler preflight = announced == null ? null : preflights.get(announced);
            if (preflight != null) {
                ex.routed(preflight, announced.dispatch());
            } else {
                ex.routed(refusal.options(), defaultDispatch);
            }
            return;
        }
        ex.routed(r, params);
    }

    /**
     * The route of the method an OPTIONS request announces in {@code Access-Control-Request-Method}
     * (found as a request with that method would find it), or null.
     */
    private CompiledRoute announcedRoute(Exchange ex, RouteEntry entry, boolean exact, byte[] b, int from, int to) {
        String announced = ex.header("Access-Control-Request-Method");
        Method am = announced == null ? null : Method.of(announced);
        if (am == null) {
            return null;
        }
        CompiledRoute r = entry.route(am);
        if (r == null && exact) {
            RouteMatch dynamic = router.findDynamic(b, from, to);
            r = dynamic == null ? null : dynamic.entry().route(am);
        }
        return r;
    }
}
