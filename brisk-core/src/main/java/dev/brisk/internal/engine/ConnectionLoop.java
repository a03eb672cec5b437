package dev.brisk.internal.engine;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * The thread that owns a {@link Connection}, as the connection sees it: where its tasks run, its
 * buffers and counters, and how its bytes move. The two engines differ only here: an {@link IoLoop}
 * multiplexes non-blocking channels on a selector; a {@link BlockingLoop} is one thread blocking on one
 * channel. Everything the protocol does is the connection's, shared by both.
 */
abstract class ConnectionLoop {
    final Server server;
    final BufferPool inPool;
    final BufferPool outPool;
    /** Counters written by this loop's thread only. */
    final LoopCounters counters;
    /** Which responses this loop logs; null when the access log is off. */
    final AccessLog.Sampler accessLogSampler;

    ConnectionLoop(Server server, BufferPool inPool, BufferPool outPool, LoopCounters counters,
            AccessLog.Sampler accessLogSampler) {
        this.server = server;
        this.inPool = inPool;
        this.outPool = outPool;
        this.counters = counters;
        this.accessLogSampler = accessLogSampler;
    }

    /** Whether the caller is this loop's thread. */
    abstract boolean inLoop();

    /**
     * A {@link System#nanoTime()} reading for deadlines, on this loop's thread: may be as old as the
     * loop's current turn (a selector loop reads the clock once per turn, not per request), so a
     * deadline set from it falls due at most one turn early. Never for latencies.
     */
    abstract long clock();

    /** Runs {@code task} on this loop's thread, soon. Any thread. */
    abstract void execute(Runnable task);

    /** Called by a connection as it closes, on this loop's thread. */
    abstract void closed(Connection c);

    /** Whether handlers run right on this loop's thread, whatever their route's dispatch says. */
    abstract boolean runsHandlersInline();

    /** Reads what is available into {@code dst}: bytes read, 0 when none (yet), -1 at end of stream. */
    abstract int read(SocketChannel ch, Connection c, ByteBuffer dst) throws IOException;

    /** Writes from {@code srcs[0..n)}: bytes written, possibly fewer than offered (non-blocking). */
    abstract long write(SocketChannel ch, ByteBuffer[] srcs, int n) throws IOException;

    /**
     * Keeps this loop's thread serving its connection until {@code f} completes: for a handler running
     * inline that waits for something only this thread can produce (its request body).
     */
    abstract void runUntil(CompletableFuture<?> f);
}
