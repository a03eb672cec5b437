package dev.brisk;

/** A registered route, to refine before start: where it runs and which middleware wraps it. */
public interface Route {
    /** Runs this route's chain on {@code dispatch} instead of the app's default. */
    Route dispatch(Dispatch dispatch);

    /** Wraps this route's handler (inside app and group middleware). */
    Route use(Middleware middleware);
}
