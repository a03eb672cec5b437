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

    /**
     * The largest request body this route takes, instead of the option {@code max-body-size} (1 MiB by
     * default): a larger declared length is refused with 413 before any of the body is read, a chunked
     * body with 413 once it grows past it. A buffered body larger than {@code body-spool-threshold} is
     * written to a temporary file instead of memory (see {@link Context#body()}); on a route that
     * {@link #streamBody() streams} its body, the limit counts the bytes read through the stream
     * (unlimited unless set here).
     *
     * @param bytes the limit in bytes, 0 or more
     * @return this route
     * @throws IllegalArgumentException when {@code bytes} is negative
     */
    Route maxBodySize(long bytes);

    /**
     * Streams this route's request body: the handler runs as soon as the request head is admitted, and
     * reads the body through {@link Context#bodyAsStream()} as it arrives, with backpressure to the
     * client (the server holds a small window of it, never the whole body). {@link Context#body()} and
     * the methods built on it then fail with {@link IllegalStateException}. Such a handler blocks while
     * it reads, so it never runs on an event loop: a route whose dispatch is
     * {@link Dispatch#EVENT_LOOP} runs on a virtual thread instead. What the handler leaves unread when
     * it returns is not read any more: the connection closes after the response.
     *
     * @return this route
     */
    Route streamBody();
}
