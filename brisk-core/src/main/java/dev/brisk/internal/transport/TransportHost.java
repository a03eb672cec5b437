package dev.brisk.internal.transport;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.LoopCounters;

/**
 * What the transports need from the server that owns them (the protocol a connection starts with
 * comes with it from its listener's {@link Acceptor}): the connection count and its limit, whether a graceful shutdown is under way, and the counters.
 * Nothing here is about HTTP.
 */
public interface TransportHost {
    /** Blocks the acceptor while at the connection limit; true when a connection may be accepted. */
    boolean awaitConnectionSlot();

    /**
     * How many more connections may be accepted now, without waiting: for a transport whose accepting
     * thread also serves connections and must not block, and keeps that many accepts in flight at most.
     * Counts an accept pause when none.
     */
    int freeConnectionSlots();

    /** Counts an accepted connection. Acceptor thread only. */
    void connectionAccepted();

    /** A connection (accepted, counted) is gone. Any thread. */
    void connectionClosed();

    /** Whether a graceful shutdown has begun: idle connections close instead of waiting. */
    boolean draining();

    /** Counters for one loop thread. */
    LoopCounters newLoopCounters();

    /** Counters for one blocking connection, folded into the totals by {@link #retire} when it closes. */
    LoopCounters newConnectionCounters();

    void retire(LoopCounters counters);

    /**
     * The least rate a client must take response bytes at ({@code min-response-rate}), measured by the
     * transport on every connection while the socket holds bytes for it; null when there is none.
     */
    DataRate.Limit responseRate();

    /** The access log's sampler for one loop thread ({@code shared}: for any thread); null when off. */
    AccessLog.Sampler accessLogSampler(boolean shared);
}
