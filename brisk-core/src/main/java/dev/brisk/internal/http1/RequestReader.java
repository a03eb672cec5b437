package dev.brisk.internal.http1;

import dev.brisk.Method;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.MethodNames;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;

/**
 * Reads requests off the wire: bytes into {@link InboundBytes}, heads through the
 * {@link RequestParser}, bodies through the {@link BodyReader}, and a whole head into an
 * {@link Exchange} that borrows the buffer. Mechanics only: when each runs is the connection's state
 * machine. Loop thread only.
 */
final class RequestReader {
    /** {@link #fill}: the buffer is full and cannot grow; read again once a request is consumed. */
    static final int FULL = -2;
    /** {@link #parseHead}: nothing is buffered. */
    static final int EMPTY = 0;
    /** {@link #parseHead}: a head has started but is not whole. */
    static final int PARTIAL = 1;
    /** {@link #parseHead}: a head is whole and consumed; see {@link #headStart}. */
    static final int WHOLE = 2;

    final InboundBytes input;
    final RequestParser parser;
    private final BodyReader body;
    private final Wire wire;
    private final Deadlines deadlines;
    /** Where the last whole head starts in the input buffer. */
    private int headStart;
    /** Bytes received on this connection so far (a position in its input stream). */
    private long received;

    RequestReader(Wire wire, InboundBytes input, RequestParser parser, BodyReader body, Deadlines deadlines) {
        this.wire = wire;
        this.input = input;
        this.parser = parser;
        this.body = body;
        this.deadlines = deadlines;
    }

    /** Reads what the wire has: bytes read, 0 when none yet, -1 at the end of the stream, or {@link #FULL}. */
    int fill(boolean readingHead) throws IOException {
        input.hold();
        if (!input.buf.hasRemaining()) {
            input.makeRoom(readingHead);
            if (!input.buf.hasRemaining()) {
                return FULL;
            }
        }
        int n = wire.read(input.buf);
        if (n > 0) {
            received += n;
            wire.counters().bytesIn(n);
        }
        return n;
    }

    /** Bytes the transport read into memory of its own ({@code n}, far below a buffer's size). */
    void accept(byte[] src, int n) {
        input.put(src, n);
        received += n;
        wire.counters().bytesIn(n);
    }

    /** Bytes received on this connection so far. */
    long received() {
        return received;
    }

    /** Where the unread bytes begin, as a count of the bytes received before them. */
    long unreadFrom() {
        return input.buf == null ? received : received - (input.buf.position() - input.start);
    }

    /** What an HTTP/2 client sends first (RFC 9113 3.4): no HTTP/1.1 request starts so. */
    private static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Whether the buffered bytes are the HTTP/2 connection preface: {@link #WHOLE}, {@link #PARTIAL}
     * (all so far match), or {@link #EMPTY} (nothing buffered, or not the preface).
     */
    int preface() {
        if (input.buf == null) {
            return EMPTY;
        }
        byte[] a = input.buf.array();
        int n = Math.min(input.buf.position() - input.start, H2_PREFACE.length);
        for (int i = 0; i < n; i++) {
            if (a[input.start + i] != H2_PREFACE[i]) {
                return EMPTY;
            }
        }
        if (n < H2_PREFACE.length) {
            if (n > 0) {
                deadlines.headBytes();
            }
            return n == 0 ? EMPTY : PARTIAL;
        }
        return WHOLE;
    }

    /** Parses what is buffered of a head: {@link #EMPTY} (and the buffer goes back), {@link #PARTIAL} or {@link #WHOLE}. */
    int parseHead() throws HttpParseException {
        if (input.buf == null) {
            return EMPTY;
        }
        int end = input.buf.position();
        if (end == input.start) {
            input.release(); // all consumed: an idle connection holds no buffer
            return EMPTY;
        }
        deadlines.headBytes();
        if (!parser.parse(input.buf.array(), input.start, end)) {
            return PARTIAL;
        }
        headStart = input.start;
        input.start += parser.headEnd();
        return WHOLE;
    }

    /** The input buffer's bytes, where the last whole head sits at {@link #headStart}. */
    byte[] bytes() {
        return input.buf.array();
    }

    int headStart() {
        return headStart;
    }

    /**
     * The last whole head as an exchange, borrowing the input buffer and the parser's offsets: {@code spare}
     * made new for it, or a new one when {@code spare} is null.
     */
    Exchange exchange(ExchangeOwner owner, boolean deferred, Exchange spare) {
        byte[] a = input.buf.array();
        String method = MethodNames.of(a, headStart + parser.methodStart(), headStart + parser.methodEnd());
        boolean http11 = parser.version() == RequestParser.HTTP_1_1;
        if (spare != null) {
            return spare.reuse(a, headStart, parser.headEnd(), parser.fields(), parser.fieldCount(), method,
                    Method.of(method), parser.pathStart(), parser.pathEnd(), parser.targetEnd(), http11, deferred);
        }
        return new Exchange(owner, a, headStart, parser.headEnd(), parser.fields(), parser.fieldCount(), method,
                Method.of(method), parser.pathStart(), parser.pathEnd(), parser.targetEnd(), http11, deferred);
    }

    /**
     * Starts buffering the body the last head announced, under {@code limit}.
     *
     * @return null when it may be read, else the budget that refuses it
     * @throws HttpParseException 500 when it cannot be stored
     */
    ServerStats.ShedReason beginBody(long limit) throws HttpParseException {
        return body.begin(parser, limit);
    }

    /** Starts streaming the body the last head announced into {@code s}. */
    void beginStream(BodyStream s) {
        body.beginStream(parser, s);
    }

    /** The whole body once it is read (a buffered one handed over to the caller), else null (more bytes needed). */
    RequestBody readBody() throws HttpParseException {
        int end = input.buf == null ? input.start : input.buf.position();
        input.start = body.read(input.buf == null ? null : input.buf.array(), input.start, end);
        return body.done() ? body.take() : null;
    }

    /** Whether body reading waits for its handler to take bytes from the stream's window. */
    boolean bodyStarved() {
        return body.starved();
    }

    /** Why the last buffered body was refused with 503, or null. */
    ServerStats.ShedReason bodyRefusal() {
        return body.refusal();
    }

    /** Drops a body being read. */
    void abortBody() {
        body.abort();
    }

    /** Whether bytes beyond the current request are buffered (a pipelined request, or a partial one). */
    boolean hasUnread() {
        return input.hasUnread();
    }
}
