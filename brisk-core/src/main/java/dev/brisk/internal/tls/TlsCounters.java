package dev.brisk.internal.tls;

import java.util.concurrent.atomic.LongAdder;

/**
 * A server's TLS handshakes: finished, and failed (an alert, garbage, a client that left or took longer
 * than the handshake timeout, a refused renegotiation); and its key files' reloads, done and failed.
 * Any thread.
 */
public final class TlsCounters {
    private final LongAdder handshakes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder reloads = new LongAdder();
    private final LongAdder reloadFailures = new LongAdder();

    void reloaded() {
        reloads.increment();
    }

    void reloadFailed() {
        reloadFailures.increment();
    }

    /** {@return changed key files loaded and put in use so far} */
    public long reloads() {
        return reloads.sum();
    }

    /** {@return changes of the key files that could not be used (the old key stayed), each counted once} */
    public long reloadFailures() {
        return reloadFailures.sum();
    }

    void handshake() {
        handshakes.increment();
    }

    void failed() {
        failures.increment();
    }

    /** {@return handshakes finished so far} */
    public long handshakes() {
        return handshakes.sum();
    }

    /** {@return handshakes that failed so far} */
    public long failures() {
        return failures.sum();
    }
}
