package dev.brisk.internal.ops;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's own counters: no dependencies, no locks on the hot path (LongAdder cells spread
 * contention across threads). Written by I/O loops and handler threads; read by {@code Brisk.metrics()}.
 */
public final class ServerStats {
    /** Why a request was refused before reaching its handler. */
    public enum ShedReason {
        /** The in-flight limit was reached and the queue was full (or off). */
        CONCURRENCY_LIMIT,
        /** It waited in the queue longer than the queue timeout. */
        QUEUE_TIMEOUT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public final LongAdder connectionsAccepted = new LongAdder();
    public final LongAdder connectionsClosed = new LongAdder();
    public final LongAdder connectionsTimedOut = new LongAdder();
    public final LongAdder acceptPauses = new LongAdder();
    public final LongAdder bytesIn = new LongAdder();
    public final LongAdder bytesOut = new LongAdder();
    public final LatencyHistogram latency = new LatencyHistogram();
    private final LongAdder[] byStatusClass = adders(6);
    private final LongAdder[] parseErrors = adders(PARSE_ERROR_STATUSES.length + 1);
    private final LongAdder[] shed = adders(ShedReason.values().length);

    /** Statuses the engine answers itself when a request cannot be parsed or read, by kind. */
    private static final int[] PARSE_ERROR_STATUSES = {400, 408, 413, 414, 417, 431, 501, 505};
    private static final String[] PARSE_ERROR_KINDS = {
        "bad-request", "timeout", "body-too-large", "uri-too-long", "expectation-failed", "header-too-large",
        "not-implemented", "version-not-supported", "other"};

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** One response sent: its status and its latency from the end of the request head. */
    public void response(int status, long nanos) {
        status(status);
        latency.record(nanos);
    }

    /** One response sent whose latency means nothing (a request refused before its head was whole). */
    public void status(int status) {
        int cls = status / 100;
        byStatusClass[cls >= 1 && cls <= 5 ? cls : 0].increment();
    }

    /** A request the engine refused while parsing or reading it, answered with {@code status}. */
    public void parseError(int status) {
        status(status);
        int i = 0;
        while (i < PARSE_ERROR_STATUSES.length && PARSE_ERROR_STATUSES[i] != status) {
            i++;
        }
        parseErrors[i].increment();
    }

    public void shed(ShedReason reason) {
        shed[reason.ordinal()].increment();
    }

    public long requests() {
        long n = 0;
        for (LongAdder a : byStatusClass) {
            n += a.sum();
        }
        return n;
    }

    /** Responses whose status is {@code cls}xx (1..5). */
    public long requests(int cls) {
        return cls >= 1 && cls <= 5 ? byStatusClass[cls].sum() : 0;
    }

    public Map<String, Long> parseErrors() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < parseErrors.length; i++) {
            m.put(PARSE_ERROR_KINDS[i], parseErrors[i].sum());
        }
        return m;
    }

    public Map<String, Long> shed() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ShedReason r : ShedReason.values()) {
            m.put(r.label(), shed[r.ordinal()].sum());
        }
        return m;
    }
}
