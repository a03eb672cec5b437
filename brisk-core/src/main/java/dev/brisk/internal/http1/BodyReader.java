package dev.brisk.internal.http1;

import dev.brisk.ServerOptions;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.body.BodyWriter;
import dev.brisk.internal.http.BodySink;
import dev.brisk.internal.http.ChunkedDecoder;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.ops.ServerStats.ShedReason;
import dev.brisk.internal.web.RequestBody;

/**
 * Reads one request body as its bytes arrive, framed by a declared length or by chunks (decoded), into
 * a {@link BodyWriter} (buffered: in memory, or spooled to a file, under the server's budgets) or into
 * a {@link BodyStream}'s window (streamed: no more than the window has room for at a time). Loop
 * thread only; one body at a time.
 */
final class BodyReader {
    private final ServerOptions options;
    private final BodyWriter writer;
    private ChunkedDecoder chunks;
    private long remaining;
    private BodySink sink;
    private BodyStream stream;

    BodyReader(ServerOptions options, BodyStore bodies) {
        this.options = options;
        this.writer = new BodyWriter(bodies);
    }

    /**
     * Starts buffering the body {@code parser}'s head announced, reserving what a declared length needs.
     *
     * @return null when it may be read, else the budget that refuses it (nothing is held then)
     * @throws HttpParseException 500 when it cannot be stored
     */
    ShedReason begin(RequestParser parser, long limit) throws HttpParseException {
        stream = null;
        ShedReason refused = writer.begin(parser.chunked() ? -1 : parser.contentLength(), limit);
        if (refused == null) {
            frame(parser, writer);
        }
        return refused;
    }

    /** Starts streaming the body {@code parser}'s head announced into {@code s}. */
    void beginStream(RequestParser parser, BodyStream s) {
        stream = s;
        frame(parser, s);
    }

    private void frame(RequestParser parser, BodySink to) {
        sink = to;
        if (parser.chunked()) {
            chunks = new ChunkedDecoder(options.maxChunkExtension(), options.maxHeaderSize());
        } else {
            chunks = null;
            remaining = parser.contentLength();
        }
    }

    /**
     * Takes body bytes from {@code a[from..end)} (for a stream, as many as its window has room for):
     * returns where the unconsumed bytes start (the next request's, once the body is {@link #done}).
     *
     * @throws HttpParseException on bad chunk framing, a body over the limit, a budget spent (503)
     */
    int read(byte[] a, int from, int end) throws HttpParseException {
        if (stream == null) {
            return consume(a, from, end);
        }
        // The handler empties the window while bytes go in: one look at its room, then a copy that fills
        // it, could leave bytes behind with the window no longer full when the connection checks it, and
        // nobody would ask for them. So copy until every byte is taken, the body ends, or the window is
        // seen full (room() then tells the reader to ask for more once it has read).
        int pos = from;
        while (pos < end && !done()) {
            int room = stream.room();
            if (room == 0) {
                break;
            }
            int next = consume(a, pos, (int) Math.min(end, (long) pos + room));
            if (next == pos) {
                break; // a partial chunk header: more bytes are needed
            }
            pos = next;
        }
        return pos;
    }

    private int consume(byte[] a, int from, int end) throws HttpParseException {
        if (chunks != null) {
            return end > from ? chunks.decode(a, from, end, sink) : from;
        }
        int n = (int) Math.min(remaining, end - from);
        if (n > 0) {
            sink.append(a, from, n);
            remaining -= n;
        }
        return from + Math.max(n, 0);
    }

    boolean done() {
        return chunks != null ? chunks.done() : remaining <= 0;
    }

    /** Whether reading waits for the handler to empty the stream's window. */
    boolean starved() {
        return stream != null && !done() && stream.room() == 0;
    }

    /**
     * The whole body, once {@link #done}: a buffered one handed over to the caller, or the stream; the
     * reader is idle afterwards.
     *
     * @throws HttpParseException 500 when a spooled body cannot be closed
     */
    RequestBody take() throws HttpParseException {
        RequestBody b = stream != null ? stream : writer.finish();
        idle();
        return b;
    }

    /** Why the last buffered body was refused with 503, or null. */
    ShedReason refusal() {
        return writer.refusal();
    }

    /** Drops a body being read (refused, abandoned, or the connection closed); a stream is its owner's to end. */
    void abort() {
        writer.abort();
        idle();
    }

    private void idle() {
        sink = null;
        chunks = null;
        stream = null;
    }
}
