package dev.brisk;

/** Which engine moves the bytes ({@code io} option). Both share the parser, router, limits and metrics. */
public enum IoMode {
    /** Selector loops: a few threads serve every connection (the default). */
    NIO,
    /**
     * Blocking sockets, one thread per connection (see {@link ThreadMode}): the thread reads a request,
     * runs its handler inline and writes the response. Stack traces read top to bottom; a handler may
     * block freely. The {@code dispatch} option does not apply.
     */
    BLOCKING
}
