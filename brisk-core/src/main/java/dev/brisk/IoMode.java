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
    BLOCKING,
    /**
     * io_uring loops (Linux 5.19+, JDK 22+; experimental): like {@link #NIO}, a few threads serve every
     * connection, but each loop submits its accepts, receives, sends and closes to a kernel ring instead
     * of asking a selector for readiness. Where io_uring cannot be used (an older JDK or kernel, a
     * sandbox that forbids it) the server logs one line saying why and runs as {@link #NIO}.
     */
    URING,
    /** {@link #URING}, or no start at all: the server refuses to start where io_uring cannot be used. */
    URING_ONLY;

    /**
     * Why io_uring cannot be used in this process, or empty when it can: what {@link #URING} falls back
     * on and {@link #URING_ONLY} refuses to start with. The first call probes the kernel (it sets up and
     * closes one small ring); later calls answer from memory.
     *
     * @return the reason, or empty when io_uring is usable
     */
    public static java.util.Optional<String> uringUnavailable() {
        return java.util.Optional.ofNullable(dev.brisk.internal.transport.Uring.unavailable());
    }
}
