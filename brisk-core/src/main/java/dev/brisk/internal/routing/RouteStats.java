package dev.brisk.internal.routing;

import java.util.concurrent.atomic.LongAdder;

/**
 * Responses of one route by status class. Several I/O loops answer the same route, so these are
 * LongAdders (one uncontended add per response).
 */
public final class RouteStats {
    private final LongAdder[] byClass = new LongAdder[6];

    public RouteStats() {
        for (int i = 0; i < byClass.length; i++) {
            byClass[i] = new LongAdder();
        }
    }

    public void response(int status) {
        int cls = status / 100;
        byClass[cls >= 1 && cls <= 5 ? cls : 0].increment();
    }

    /** Responses with a {@code cls}xx status (1..5). */
    public long requests(int cls) {
        return cls >= 1 && cls <= 5 ? byClass[cls].sum() : 0;
    }

    public long requests() {
        long n = 0;
        for (LongAdder a : byClass) {
            n += a.sum();
        }
        return n;
    }
}
