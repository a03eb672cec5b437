package dev.brisk;

/** A registered route, to refine before start: where it runs and which middleware wraps it. */
public interface Route {
    /**
     * Runs this route's chain on {@code dispatch} instead of the app's default.
     *
     * @param dispatch where this route's handler runs
     * @return this route
     */
    Route dispatch(Dispatch dispatch);

    /**
     * Wraps this route's handler (inside app and group middleware).
     *
     * @param middleware the wrapper
     * @return this route
     */
    Route use(Middleware middleware);

    /**
     * Exempts this route from the in-flight limit ({@code max-concurrent-requests}): it is never queued
     * nor refused with 503, and does not count against the limit. For health and readiness checks,
     * which must answer most of all when the server is overloaded. Fast-static routes are always exempt.
     *
     * @return this route
     */
    Route neverShed();
}
