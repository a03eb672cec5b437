package dev.brisk.internal.http1;

import dev.brisk.internal.web.Exchange;

/**
 * The exchanges an HTTP/1.1 connection keeps for its next requests while it is busy: one for the next
 * request, and up to {@link PipelineRun#MAX} for a pipeline run's members (each needs one of its own),
 * so that a busy connection allocates no exchange per request. Dropped when the connection idles.
 * Only exchanges that are over and held by no other thread are kept. Loop thread only.
 */
final class SpareExchanges {
    /** The one most requests reuse. */
    private Exchange first;
    /** More, for pipeline runs; null until the connection's first run. */
    private Exchange[] more;
    private int moreCount;

    /** A kept exchange, or null. */
    Exchange take() {
        Exchange s = first;
        if (s != null) {
            first = null;
        } else if (moreCount > 0) {
            s = more[--moreCount];
            more[moreCount] = null;
        }
        return s;
    }

    /** Keeps {@code ex} for a later request, if there is room. */
    void keep(Exchange ex) {
        if (first == null) {
            first = ex;
            return;
        }
        if (more == null) {
            more = new Exchange[PipelineRun.MAX];
        }
        if (moreCount < more.length) {
            more[moreCount++] = ex;
        }
    }

    /** Lets go of every kept exchange. */
    void drop() {
        first = null;
        more = null;
        moreCount = 0;
    }
}
