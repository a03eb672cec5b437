package dev.brisk;

/** Where a route's handler chain runs. Settable per app ({@link ServerOptions}) and per route. */
public enum Dispatch {
    /**
     * On the connection's I/O thread. Fastest, but only for handlers that never block: a blocked
     * handler stalls every connection of that loop. Requests with {@code Expect: 100-continue}
     * still run on a virtual thread, because they wait for their body.
     */
    EVENT_LOOP,
    /** On a new virtual thread per request (the default). */
    VIRTUAL_THREADS,
    /** On the worker pool: the executor given to {@link BriskConfig#workerPool}, else a fixed pool. */
    WORKER_POOL
}
