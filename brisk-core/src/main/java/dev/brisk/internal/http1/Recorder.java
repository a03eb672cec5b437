package dev.brisk.internal.http1;

import dev.brisk.internal.http.MethodNames;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestIds;

/**
 * The one place a connection's responses are recorded, just before each is handed to the socket: the
 * loop's counters, the route's counts and, when on, an access-log line. Loop thread only.
 */
final class Recorder {
    /** Answered from a fast-static route. */
    static final int FAST = 0;
    /** Answered by the request's handler chain (or the app's 404/405/503 answers). */
    static final int ANSWERED = 1;
    /** Refused by load shedding before its handler. */
    static final int SHED = 2;
    /** Refused while parsed or read (parse error, timeout, limit). */
    static final int REFUSED = 3;

    private static final String HTTP_1_1 = "http/1.1";
    private static final String HTTP_1_0 = "http/1.0";

    private final Wire wire;
    private final AccessLog accessLog; // null when off
    private final InboundBytes input;
    private final RequestParser parser;
    /** When the current request's head was whole: latencies are measured from here. */
    private long headAt;

    Recorder(Wire wire, AccessLog accessLog, InboundBytes input, RequestParser parser) {
        this.wire = wire;
        this.accessLog = accessLog;
        this.input = input;
        this.parser = parser;
    }

    /** A request's head is whole. */
    void headParsed() {
        headAt = System.nanoTime();
    }

    /** When the current request's head was whole ({@link System#nanoTime}). */
    long headAt() {
        return headAt;
    }

    /** The current request is one whose head was whole at {@code nanos} (a {@link PipelineRun}'s next). */
    void headAt(long nanos) {
        headAt = nanos;
    }

    /**
     * Records one response.
     *
     * @param kind {@link #FAST}, {@link #ANSWERED}, {@link #SHED} or {@link #REFUSED}
     * @param ex the request's exchange; null for a fast-static answer or a refusal before the head was whole
     * @param fast the fast-static route that answered, else null
     * @param requestId the id this response echoes, or null (then the log finds or makes one)
     * @param bodyBytes body bytes sent, -1 when streamed
     */
    void responded(int kind, int status, Exchange ex, FastRoutes.Entry fast, String requestId, long bodyBytes) {
        switch (kind) {
            case FAST -> {
                wire.counters().response(status, 0); // answered at once: not worth a clock read
                fast.stats().response(status); // as when its route serves it (HTTP/2, a GET with a body)
            }
            case ANSWERED -> {
                wire.counters().response(status, System.nanoTime() - headAt);
                if (ex.route() != null) {
                    ex.route().stats().response(status);
                }
            }
            case SHED -> {
                wire.counters().response(status, System.nanoTime() - headAt);
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
        wire.counters().http1Response();
        if (accessLog != null && wire.accessLogSampler().take(status)) {
            accessLog.offer(line(status, ex, fast, requestId, bodyBytes));
        }
    }

    private AccessLog.Line line(int status, Exchange ex, FastRoutes.Entry fast, String requestId, long bodyBytes) {
        String remote = wire.remoteAddress();
        if (ex != null) {
            return new AccessLog.Line(ex.method(), ex.routeTemplate(), ex.rawPath(), status, bodyBytes,
                    System.nanoTime() - headAt, remote, requestId != null ? requestId : ex.requestId(),
                    ex.http11() ? HTTP_1_1 : HTTP_1_0);
        }
        if (fast != null) {
            // the head is still in the input buffer: nothing is read until this response is written
            byte[] a = input.buf.array();
            int start = input.start - parser.headEnd();
            String id = requestId != null ? requestId
                    : RequestIds.incomingOrNew(a, start, parser.fields(), parser.fieldCount());
            String method = MethodNames.of(a, start + parser.methodStart(), start + parser.methodEnd());
            return new AccessLog.Line(method, fast.path(), fast.path(), status, bodyBytes,
                    System.nanoTime() - headAt, remote, id,
                    parser.version() == RequestParser.HTTP_1_1 ? HTTP_1_1 : HTTP_1_0);
        }
        return new AccessLog.Line(null, null, null, status, bodyBytes, -1, remote,
                requestId != null ? requestId : RequestIds.generate(), HTTP_1_1);
    }
}
