package dev.brisk.internal.http1;

import dev.brisk.Method;
import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.files.FileRegion;
import dev.brisk.internal.files.SizedBody;
import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.transport.BufferPool;
import dev.brisk.internal.web.Exchange;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Frames an exchange's response for HTTP/1.1: the head (status line, framing, connection header) into
 * a pooled buffer, a small body copied right behind it (one buffer, one write), a large one as a view
 * of its own, a stream as chunks (or, for HTTP/1.0, until the connection closes), a stream of known
 * length ({@link SizedBody}) under {@code Content-Length}: a {@link FileRegion} straight from its file
 * when the wire {@link dev.brisk.internal.transport.Wire#transfersFiles can}, else through the pump in
 * bounded pieces. HEAD requests and bodyless statuses get no body. One writer per connection: the framed response is held in its
 * fields between framing and sending, so a response costs no holder object.
 *
 * <p>Loop thread only.
 */
final class ResponseWriter {
    private final Http1Connection conn;
    private final BufferPool pool;
    private final Output output;
    private final Recorder recorder;
    private final ResponseStream stream;
    private final Runnable responseWritten;
    /** Whether the wire sends a file region itself ({@link dev.brisk.internal.transport.Wire#transfersFiles}). */
    private final boolean transfersFiles;
    // the framed response, from frame() to send()
    /** The framed head (read mode, pooled), with a small body behind it. */
    private ByteBuffer head;
    /** A body too large for the head's buffer (a view: shared buffers may be in flight elsewhere), or null. */
    private ByteBuffer body;
    /** A body to stream after the head, or null. */
    private InputStream streamBody;
    /** Whether {@link #streamBody} is sent as chunks (else sized, or ending with the connection). */
    private boolean chunked;
    /** {@link #streamBody}'s length under {@code Content-Length}, or -1. */
    private long streamLength;
    /** What makes the trailer fields sent after the last chunk, or null. */
    private Supplier<Map<String, String>> trailers;
    private int status;
    /** Body bytes sent, -1 when streamed. */
    private long bodyBytes;

    ResponseWriter(Http1Connection conn, BufferPool pool, Output output, Recorder recorder, ResponseStream stream,
                   Runnable responseWritten, boolean transfersFiles) {
        this.transfersFiles = transfersFiles;
        this.conn = conn;
        this.pool = pool;
        this.output = output;
        this.recorder = recorder;
        this.stream = stream;
        this.responseWritten = responseWritten;
    }

    /**
     * Frames, records and sends {@code ex}'s response after whatever was sent before; then the
     * connection's {@code responseWritten} runs (after a stream, once it ended). Releases a borrowed
     * head. False when the headers are too large: nothing was sent or recorded.
     *
     * @param streams where a body stream is pumped
     */
    boolean send(Exchange ex, boolean closeAfter, Executor streams) {
        if (!frame(ex, closeAfter)) {
            return false;
        }
        recorder.responded(Recorder.ANSWERED, status, ex, null, null, bodyBytes);
        // the request is over: a borrowed head goes back before the buffer can move on (the send may
        // go on to the next pipelined request)
        ex.release();
        ByteBuffer h = head;
        ByteBuffer b = body;
        InputStream s = streamBody;
        boolean c = chunked;
        long len = streamLength;
        Supplier<Map<String, String>> t = trailers;
        head = null;
        body = null;
        streamBody = null;
        trailers = null;
        if (s instanceof FileRegion file && transfersFiles && !c) {
            output.sendFile(h, file, responseWritten);
        } else if (s != null) {
            stream.pending(s);
            output.send(h, b, () -> stream.start(s, c, len, streams, t));
        } else {
            output.send(h, b, responseWritten);
        }
        return true;
    }

    /**
     * Sends {@code ex}'s {@code 101 Switching Protocols} head for {@code next} (with the headers the
     * chain set, a request id or a cookie, behind the switch's own); then the connection's
     * {@code responseWritten} hands the wire over. A head too large for the buffer is a programming error
     * of the protocol's: its fields are few and short.
     */
    void sendSwitch(Exchange ex, dev.brisk.internal.web.ProtocolSwitch next) {
        java.util.List<String> fields = next.headFields();
        java.util.List<String> own = ex.responseHeaders();
        if (!own.isEmpty()) {
            java.util.ArrayList<String> all = new java.util.ArrayList<>(fields);
            all.addAll(own);
            fields = all;
        }
        ByteBuffer out = pool.acquire();
        if (!ResponseEncoder.encodeHead(out, 101, null, fields, ResponseEncoder.NO_LENGTH, ResponseEncoder.KEEP_ALIVE)) {
            pool.release(out);
            throw new IllegalStateException("a 101 head larger than an output buffer");
        }
        recorder.responded(Recorder.ANSWERED, 101, ex, null, null, 0);
        ex.release();
        output.send(out.flip(), null, responseWritten);
    }

    /**
     * Frames {@code ex}'s response; false when its headers do not fit even a 1 MiB buffer (then its
     * stream, if any, is closed and nothing is held).
     */
    private boolean frame(Exchange ex, boolean closeAfter) {
        int status = ex.status();
        boolean headRequest = ex.methodEnum() == Method.HEAD;
        InputStream stream = ex.responseStream();
        String text = ex.responseText(); // when set, the body as ASCII chars (then no bytes are made)
        byte[] bytes = text == null ? ex.responseBody() : null;
        ByteBuffer shared = ex.responseBuffer(); // when set, the body (the bytes are then empty)
        Supplier<Map<String, String>> trailerFields = ex.responseTrailers();
        if (trailerFields != null && (headRequest || !ex.http11() || ResponseEncoder.bodyless(status))) {
            trailerFields = null; // no chunks (HTTP/1.0), or no content for them to follow
        }
        int bodyLength = 0;
        long length;
        // with trailers: the body's length as the pump checks it and the log counts it, or -1
        long knownLength = -1;
        if (trailerFields != null) {
            // trailers follow only a chunked body: a body of known length is sent as chunks too
            if (stream == null) {
                byte[] b = shared != null ? copy(shared) : text != null ? text.getBytes(StandardCharsets.US_ASCII) : bytes;
                stream = new java.io.ByteArrayInputStream(b);
                knownLength = b.length;
            } else if (stream instanceof SizedBody sized && sized.length() >= 0) {
                knownLength = sized.length(); // a file that changes while sent is cut, not ended with trailers
            }
            length = ResponseEncoder.CHUNKED;
        } else if (ResponseEncoder.bodyless(status)) {
            Exchange.closeQuietly(stream);
            stream = null;
            length = ResponseEncoder.NO_LENGTH;
        } else if (stream instanceof SizedBody sized) {
            length = sized.length() >= 0 ? sized.length() : ResponseEncoder.NO_LENGTH; // -1: UnsentBody.unknownLength
            if (headRequest) {
                Exchange.closeQuietly(stream);
                stream = null;
            }
        } else if (stream != null) {
            if (!ex.http11()) {
                closeAfter = true; // HTTP/1.0 has no chunks: the end of the connection ends the body
                conn.closeAfterResponse();
                length = ResponseEncoder.NO_LENGTH;
            } else {
                length = ResponseEncoder.CHUNKED;
            }
            if (headRequest) {
                Exchange.closeQuietly(stream);
                stream = null;
            }
        } else {
            bodyLength = shared != null ? shared.remaining() : text != null ? text.length() : bytes.length;
            length = bodyLength;
        }
        int connection = closeAfter ? ResponseEncoder.CONNECTION_CLOSE
                : ex.http11() ? ResponseEncoder.KEEP_ALIVE : ResponseEncoder.KEEP_ALIVE_1_0;
        ByteBuffer out = encodeHead(ex, status, length, connection);
        if (out == null) {
            Exchange.closeQuietly(stream);
            return false;
        }
        ByteBuffer bodyBuf = null;
        if (!headRequest && bodyLength > 0) {
            if (bodyLength <= out.remaining()) {
                // an absolute copy leaves a shared buffer's position alone
                if (shared != null) {
                    out.put(out.position(), shared, shared.position(), bodyLength);
                    out.position(out.position() + bodyLength);
                } else if (text != null) {
                    Ascii.put(out, text);
                } else {
                    out.put(bytes);
                }
            } else {
                bodyBuf = shared != null ? shared.duplicate()
                        : ByteBuffer.wrap(text != null ? text.getBytes(StandardCharsets.US_ASCII) : bytes);
            }
        }
        this.head = out.flip();
        this.body = bodyBuf;
        this.streamBody = stream;
        this.chunked = length == ResponseEncoder.CHUNKED;
        this.trailers = trailerFields;
        this.streamLength = trailerFields != null ? knownLength : stream instanceof SizedBody ? length : -1;
        this.status = status;
        this.bodyBytes = headRequest ? 0 : trailerFields != null ? knownLength
                : stream instanceof SizedBody ? length : stream != null ? -1 : bodyLength;
        return true;
    }

    /** The bytes of a shared body buffer, its position left alone. */
    private static byte[] copy(ByteBuffer shared) {
        byte[] b = new byte[shared.remaining()];
        shared.get(shared.position(), b);
        return b;
    }

    /** The head in a pooled buffer, else in a larger one of its own (up to 1 MiB); null when too large. */
    private ByteBuffer encodeHead(Exchange ex, int status, long length, int connection) {
        ByteBuffer out = pool.acquire();
        if (ResponseEncoder.encodeHead(out, status, ex.responseContentType(), ex.responseHeaders(), length, connection)) {
            return out;
        }
        pool.release(out);
        for (int size = 64 * 1024; size <= 1 << 20; size *= 4) {
            ByteBuffer big = ByteBuffer.allocate(size);
            if (ResponseEncoder.encodeHead(big, status, ex.responseContentType(), ex.responseHeaders(), length, connection)) {
                return big;
            }
        }
        return null;
    }

}
