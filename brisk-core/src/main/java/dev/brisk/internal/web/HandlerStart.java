package dev.brisk.internal.web;

import dev.brisk.Context;

/**
 * How a route's chain tells its exchange "the handler starts here": response headers set before this
 * point (by middleware and before filters: a request id, CORS) stay on an error answer, those set after
 * it (by the handler) are dropped with the rest of its answer.
 *
 * <p>The chain may hold any {@link Context}: a middleware can pass {@code next} a decorator or a proxy
 * of its own, so the framework never casts it to {@link Exchange}. The signal therefore travels through
 * the Context API itself, as a request attribute whose value is a private token: a wrapper that
 * delegates {@code attribute} carries it to the exchange like any other call, and no user code can
 * forge it. The exchange recognizes the token by identity and stores nothing (no allocation). A wrapper
 * that keeps attributes to itself hides the signal; then an error answer drops every header set
 * during the chain, as when middleware fails before the handler starts.
 */
final class HandlerStart {
    /** The attribute name: for readability in a wrapper's logs; the token's identity is what counts. */
    static final String ATTRIBUTE = "dev.brisk.handler-start";

    /** The unforgeable value: only this class hands it out. */
    static final Object TOKEN = new Object() {
        @Override
        public String toString() {
            return ATTRIBUTE;
        }
    };

    private HandlerStart() {
    }

    /** Marks where the handler's own response headers begin on {@code ctx}'s exchange. */
    static void signal(Context ctx) {
        ctx.attribute(ATTRIBUTE, TOKEN);
    }
}
