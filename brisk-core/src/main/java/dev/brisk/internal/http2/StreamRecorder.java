package dev.brisk.internal.http2;

import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestIds;

/**
 * The one place an HTTP/2 connection's responses are recorded, as each is handed to the output: the
 * loop's counters, the route's counts and, when on, an access-log line with {@code protocol=h2}
 * (TLS) or {@code h2c}. The HTTP/1.1 recorder's rules, per stream. Loop thread only.
 */
final class StreamRecorder {
    /** Answered by the request's handler chain (or the app's own answers). */
    static final int ANSWERED = 0;
    /** Refused by the engine before its handler (431, 413, 408, 501...). */
    static final int REFUSED = 1;
    /** Refused by load shedding. */
    static final int SHED = 2;

    private final Wire wire;
    private final AccessLog accessLog; // null when off
    private final String protocol;
    private final boolean tls;

    StreamRecorder(Wire wire, AccessLog accessLog) {
        this.wire = wire;
        this.accessLog = accessLog;
        this.tls = wire.tls() != null;
        this.protocol = tls ? "h2" : "h2c";
    }

    /**
     * Records one response on {@code s}.
     *
     * @param ex the request's exchange, or null when it was refused before one was made
     * @param requestId the id this response echoes, or null (then the log finds or makes one)
     * @param bodyBytes body bytes sent, -1 when streamed
     */
    void responded(int kind, int status, Http2Stream s, Exchange ex, String requestId, long bodyBytes) {
        long nanos = System.nanoTime() - s.headAt;
        switch (kind) {
            case ANSWERED -> {
                wire.counters().response(status, nanos);
                if (ex != null && ex.route() != null) {
                    ex.route().stats().response(status);
                }
            }
            case SHED -> {
                wire.counters().response(status, nanos);
                if (ex != null && ex.route() != null) {
                    ex.route().stats().response(status); // a route's error rate includes its shed answers
                }
            }
            default -> {
                wire.counters().parseError(status);
                if (ex != null && ex.route() != null) {
                    ex.route().stats().response(status); // refused once routed (413, 408 mid-body): the route's too
                }
            }
        }
        wire.counters().http2Response(tls);
        if (accessLog != null && wire.accessLogSampler().take(status)) {
            String id = requestId != null ? requestId : ex != null ? ex.requestId() : RequestIds.generate();
            accessLog.offer(ex != null
                    ? new AccessLog.Line(ex.method(), ex.routeTemplate(), ex.rawPath(), status, bodyBytes, nanos,
                            wire.remoteAddress(), id, protocol)
                    : new AccessLog.Line(null, null, null, status, bodyBytes, nanos, wire.remoteAddress(), id,
                            protocol));
        }
    }
}
