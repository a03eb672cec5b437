package dev.brisk.internal.web;

import dev.brisk.Context;

/**
 * An exception caught at a route's core, on its way to the exchange to be mapped there, so the
 * middleware around the core gets control back with the error answer set (see {@code Middleware}).
 *
 * <p>Like {@link HandlerStart}, it travels through the Context API as an attribute value, since the core
 * may hold a wrapper rather than the {@link Exchange}; the exchange recognizes the type, maps the
 * exception onto itself and stores nothing. A wrapper that keeps attributes to itself never delivers it:
 * then the exception is rethrown and the runner maps it outside the chain, as before this signal existed.
 */
final class ChainFailure {
    static final String ATTRIBUTE = "dev.brisk.chain-failure";

    private final Throwable cause;
    private final ExceptionMapping mapping;
    private boolean mapped;

    private ChainFailure(Throwable cause, ExceptionMapping mapping) {
        this.cause = cause;
        this.mapping = mapping;
    }

    /** Has {@code ctx}'s exchange answer {@code t}, or rethrows {@code t} when the signal does not reach it. */
    static void mapOrRethrow(Context ctx, Throwable t, ExceptionMapping mapping) throws Exception {
        ChainFailure f = new ChainFailure(t, mapping);
        try {
            ctx.attribute(ATTRIBUTE, f);
        } catch (RuntimeException wrapperFailed) {
            t.addSuppressed(wrapperFailed);
        }
        if (!f.mapped) {
            switch (t) {
                case Exception e -> throw e;
                case Error e -> throw e;
                default -> throw new IllegalStateException(t); // a bare Throwable subclass: still a 500
            }
        }
    }

    /** Called by the exchange the signal reached. */
    void mapOnto(Exchange ex) {
        mapped = true;
        mapping.map(ex, cause);
    }
}
