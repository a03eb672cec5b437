package dev.brisk.internal.http1;

import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.ErrorBodies;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestIds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The answers the engine gives itself, before or instead of a handler: a request shed by load control
 * or because its body does not fit the server's body budgets (503 + Retry-After) and a request refused while parsed or read (400, 408, 413, 431, 500 ...). Both
 * are short answers, counted, recorded and framed by one path, with the CORS fields of the request's
 * route when it has a CORS middleware ({@link Exchange#refusalHeaders}): plain text, or JSON when the
 * request's head was read whole and its {@code Accept} prefers JSON, as the app's own error answers
 * ({@link ErrorBodies}). Loop thread only.
 */
final class ErrorAnswers {
    static final byte[] SHED_BODY = "Service Unavailable: too many requests in flight, retry shortly\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MEMORY_BODY = (shedMessage(ServerStats.ShedReason.BODY_MEMORY) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DISK_BODY = (shedMessage(ServerStats.ShedReason.BODY_DISK) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THREAD_BODY = (shedMessage(ServerStats.ShedReason.THREAD_LIMIT) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    /**
     * What an HTTP/2 client with prior knowledge gets on a connection no thread came free for: the
     * server's (empty) SETTINGS, then GOAWAY with the last stream 0 (none was processed: it may retry
     * them all) and NO_ERROR, its debug data saying why (RFC 9113 6.5, 6.8).
     */
    static final byte[] HTTP2_BUSY = http2Busy("no connection thread free");
    private static final List<String> RETRY_AFTER = List.of("Retry-After", "1");

    private final Wire wire;
    private final Recorder recorder;
    private final RequestParser parser;
    private final boolean echoIds;

    ErrorAnswers(Wire wire, Recorder recorder, RequestParser parser, boolean echoIds) {
        this.wire = wire;
        this.recorder = recorder;
        this.parser = parser;
        this.echoIds = echoIds;
    }

    /** What a 503 for a request shed for {@code reason} says. */
    static String shedMessage(ServerStats.ShedReason reason) {
        return switch (reason) {
            case BODY_MEMORY -> "Service Unavailable: no request-body memory free, retry shortly";
            case BODY_DISK -> "Service Unavailable: no disk free for request bodies, retry shortly";
            case THREAD_LIMIT -> "Service Unavailable: no connection thread free, retry shortly";
            default -> "Service Unavailable: too many requests in flight, retry shortly";
        };
    }

    private static byte[] http2Busy(String why) {
        byte[] debug = why.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(9 + 9 + 8 + debug.length);
        b.put(new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0}); // SETTINGS, no parameters, stream 0
        int length = 8 + debug.length;
        b.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
        b.put((byte) 0x7).put((byte) 0).putInt(0); // GOAWAY, no flags, stream 0
        b.putInt(0).putInt(0).put(debug); // last stream 0, NO_ERROR
        return b.array();
    }

    /** The 503 for a request shed before its handler ({@code ex}: its exchange, routed). */
    ByteBuffer shed(Exchange ex, ServerStats.ShedReason reason, boolean closeAfter) {
        wire.counters().shed(reason);
        String id = echoIds ? ex.requestId() : null;
        boolean json = ErrorBodies.jsonFor(ex);
        byte[] body = json ? ErrorBodies.json(503, shedMessage(reason))
                : reason == ServerStats.ShedReason.BODY_MEMORY ? MEMORY_BODY
                : reason == ServerStats.ShedReason.BODY_DISK ? DISK_BODY
                : reason == ServerStats.ShedReason.THREAD_LIMIT ? THREAD_BODY : SHED_BODY;
        recorder.responded(Recorder.SHED, 503, ex, null, id, parser.head() ? 0 : body.length);
        int connection = closeAfter ? ResponseEncoder.CONNECTION_CLOSE
                : parser.version() == RequestParser.HTTP_1_1 ? ResponseEncoder.KEEP_ALIVE : ResponseEncoder.KEEP_ALIVE_1_0;
        return answer(503, withCors(ex, id == null ? RETRY_AFTER : List.of("Retry-After", "1", RequestIds.HEADER, id)),
                json, body, connection);
    }

    /**
     * The answer to a request refused before its handler; the connection closes after it.
     *
     * @param ex the request's exchange, or null when its head was not whole (then no incoming id is kept)
     */
    ByteBuffer refusal(Exchange ex, int status, String message) {
        boolean json = ex != null && ErrorBodies.jsonFor(ex);
        byte[] body = json ? ErrorBodies.json(status, message) : (message + "\n").getBytes(StandardCharsets.UTF_8);
        String id = !echoIds ? null : ex != null ? ex.requestId() : RequestIds.generate();
        recorder.responded(Recorder.REFUSED, status, ex, null, id, parser.head() ? 0 : body.length);
        List<String> headers = id == null ? List.of() : List.of(RequestIds.HEADER, id);
        return answer(status, ex == null ? headers : withCors(ex, headers), json, body, ResponseEncoder.CONNECTION_CLOSE);
    }

    /** {@code headers} and, after them, the CORS fields of {@code ex}'s route (so a page can read the refusal). */
    private static List<String> withCors(Exchange ex, List<String> headers) {
        List<String> cors = ex.refusalHeaders();
        if (cors.isEmpty()) {
            return headers;
        }
        List<String> all = new java.util.ArrayList<>(headers.size() + cors.size());
        all.addAll(headers);
        all.addAll(cors);
        return all;
    }

    /** The answer's bytes; to a HEAD request its head only (RFC 9110 9.3.2), with the length GET would get. */
    private ByteBuffer answer(int status, List<String> headers, boolean json, byte[] body, int connection) {
        ByteBuffer out = wire.outPool().acquire();
        ResponseEncoder.encodeHead(out, status, json ? ErrorBodies.JSON : "text/plain; charset=utf-8", headers,
                body.length, connection);
        if (!parser.head()) {
            out.put(body, 0, Math.min(body.length, out.remaining()));
        }
        return out.flip();
    }
}
