package dev.brisk.internal.ws;

import java.util.concurrent.atomic.LongAdder;

/** The WebSocket counters of a server: written by any session's threads, read by metrics. */
public final class WebSocketStats {
    final LongAdder opened = new LongAdder();
    final LongAdder closed = new LongAdder();
    final LongAdder messagesIn = new LongAdder();
    final LongAdder messagesOut = new LongAdder();
    final LongAdder slowReceivers = new LongAdder();
    final LongAdder protocolErrors = new LongAdder();
    final LongAdder idleClosed = new LongAdder();

    /** Sessions opened since start. */
    public long opened() {
        return opened.sum();
    }

    /** Sessions open now. */
    public long active() {
        return opened.sum() - closed.sum();
    }

    /** Messages received (whole, after joining fragments). */
    public long messagesIn() {
        return messagesIn.sum();
    }

    /** Messages queued to be sent. */
    public long messagesOut() {
        return messagesOut.sum();
    }

    /** Sessions closed with 1008 because they held more unsent bytes than allowed. */
    public long slowReceiversClosed() {
        return slowReceivers.sum();
    }

    /** Sessions failed for breaking the protocol or a limit (1002, 1003, 1007, 1009, 1013). */
    public long protocolErrors() {
        return protocolErrors.sum();
    }

    /** Sessions closed because the peer sent nothing for {@code ws-idle-timeout}. */
    public long idleClosed() {
        return idleClosed.sum();
    }
}
