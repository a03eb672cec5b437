package dev.brisk.events.sim;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The rendered document of the current state, one per dialect. A document is rendered once per state
 * and dialect, by the first request that needs it; requests that arrive meanwhile wait for that
 * render instead of starting their own. Thread-safe.
 */
final class FeedCache {
    private final RecordDefects defects;
    // locks, not synchronized: a render can take a second and must not pin a virtual thread's carrier (Java 21)
    private final ReentrantLock[] locks = new ReentrantLock[Dialect.values().length];
    /** Guarded by {@code locks[dialect]}. */
    private final RenderedFeed[] rendered = new RenderedFeed[Dialect.values().length];

    FeedCache(RecordDefects defects) {
        this.defects = defects;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** {@code state} rendered in {@code dialect}: cached, or rendered now. */
    RenderedFeed get(FeedState state, Dialect dialect) {
        int d = dialect.ordinal();
        locks[d].lock();
        try {
            RenderedFeed r = rendered[d];
            if (r != null && r.revision() == state.revision()) {
                return r;
            }
            long t0 = System.nanoTime();
            byte[] body = FeedRenderer.of(dialect).render(state.catalogue(), defects, state.badRecordRate());
            RenderedFeed fresh = new RenderedFeed(state.revision(), dialect, body, state.etag(dialect),
                    state.lastModified(), System.nanoTime() - t0);
            // a request that read the state just before an advance must not evict the newer document
            if (r == null || r.revision() < fresh.revision()) {
                rendered[d] = fresh;
            }
            return fresh;
        } finally {
            locks[d].unlock();
        }
    }
}
