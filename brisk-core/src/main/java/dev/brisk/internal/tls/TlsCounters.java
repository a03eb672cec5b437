package dev.brisk.internal.tls;

import java.util.concurrent.atomic.LongAdder;

/**
 * A server's TLS handshakes: finished, and failed (an alert, garbage, a client that left or took longer
 * than the handshake timeout, a refused renegotiation). Any thread.
 */
public final class TlsCounters {
    private final LongAdder handshakes = new LongAdder();
    private final LongAdder failures = new LongAdder();

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
