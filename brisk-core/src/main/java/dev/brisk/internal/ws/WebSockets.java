package dev.brisk.internal.ws;

import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.WebSocketOptions;
import java.util.concurrent.Executor;

/**
 * The WebSocket side of a server: its options, the memory every session's messages share, the pooled
 * compressors, the counters, and the executors handlers run on. Made when the app is frozen; the
 * executors come at start. Any thread.
 */
public final class WebSockets {
    private final WebSocketOptions options;
    private final long writeTimeoutNanos;
    private final MemoryBudget budget;
    private final DeflaterPool deflaters;
    private final WebSocketStats stats = new WebSocketStats();
    private volatile Executor virtualThreads;
    private volatile Executor workers;

    public WebSockets(WebSocketOptions options, java.time.Duration writeTimeout) {
        this.options = options;
        this.writeTimeoutNanos = writeTimeout.toNanos();
        this.budget = new MemoryBudget(options.memory());
        this.deflaters = new DeflaterPool(Math.max(2, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /** The core handler of a route declared with {@code spec}, running on {@code dispatch}. */
    public Handler route(WebSocketSpec spec, Dispatch dispatch) {
        return new Handshake(spec, this, dispatch);
    }

    /** The executors for {@link Dispatch#VIRTUAL_THREADS} and {@link Dispatch#WORKER_POOL}; set at start. */
    public void executors(Executor virtualThreads, Executor workers) {
        this.virtualThreads = virtualThreads;
        this.workers = workers;
    }

    /** The counters. */
    public WebSocketStats stats() {
        return stats;
    }

    /** Bytes of messages held by all sessions now. */
    public long memoryUsed() {
        return budget.used();
    }

    Executor executor(Dispatch dispatch) {
        return dispatch == Dispatch.WORKER_POOL ? workers : virtualThreads;
    }

    WebSocketOptions options() {
        return options;
    }

    long writeTimeoutNanos() {
        return writeTimeoutNanos;
    }

    MemoryBudget budget() {
        return budget;
    }

    DeflaterPool deflaters() {
        return deflaters;
    }
}
