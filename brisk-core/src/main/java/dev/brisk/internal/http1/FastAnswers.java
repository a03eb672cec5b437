package dev.brisk.internal.http1;

import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.web.RequestIds;

/**
 * Answers body-less GET and HEAD requests of fast-static routes from their prebuilt bytes, straight
 * from the parsed head: no exchange, no handler, no routing beyond one table lookup. Loop thread only.
 */
final class FastAnswers {
    private static final byte[] ROOT = {'/'};
    private final FastRoutes routes;
    private final RequestParser parser;
    private final Recorder recorder;
    private final boolean echoIds;

    FastAnswers(FastRoutes routes, RequestParser parser, Recorder recorder, boolean echoIds) {
        this.routes = routes;
        this.parser = parser;
        this.recorder = recorder;
        this.echoIds = echoIds;
    }

    /**
     * The whole answer (recorded) to the parsed request whose head starts at {@code a[start]}, or null
     * when it is not for a fast-static route.
     */
    byte[] answer(byte[] a, int start, boolean closeAfter) {
        FastRoutes.Entry e = find(a, start);
        if (e == null) {
            return null;
        }
        boolean head = parser.head();
        int conn = closeAfter ? FastRoutes.CLOSE
                : parser.version() == RequestParser.HTTP_1_1 ? FastRoutes.KEEP_ALIVE : FastRoutes.KEEP_ALIVE_1_0;
        String id = echoIds ? RequestIds.incomingOrNew(a, start, parser.fields(), parser.fieldCount()) : null;
        recorder.responded(Recorder.FAST, e.status(), null, e, id, e.bodyLength(head));
        return id == null ? e.bytes(head, conn) : e.bytesWith(head, conn, RequestIds.HEADER, id);
    }

    /** Whether the parsed request whose head starts at {@code a[start]} is for a fast-static route (nothing recorded). */
    boolean serves(byte[] a, int start) {
        return find(a, start) != null;
    }

    private FastRoutes.Entry find(byte[] a, int start) {
        if (routes.isEmpty() || parser.hasBody()) {
            return null;
        }
        int ms = start + parser.methodStart();
        int me = start + parser.methodEnd();
        boolean get = me - ms == 3 && a[ms] == 'G' && a[ms + 1] == 'E' && a[ms + 2] == 'T';
        boolean head = !get && me - ms == 4 && a[ms] == 'H' && a[ms + 1] == 'E' && a[ms + 2] == 'A' && a[ms + 3] == 'D';
        if (!get && !head) {
            return null;
        }
        return parser.pathEnd() > parser.pathStart()
                ? routes.find(a, start + parser.pathStart(), start + parser.pathEnd())
                : routes.find(ROOT, 0, 1); // absolute-form without a path means "/"
    }
}
