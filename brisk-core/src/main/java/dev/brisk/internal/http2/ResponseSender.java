package dev.brisk.internal.http2;

import dev.brisk.Method;
import dev.brisk.internal.http.HttpDate;
import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.http.TrailerFields;
import dev.brisk.internal.files.SizedBody;
import dev.brisk.internal.web.ErrorBodies;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestIds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Sends a connection's responses: frames each answer's head as a {@code HEADERS} block (HPACK), then
 * its body as {@code DATA} frames within the client's windows (RFC 9113 5.2, 6.9): the connection's
 * and each stream's, and the client's frame size. Streams with bytes to send wait in a ready queue
 * and take turns, one frame each, so one large answer does not hold the others back; a stream whose
 * window is closed leaves the queue until a {@code WINDOW_UPDATE} (or a new initial window) opens it.
 * Frames are made only while less than {@value #HIGH_WATER} bytes wait for the socket.
 *
 * <p>A body is sent as a view of its bytes (a large byte body, a shared buffer) or copied into the
 * output (a small one, and each piece of a stream). A sized body stream (a file) is read on the
 * connection's thread where it may block (the blocking engine); any other body stream, which may wait
 * for its producer, by a {@link BodyPump}.
 *
 * <p>Loop thread only.
 */
final class ResponseSender {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    /** Bytes waiting for the socket above which no more DATA is made. */
    static final int HIGH_WATER = 64 * 1024;
    /** A body piece at most this long is copied into the output rather than sent as a view. */
    private static final int COPY_BELOW = 2048;
    private static final List<String> RETRY_AFTER = List.of("Retry-After", "1");
    /** {@code content-length} in HPACK's static table. */
    private static final int CONTENT_LENGTH = 28;

    private final Http2Connection conn;
    private final FrameWriter frames;
    private final Http2Output out;
    private final HpackEncoder encoder = new HpackEncoder();
    private final StreamRecorder recorder;
    private final ArrayDeque<Http2Stream> ready = new ArrayDeque<>();
    private final boolean blocking;
    private final boolean echoIds;
    /** {@code min-response-rate} while a stream waits for the client's window, or null. */
    private final dev.brisk.internal.transport.DataRate.Limit responseRate;
    /** What the connection's window still allows (RFC 9113 6.9.1); may not go below 0. */
    long connWindow = H2.DEFAULT_WINDOW;
    /** Since when streams wait for the connection's window (0: not waiting). */
    private long connBlockedSince;

    ResponseSender(Http2Connection conn, FrameWriter frames, Http2Output out, StreamRecorder recorder,
            boolean blocking, boolean echoIds, dev.brisk.internal.transport.DataRate.Limit responseRate) {
        this.responseRate = responseRate;
        this.conn = conn;
        this.frames = frames;
        this.out = out;
        this.recorder = recorder;
        this.blocking = blocking;
        this.echoIds = echoIds;
    }

    HpackEncoder encoder() {
        return encoder;
    }

    /** Whether frames wait to be made: streams in the ready queue the connection's window lets through. */
    boolean hasWork() {
        return !ready.isEmpty() && connWindow > 0;
    }

    /** Since when the connection's window holds streams back, or 0. */
    long connBlockedSince() {
        return connBlockedSince;
    }

    /** The streams waiting in the ready queue, for a timeout that resets them. */
    ArrayDeque<Http2Stream> ready() {
        return ready;
    }

    /** The client opened the connection's window by {@code increment}; false when past 2^31-1. */
    boolean connWindowUpdate(int increment) {
        connWindow += increment;
        if (connWindow > H2.MAX_WINDOW) {
            return false;
        }
        connBlockedSince = 0;
        return true;
    }

    /** Puts {@code s} in the ready queue (once) when it has bytes to send and room in its window. */
    void schedule(Http2Stream s) {
        if (s.queued || s.closed || !s.hasOutput()) {
            return;
        }
        if (s.sendWindow > 0 || bodyEndOnly(s)) {
            s.queued = true;
            ready.addLast(s);
        } else if (s.blockedSince == 0) {
            s.blockedSince = conn.clock(); // waits for a WINDOW_UPDATE: the write timeout runs from here
            waits(s, s.blockedSince);
        }
    }

    /** {@code s} waits for the client's window: its rate's clock runs (from its first wait). */
    private void waits(Http2Stream s, long now) {
        if (responseRate != null) {
            if (s.sendRate == null) {
                s.sendRate = responseRate.meter();
            }
            s.sendRate.resume(now);
        }
    }

    private static boolean bodyEndOnly(Http2Stream s) {
        return s.bodyComplete && (s.out == null || !s.out.hasRemaining());
    }

    // ---- answers ------------------------------------------------------------------------------

    /**
     * The handler's answer on {@code s} cannot be sent (the client reset the stream, or the connection
     * is ending): it is recorded as sent with no body, as an HTTP/1.1 answer to a client that left is.
     */
    void dropped(Http2Stream s, Exchange ex) {
        s.responded = true;
        recorder.responded(StreamRecorder.ANSWERED, ex.status(), s, ex, null, 0);
    }

    /**
     * Frames the handler's answer on {@code s}: the head now, the body as the windows allow; records
     * it and releases the exchange's head. False when the headers are too large to send (nothing was
     * sent; the caller answers 500).
     */
    boolean answer(Http2Stream s, Exchange ex) {
        if (echoIds) {
            ex.echoRequestId();
        }
        int status = ex.status();
        boolean head = ex.methodEnum() == Method.HEAD;
        InputStream stream = ex.responseStream();
        String text = ex.responseText();
        byte[] bytes = text == null ? ex.responseBody() : null;
        ByteBuffer shared = ex.responseBuffer();
        long length;
        if (ResponseEncoder.bodyless(status)) {
            Exchange.closeQuietly(stream);
            stream = null;
            length = -1;
        } else if (stream != null) {
            // a sized body (a file, a HEAD's stand-in) says its length, as over HTTP/1.1
            length = stream instanceof SizedBody sized && sized.length() >= 0 ? sized.length() : -1;
            if (head) {
                Exchange.closeQuietly(stream);
                stream = null;
            }
        } else {
            length = shared != null ? shared.remaining() : text != null ? text.length() : bytes.length;
        }
        // trailers follow content, even empty content: not a HEAD's answer, nor a status without content
        java.util.function.Supplier<java.util.Map<String, String>> trailers =
                head || ResponseEncoder.bodyless(status) ? null : ex.responseTrailers();
        encoder.begin();
        encoder.status(status);
        if (ex.responseContentType() != null && !ResponseEncoder.bodyless(status)) {
            encoder.field("content-type", ex.responseContentType());
        }
        if (length >= 0 && trailers == null) {
            // with trailers, no length: a client may take the body for done at its length, before them
            encoder.field(CONTENT_LENGTH, length);
        }
        date();
        List<String> headers = ex.responseHeaders();
        for (int i = 0, n = headers.size(); i < n; i += 2) {
            String name = headers.get(i);
            if (!connectionSpecific(name)) {
                encoder.field(name, headers.get(i + 1));
            }
        }
        if (encoder.tooLarge()) {
            encoder.abandon();
            Exchange.closeQuietly(stream);
            return false;
        }
        boolean hasBody = !head && (stream != null || length > 0);
        s.trailers = trailers;
        s.status = status;
        s.bodyBytes = stream != null ? -1 : head ? 0 : Math.max(0, length);
        recorder.responded(StreamRecorder.ANSWERED, status, s, ex, null, s.bodyBytes);
        ex.release();
        if (hasBody && stream == null && fitsAtOnce(s, length)) {
            // the common small answer: its one DATA frame right behind its head, copied, no queue
            sendHead(s, true);
            boolean end = s.trailers == null;
            if (text != null) {
                frames.dataAscii(s.id, text, end);
            } else {
                ByteBuffer src = shared != null ? shared.duplicate() : ByteBuffer.wrap(bytes);
                frames.dataCopy(s.id, src, (int) length, end);
            }
            s.sendWindow -= length;
            connWindow -= length;
            if (end) {
                conn.sent(s);
            } else {
                endWithTrailers(s);
            }
            return true;
        }
        if (!hasBody && s.trailers != null) {
            sendHead(s, true); // no DATA: the trailers' HEADERS end the stream
            endWithTrailers(s);
            return true;
        }
        sendHead(s, hasBody);
        if (!hasBody) {
            return true;
        }
        if (stream != null) {
            if (stream instanceof dev.brisk.internal.web.DrainableBody d && (conn.draining() || conn.inputEnded())) {
                d.drain(); // begun after the drain (or the client's end) looked at the streams: it ends after what it sent
            }
            s.source = stream;
            s.sourceLength = length;
        } else {
            s.out = shared != null ? shared.duplicate()
                    : ByteBuffer.wrap(text != null ? text.getBytes(StandardCharsets.ISO_8859_1) : bytes);
            s.bodyComplete = true;
        }
        schedule(s);
        return true;
    }

    /**
     * The engine's own short answer on {@code s}, before or instead of its handler (431, 413, 408,
     * 500, 501, 503): plain text, or JSON when the request's head was decoded and its {@code Accept}
     * prefers it; recorded as {@code kind}, with the CORS fields of the request's route.
     */
    void refusal(Http2Stream s, int kind, int status, String message) {
        boolean json = s.exchange != null && ErrorBodies.jsonFor(s.exchange);
        byte[] body = json ? ErrorBodies.json(status, message)
                : (message + "\n").getBytes(StandardCharsets.UTF_8);
        String id = echoIds ? (s.exchange != null ? s.exchange.requestId() : RequestIds.generate()) : null;
        encoder.begin();
        encoder.status(status);
        encoder.field("content-type", json ? ErrorBodies.JSON : "text/plain; charset=utf-8");
        encoder.field("content-length", Integer.toString(body.length));
        date();
        if (kind == StreamRecorder.SHED) {
            encoder.field(RETRY_AFTER.get(0), RETRY_AFTER.get(1));
        }
        if (id != null) {
            encoder.field(RequestIds.HEADER, id);
        }
        if (s.exchange != null) {
            List<String> cors = s.exchange.refusalHeaders(); // so a page can read the refusal
            for (int i = 0; i < cors.size(); i += 2) {
                encoder.field(cors.get(i).toLowerCase(java.util.Locale.ROOT), cors.get(i + 1));
            }
        }
        s.status = status;
        s.bodyBytes = s.head ? 0 : body.length;
        recorder.responded(kind, status, s, s.exchange, id, s.bodyBytes);
        if (s.exchange != null) {
            s.exchange.release();
        }
        if (s.head) {
            sendHead(s, false); // a HEAD's answer: the length a GET would get, no DATA (RFC 9110 9.3.2)
            return;
        }
        sendHead(s, true);
        s.out = ByteBuffer.wrap(body);
        s.bodyComplete = true;
        schedule(s);
    }

    /** Whether a body of {@code length} bytes goes out at once in one copied frame: small, and the windows allow it. */
    private boolean fitsAtOnce(Http2Stream s, long length) {
        return length <= COPY_BELOW && length <= s.sendWindow && length <= connWindow && length <= frames.peerMaxFrame();
    }

    /** {@code 100 Continue}: an interim HEADERS frame for a client that waits for it before its body (8.1). */
    void interim100(Http2Stream s) {
        encoder.begin();
        encoder.status(100);
        frames.headers(s.id, encoder.bytes(), encoder.length(), false);
    }

    private void sendHead(Http2Stream s, boolean hasBody) {
        s.responded = true;
        frames.headers(s.id, encoder.bytes(), encoder.length(), !hasBody);
        if (!hasBody) {
            conn.sent(s);
        }
    }

    private void date() {
        byte[] b = HttpDate.now().bytes(); // "Date: <value>\r\n"
        encoder.field(33, b, 6, b.length - 8);
    }

    /**
     * Fields HTTP/2 forbids in a response (8.2.2: the connection-specific ones, and {@code TE}, which only a
     * request may carry); a handler may have set some of them.
     */
    private static boolean connectionSpecific(String name) {
        return switch (name.length()) {
            case 2 -> name.equalsIgnoreCase("te");
            case 7 -> name.equalsIgnoreCase("upgrade");
            case 10 -> name.equalsIgnoreCase("keep-alive") || name.equalsIgnoreCase("connection");
            case 16 -> name.equalsIgnoreCase("proxy-connection");
            case 17 -> name.equalsIgnoreCase("transfer-encoding");
            default -> false;
        };
    }

    // ---- DATA ---------------------------------------------------------------------------------

    /** Makes DATA frames for the ready streams while the windows and the high-water mark allow. */
    void sendData(long now) {
        while (!ready.isEmpty() && out.pending() < HIGH_WATER) {
            Http2Stream s = ready.peekFirst();
            if (s.closed || !s.hasOutput()) {
                dequeue();
                continue;
            }
            ByteBuffer piece = s.out;
            if ((piece == null || !piece.hasRemaining()) && !s.bodyComplete) {
                if (!nextPiece(s)) {
                    dequeue(); // the pump hands the next piece over later, and schedules the stream
                    continue;
                }
                piece = s.out;
            }
            int remaining = piece == null ? 0 : piece.remaining();
            if (remaining == 0) {
                // the body ended: END_STREAM on an empty frame, which no window limits (or on the trailers)
                dequeue();
                if (s.trailers != null) {
                    endWithTrailers(s);
                } else {
                    frames.dataCopy(s.id, ByteBuffer.allocate(0), 0, true);
                    conn.sent(s);
                }
                continue;
            }
            if (connWindow <= 0) {
                if (connBlockedSince == 0) {
                    connBlockedSince = now;
                }
                return; // every stream waits for the connection's window
            }
            if (s.sendWindow <= 0) {
                dequeue();
                if (s.blockedSince == 0) {
                    s.blockedSince = now;
                    waits(s, now);
                }
                continue;
            }
            boolean copy = s.source != null || remaining <= COPY_BELOW;
            int n = (int) Math.min(Math.min(remaining, s.sendWindow), Math.min(connWindow, frames.peerMaxFrame()));
            if (copy) {
                n = Math.min(n, out.maxInline());
            }
            boolean last = n == remaining && s.bodyComplete;
            boolean end = last && s.trailers == null;
            if (copy) {
                frames.dataCopy(s.id, piece, n, end);
            } else {
                frames.dataView(s.id, piece, n, end);
            }
            s.sendWindow -= n;
            connWindow -= n;
            s.blockedSince = 0;
            if (s.sendRate != null) {
                s.sendRate.add(n, now);
                s.sendRate.pause(now); // sending: not waiting on the client until its window shuts again
            }
            dequeue();
            if (last) {
                s.out = null;
                if (end) {
                    conn.sent(s);
                } else {
                    endWithTrailers(s);
                }
                continue;
            }
            if (!piece.hasRemaining() && s.pump != null) {
                s.out = null;
                s.pump.next(); // the piece is copied: its array may be read into again
            }
            schedule(s); // behind the others: one frame per turn
        }
    }

    /**
     * Ends {@code s}'s answer, its body sent, with its trailer fields: a {@code HEADERS} frame with
     * END_STREAM (no window limits it), or an empty {@code DATA} frame when there are none. Fields that
     * fail (the supplier threw, a field that may not be a trailer, a block too large) reset the stream,
     * as a failing body does.
     */
    private void endWithTrailers(Http2Stream s) {
        java.util.function.Supplier<java.util.Map<String, String>> t = s.trailers;
        s.trailers = null;
        List<String> fields;
        try {
            fields = TrailerFields.make(t);
        } catch (Throwable e) { // the app's code, on the loop: whatever it throws ends this stream only
            LOG.log(System.Logger.Level.ERROR, "a response's trailer fields failed: the stream is reset", e);
            conn.bodyFailed(s);
            return;
        }
        if (fields.isEmpty()) {
            frames.dataCopy(s.id, ByteBuffer.allocate(0), 0, true);
            conn.sent(s);
            return;
        }
        encoder.begin();
        for (int i = 0; i < fields.size(); i += 2) {
            encoder.field(fields.get(i), fields.get(i + 1));
        }
        if (encoder.tooLarge()) {
            encoder.abandon();
            LOG.log(System.Logger.Level.ERROR, "a response's trailer fields are too large to send: the stream is reset");
            conn.bodyFailed(s);
            return;
        }
        frames.headers(s.id, encoder.bytes(), encoder.length(), true);
        conn.sent(s);
    }

    private void dequeue() {
        ready.pollFirst().queued = false;
    }

    /** The next piece of {@code s}'s body stream into {@code s.out}; false when it comes later (a pump). */
    private boolean nextPiece(Http2Stream s) {
        if (!blocking || !(s.source instanceof SizedBody)) {
            // a stream that may wait for its producer (events, a handler's own stream) is never read on a
            // blocking engine's connection thread: that thread reads every stream's frames and PINGs
            if (s.pump == null) {
                if (blocking) {
                    conn.pumpsOnThisThread();
                }
                s.pump = new BodyPump(conn, s, s.source, out.maxInline());
                s.pump.start(conn.streamsExecutor());
            }
            return false;
        }
        // the blocking engine, a sized body (a file, a slice of one): its reads do not wait for a producer
        byte[] buf = s.out != null && s.out.hasArray() && s.out.capacity() == out.maxInline()
                ? s.out.array() : new byte[out.maxInline()];
        try {
            int n = s.source.read(buf, 0, buf.length);
            if (!counted(s, n)) {
                conn.bodyFailed(s);
                return false;
            }
            if (n < 0) {
                Exchange.closeQuietly(s.source);
                s.source = null;
                s.out = null;
                s.bodyComplete = true;
            } else {
                s.out = ByteBuffer.wrap(buf, 0, n);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            conn.bodyFailed(s);
            return false;
        }
    }

    /** A piece from the pump of {@code s} ({@link BodyPump#END} at the end, {@link BodyPump#FAILED}). */
    void pumped(Http2Stream s, byte[] buf, int n) {
        if (s.closed) {
            return;
        }
        if (n == BodyPump.FAILED || !counted(s, n)) {
            conn.bodyFailed(s);
            return;
        }
        if (n == BodyPump.END) {
            s.pump = null;
            s.source = null; // closed by the pump
            s.out = null;
            s.bodyComplete = true;
        } else {
            s.out = ByteBuffer.wrap(buf, 0, n);
        }
        schedule(s);
    }

    /**
     * Counts a piece of {@code s}'s body stream ({@code n} bytes, or below 0 at its end): false when a
     * sized body gave more or fewer bytes than the {@code content-length} said (a file that changed
     * while sent): the stream is reset rather than ended short.
     */
    private static boolean counted(Http2Stream s, int n) {
        if (s.sourceLength < 0) {
            return true;
        }
        if (n >= 0) {
            s.sourceRead += n;
            return s.sourceRead <= s.sourceLength;
        }
        return s.sourceRead == s.sourceLength;
    }

    /** The stream is gone: its body stream stops. */
    void release(Http2Stream s) {
        s.out = null;
        s.trailers = null;
        if (s.pump != null) {
            s.pump.cancel(); // it closes the source itself
            s.pump = null;
        } else if (s.source != null) {
            Exchange.closeQuietly(s.source);
        }
        s.source = null;
    }
}
