package dev.brisk.internal.http1;

import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.web.RequestIds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The answers the engine gives itself, before or instead of a handler: a request shed by load control
 * (503 + Retry-After) and a request refused while parsed or read (400, 408, 413, 431, 500 ...). Both
 * are short plain-text answers framed by one path. Stateless.
 */
final class ErrorAnswers {
    static final byte[] SHED_BODY = "Service Unavailable: too many requests in flight, retry shortly\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final List<String> RETRY_AFTER = List.of("Retry-After", "1");

    private ErrorAnswers() {
    }

    /** The 503 for a shed request; {@code id}, when not null, is echoed. */
    static ByteBuffer shed(BufferPool pool, String id, int connection) {
        List<String> headers = id == null ? RETRY_AFTER : List.of("Retry-After", "1", RequestIds.HEADER, id);
        return answer(pool, 503, headers, SHED_BODY, connection);
    }

    /** The answer to a request refused before its handler; the connection closes after it. */
    static ByteBuffer refusal(BufferPool pool, int status, byte[] body, String id) {
        return answer(pool, status, id == null ? List.of() : List.of(RequestIds.HEADER, id), body,
                ResponseEncoder.CONNECTION_CLOSE);
    }

    private static ByteBuffer answer(BufferPool pool, int status, List<String> headers, byte[] body, int connection) {
        ByteBuffer out = pool.acquire();
        ResponseEncoder.encodeHead(out, status, "text/plain; charset=utf-8", headers, body.length, connection);
        out.put(body, 0, Math.min(body.length, out.remaining()));
        return out.flip();
    }
}
