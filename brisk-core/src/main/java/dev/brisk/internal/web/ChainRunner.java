package dev.brisk.internal.web;

import dev.brisk.Handler;
import java.util.List;

/**
 * Runs one routed exchange to its answer on the calling thread: the chain, then the after filters
 * (each also after a failure), exception mapping for what any of them throws (the chain's core maps its
 * own failures first, see {@link Chains}; what reaches here came from middleware, or through a wrapper
 * that hid the core's signal), the status's error page, {@link ResponseCompression} when the request was
 * marked for it, and last the hand-back to the exchange's owner, exactly once. Immutable; any thread.
 */
final class ChainRunner {
    private final Handler[] afterFilters;
    private final ExceptionMapping failures;
    private final dev.brisk.internal.compress.EncodedFiles encodedFiles;

    ChainRunner(List<Handler> afterFilters, ExceptionMapping failures, dev.brisk.internal.compress.EncodedFiles encodedFiles) {
        this.afterFilters = afterFilters.toArray(Handler[]::new);
        this.failures = failures;
        this.encodedFiles = encodedFiles;
    }

    void run(Exchange ex) {
        dev.brisk.Context ctx = ex.newContext(); // what the app's code holds: it fails once the request is over
        try {
            ex.chain().handle(ctx);
        } catch (Throwable t) {
            failures.map(ex, t);
        }
        for (Handler after : afterFilters) {
            try {
                after.handle(ctx);
            } catch (Throwable t) {
                failures.map(ex, t);
            }
        }
        failures.errorPage(ex);
        try {
            ex.holdPartsForAnswer(); // a stored part sent as the answer (or read by it) outlives the handler
            ResponseCompression.apply(ex, encodedFiles);
        } catch (RuntimeException e) {
            // the answer goes out as it is: uncompressed is still right
            System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "compressing a response failed", e);
        } finally {
            // even after an Error: the body is given back and the exchange completes (its connection waits for it)
            ex.releaseBody(); // the handler is done with it; the connection holds it until the response is out
            ex.owner().complete(ex);
        }
    }
}
