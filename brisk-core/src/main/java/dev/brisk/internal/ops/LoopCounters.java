package dev.brisk.internal.ops;

/**
 * One I/O loop's counters. Only that loop's thread writes them, so a count is a plain increment, not
 * an atomic operation (the engine's hot path pays a few nanoseconds, not a CAS per counter); readers
 * on other threads sum every loop's values and may see them a moment late, which metrics tolerate.
 * Longs are written whole on the 64-bit JVMs Brisk runs on.
 */
public final class LoopCounters {
    long bytesIn;
    long bytesOut;
    long writes;
    long timedOut;
    /** Responses sent over HTTP/2 with TLS ([0], h2) and in the clear ([1], h2c). */
    final long[] http2 = new long[2];
    /**
     * Responses sent over HTTP/1.x, counted as such: derived as "all minus HTTP/2" from counters read a
     * moment apart, it went backwards whenever an HTTP/2 response was counted between the two reads.
     */
    long http1;
    long slowBodies;
    long slowResponses;
    final long[] statusClass = new long[6];
    final long[] latencyBuckets = new long[LatencyHistogram.BOUNDS_NANOS.length + 1];
    long latencySum;
    final long[] parseErrors = new long[ServerStats.PARSE_ERROR_KINDS.length];
    final long[] shed = new long[ServerStats.ShedReason.values().length];

    LoopCounters() {
    }

    public void bytesIn(long n) {
        bytesIn += n;
    }

    /** One socket write that wrote {@code n} bytes. */
    public void bytesOut(long n) {
        bytesOut += n;
        writes++;
    }

    public void timedOut() {
        timedOut++;
    }

    /** A request body arrived below {@code min-body-rate}: answered 408, closed. */
    public void slowBody() {
        slowBodies++;
    }

    /** A client took response bytes below {@code min-response-rate}: closed. */
    public void slowResponse() {
        slowResponses++;
    }

    /** One response sent: its status and its latency from the end of the request head. */
    public void response(int status, long nanos) {
        status(status);
        int i = 0;
        long[] bounds = LatencyHistogram.BOUNDS_NANOS;
        while (i < bounds.length && nanos > bounds[i]) {
            i++;
        }
        latencyBuckets[i]++;
        latencySum += nanos;
    }

    /** One response whose latency means nothing (refused before its head was whole). */
    public void status(int status) {
        int cls = status / 100;
        statusClass[cls >= 1 && cls <= 5 ? cls : 0]++;
    }

    /** A request refused while being parsed or read, answered with {@code status}. */
    public void parseError(int status) {
        status(status);
        parseErrors[ServerStats.parseErrorIndex(status)]++;
    }

    /** One response (already counted by status) went out over HTTP/1.x. */
    public void http1Response() {
        http1++;
    }

    /** One response (already counted by status) went out on an HTTP/2 stream, over TLS or not. */
    public void http2Response(boolean tls) {
        http2[tls ? 0 : 1]++;
    }

    public void shed(ServerStats.ShedReason reason) {
        shed[reason.ordinal()]++;
    }

    /** Adds {@code o}'s counts to these (a closed connection's, into the retired totals). */
    void addAll(LoopCounters o) {
        bytesIn += o.bytesIn;
        bytesOut += o.bytesOut;
        writes += o.writes;
        timedOut += o.timedOut;
        slowBodies += o.slowBodies;
        slowResponses += o.slowResponses;
        latencySum += o.latencySum;
        add(statusClass, o.statusClass);
        add(latencyBuckets, o.latencyBuckets);
        add(parseErrors, o.parseErrors);
        add(shed, o.shed);
        add(http2, o.http2);
        http1 += o.http1;
    }

    private static void add(long[] into, long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] += from[i];
        }
    }
}
