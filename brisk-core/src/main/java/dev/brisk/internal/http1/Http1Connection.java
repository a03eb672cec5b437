package dev.brisk.internal.http1;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.Method;
import dev.brisk.ServerOptions;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.MethodNames;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.RequestIds;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * HTTP/1.1 on one {@link Wire}: parses requests, turns each into an {@link Exchange} for the app, and
 * writes the answers in order. The state machine is this class; each concern around it is a
 * collaborator: {@link InboundBytes} (bytes not consumed yet), {@link BodyReader}, {@link DeferredBody}
 * (100-continue), {@link AdmissionGate} (the in-flight limit), {@link ResponseWriter} (framing),
 * {@link Output} (writes and the {@link PipelineBatch}), {@link ErrorAnswers} (shed and refused),
 * {@link Recorder} (metrics and access log), {@link Deadlines} and {@link Linger}.
 *
 * <pre>
 *   (accept)
 *      │            head whole, admitted, no body (or Expect: 100-continue)
 *      ▼          ┌──────────────────────────────────────────────────────────────┐
 *   READ_HEAD ────┤ head whole, admitted, body follows          body whole         ▼
 *    ▲  │  │      └────────────────────────▶ READ_BODY ─────────────────────▶ HANDLING ◀── fast-static,
 *    │  │  │ head whole, no slot free          ▲   └─ body(): 100 Continue ────┘  ▲  │      shed, refused
 *    │  │  └────────────────▶ QUEUED ──granted─┘ (or to HANDLING as above)        │  │
 *    │  │                       └── queue timeout: 503 ─────────────────────────────┘  │
 *    │  │ bad request / timeout: refused (to HANDLING, closing after)                  │
 *    │  └─────────────────────────────────────────────────────────────────────────────┤
 *    └──────────────── response written, keep-alive ──────────────────────────────────┘
 *                      response written, closing: LINGER (output shut, input drained ≤ 2 s) ──▶ CLOSED
 *   any state ──▶ CLOSED on end of stream (after answering what is complete), I/O error, close()
 * </pre>
 *
 * <p>Threads: every method runs on the wire's loop thread, except the {@link ExchangeOwner} methods,
 * which any thread may call and which hop to the loop.
 *
 * <p>Backpressure: one request is handled at a time; while it is, bytes of later (pipelined) requests
 * are only buffered, and reading stops when the buffer is full.
 *
 * <p>Pipelining: a response answered at once while the next request's bytes are already buffered
 * joins the {@link PipelineBatch} instead of being written, and the next request is parsed; the batch
 * goes out with the first response that cannot join it, or when the buffered requests run out.
 */
final class Http1Connection implements Protocol, ExchangeOwner {
    private static final int READ_HEAD = 0;
    private static final int READ_BODY = 1;
    private static final int HANDLING = 2;
    private static final int LINGER = 3;
    private static final int CLOSED = 4;
    /** Head parsed, waiting in the admission queue for an in-flight slot; not reading. */
    private static final int QUEUED = 5;
    private static final byte[] ROOT = {'/'};
    private static final ByteBuffer LAST_CHUNK = ByteBuffer.wrap(
            "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    private final Wire wire;
    private final Http1Shared shared;
    private final ServerOptions opts;
    private final App app;
    private final RequestParser parser;
    private final FastRoutes fast;
    private final boolean echoIds;
    private final InboundBytes input;
    private final Deadlines deadlines;
    private final BodyReader bodyReader;
    private final DeferredBody deferred = new DeferredBody();
    private final AdmissionGate gate;
    private final ResponseWriter writer;
    private final Output output;
    private final Recorder recorder;
    private Linger linger;

    private int state = READ_HEAD;
    private int served;
    private boolean closeAfter;
    private boolean inputClosed;
    private boolean advancing;
    private Exchange exchange;
    private volatile boolean closed;
    private StreamPump pump;
    private CompletableFuture<Void> writeWaiter;
    // allocated once: a method reference per response would cost an object per request
    private final Runnable responseWritten = this::onResponseWritten;
    private final Runnable batchWritten = this::onBatchWritten;

    Http1Connection(Wire wire, Http1Shared shared) {
        this.wire = wire;
        this.shared = shared;
        this.opts = shared.options;
        this.app = shared.app;
        this.parser = shared.newParser();
        this.fast = app.fastRoutes();
        this.echoIds = opts.requestIds();
        this.input = new InboundBytes(wire.inPool(), opts.maxRequestLine() + opts.maxHeaderSize() + 1024);
        this.deadlines = new Deadlines(wire, opts);
        this.bodyReader = new BodyReader(opts);
        this.gate = new AdmissionGate(shared.admission);
        this.writer = new ResponseWriter(wire.outPool());
        this.output = new Output(wire, this, opts.writeTimeout().toNanos(), responseWritten, batchWritten);
        this.recorder = new Recorder(wire, shared.accessLog, input, parser);
    }

    // ---- input ------------------------------------------------------------------------------

    @Override
    public void onReadable() {
        if (state == CLOSED) {
            return;
        }
        if (state == LINGER) {
            drainLinger();
            return;
        }
        input.hold();
        if (!input.buf.hasRemaining()) {
            input.makeRoom(state == READ_HEAD);
            if (!input.buf.hasRemaining()) {
                wire.readInterest(false); // full while a request is handled: read on once it is answered
                return;
            }
        }
        int n;
        try {
            n = wire.read(input.buf);
        } catch (IOException e) {
            close();
            return;
        }
        if (n < 0) {
            onEof();
        } else if (n > 0) {
            wire.counters().bytesIn(n);
            if (state == READ_BODY) {
                deadlines.bodyRead();
            }
            if (state == READ_HEAD || state == READ_BODY) {
                advance();
            }
        }
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (n < 0) {
            onEof();
            return;
        }
        input.put(src, n);
        wire.counters().bytesIn(n);
        advance();
    }

    private void onEof() {
        inputClosed = true;
        switch (state) {
            case HANDLING -> {
                if (pump != null) {
                    close(); // nobody will read the rest of the stream: stop it now
                    return;
                }
                // answer this request and any complete pipelined ones already buffered, then close
                wire.readInterest(false);
            }
            case READ_HEAD -> {
                if (output.writing()) {
                    wire.readInterest(false); // a batch is still being written: it closes after
                } else {
                    close();
                }
            }
            default -> close();
        }
    }

    /** Parses and serves whatever is buffered, as far as it goes. Re-entrant calls return at once. */
    private void advance() {
        if (advancing) {
            return;
        }
        advancing = true;
        try {
            boolean progress = true;
            while (progress) {
                progress = state == READ_HEAD ? stepHead() : state == READ_BODY && stepBody();
            }
        } finally {
            advancing = false;
        }
        if (output.batchHolds()) {
            output.flushBatch(); // the buffered requests ran out (or the next one waits for its handler)
        } else if (inputClosed && state == READ_HEAD && !output.writing()) {
            close(); // the client half-closed: every complete request is answered, no more can come
        }
    }

    /** Whether a response ready now may wait in the batch: more requests are buffered behind it. */
    boolean mayBatch() {
        // not on a blocking loop: its next handler may block, and would hold back the batched answers
        return advancing && !closeAfter && !wire.blocking() && input.hasUnread();
    }

    private void onBatchWritten() {
        if (inputClosed && state == READ_HEAD) {
            close();
        }
    }

    private boolean stepHead() {
        if (input.buf == null) {
            return false;
        }
        int end = input.buf.position();
        if (end == input.start) {
            input.release(); // all consumed: an idle connection holds no buffer
            return false;
        }
        deadlines.headBytes();
        boolean done;
        try {
            done = parser.parse(input.buf.array(), input.start, end);
        } catch (HttpParseException e) {
            refuse(e.status(), e.getMessage());
            return false;
        }
        if (done) {
            onHead();
        }
        return done;
    }

    private void onHead() {
        byte[] a = input.buf.array();
        int start = input.start;
        int headLen = parser.headEnd();
        input.start = start + headLen;
        served++;
        recorder.headParsed();
        closeAfter = !parser.keepAlive() || shared.draining()
                || (opts.maxRequestsPerConnection() != 0 && served >= opts.maxRequestsPerConnection());
        boolean http11 = parser.version() == RequestParser.HTTP_1_1;
        if (!parser.hasBody() && !fast.isEmpty() && answerFast(a, start, http11)) {
            return;
        }
        String method = MethodNames.of(a, start + parser.methodStart(), start + parser.methodEnd());
        boolean hasBody = parser.hasBody();
        deferred.reset(hasBody && parser.expectContinue());
        // borrows the input buffer and the parser's offsets (relative to the request start) for routing
        exchange = new Exchange(this, a, start, headLen, parser.fields(), parser.fieldCount(), method,
                Method.of(method), parser.pathStart(), parser.pathEnd(), parser.targetEnd(), http11, null,
                deferred.pending());
        gate.newRequest();
        app.route(exchange);
        if (hasBody || !(wire.blocking() || exchange.runsOnCallingThread())) {
            // it outlives this call: reading its body, or on another thread, the buffer moves on
            exchange.own();
        }
        if (shared.admission != null && !exchange.neverShed() && !admit()) {
            return; // queued (reading paused) or shed with 503
        }
        proceed();
    }

    /** A body-less GET or HEAD of a fast-static route: answered from its prebuilt bytes. */
    private boolean answerFast(byte[] a, int start, boolean http11) {
        int ms = start + parser.methodStart();
        int me = start + parser.methodEnd();
        boolean get = me - ms == 3 && a[ms] == 'G' && a[ms + 1] == 'E' && a[ms + 2] == 'T';
        boolean head = !get && me - ms == 4 && a[ms] == 'H' && a[ms + 1] == 'E' && a[ms + 2] == 'A' && a[ms + 3] == 'D';
        if (!get && !head) {
            return false;
        }
        FastRoutes.Entry e = parser.pathEnd() > parser.pathStart()
                ? fast.find(a, start + parser.pathStart(), start + parser.pathEnd())
                : fast.find(ROOT, 0, 1); // absolute-form without a path means "/"
        if (e == null) {
            return false;
        }
        handling();
        int conn = closeAfter ? FastRoutes.CLOSE : http11 ? FastRoutes.KEEP_ALIVE : FastRoutes.KEEP_ALIVE_1_0;
        String id = echoIds ? RequestIds.incomingOrNew(a, start, parser.fields(), parser.fieldCount()) : null;
        recorder.responded(Recorder.FAST, e.status(), null, e, id, e.bodyLength(head));
        sendStatic(id == null ? e.bytes(head, conn) : e.bytesWith(head, conn, RequestIds.HEADER, id));
        return true;
    }

    private void sendStatic(byte[] bytes) {
        ByteBuffer out = wire.outPool().acquire();
        if (bytes.length <= out.capacity()) {
            output.send(out.put(bytes).flip(), null, responseWritten);
        } else {
            wire.outPool().release(out);
            output.send(ByteBuffer.wrap(bytes), null, responseWritten);
        }
    }

    /** A slot now (true), or queued / shed (false): before the body is read or any handler runs. */
    private boolean admit() {
        if (gate.tryAcquire()) {
            return true;
        }
        exchange.own(); // may wait in the queue: the head must not depend on the buffer meanwhile
        if (gate.enqueue(() -> wire.execute(this::granted))) {
            state = QUEUED;
            deadlines.queued();
            wire.readInterest(false);
            return false;
        }
        shed(ServerStats.ShedReason.CONCURRENCY_LIMIT);
        return false;
    }

    /** The queue passed a slot to this connection (on its loop). */
    private void granted() {
        gate.granted();
        if (state != QUEUED) {
            gate.release(); // closed while the grant was on its way: pass it on
            return;
        }
        proceed();
        if (state == READ_BODY) {
            advance(); // body bytes may already be buffered
        }
    }

    /** Reads the body if there is one (and it is not deferred), else hands the request to its handler. */
    private void proceed() {
        if (parser.hasBody() && !deferred.pending()) {
            beginBody();
            return;
        }
        handling();
        gate.dispatched();
        dispatch();
    }

    /** Runs the routed exchange: right here on a blocking loop, else on its route's dispatch. */
    private void dispatch() {
        if (wire.blocking()) {
            app.runInline(exchange);
        } else {
            app.dispatch(exchange);
        }
    }

    private void handling() {
        state = HANDLING;
        deadlines.none();
    }

    private void beginBody() {
        state = READ_BODY;
        if (!inputClosed) {
            wire.readInterest(true); // may be off: the buffer filled while waiting
        }
        deadlines.bodyRead();
        bodyReader.begin(parser);
    }

    private boolean stepBody() {
        int end = input.buf == null ? input.start : input.buf.position();
        try {
            input.start = bodyReader.read(input.buf == null ? null : input.buf.array(), input.start, end);
        } catch (HttpParseException e) {
            bodyFailed(e);
            return false;
        }
        if (!bodyReader.done()) {
            return false;
        }
        bodyDone(bodyReader.take());
        return true;
    }

    private void bodyDone(byte[] body) {
        handling();
        gate.dispatched();
        if (deferred.pending()) {
            deferred.delivered(body);
        } else {
            exchange.setBody(body);
            dispatch();
        }
    }

    private void bodyFailed(HttpParseException e) {
        if (deferred.pending()) {
            handling();
            closeAfter = true;
            bodyReader.abort();
            wire.readInterest(false);
            deferred.failed(e.status(), e.getMessage());
        } else {
            refuse(e.status(), e.getMessage());
        }
    }

    /** Refuses a request before its handler with 503 + Retry-After; an unread body means closing after. */
    private void shed(ServerStats.ShedReason reason) {
        wire.counters().shed(reason);
        String id = echoIds ? exchange.requestId() : null;
        recorder.responded(Recorder.SHED, 503, exchange, null, id, ErrorAnswers.SHED_BODY.length);
        handling();
        exchange = null;
        if (parser.hasBody()) {
            closeAfter = true; // its body is not read: it must not be taken for the next request
        }
        wire.readInterest(false);
        int conn = closeAfter ? ResponseEncoder.CONNECTION_CLOSE
                : parser.version() == RequestParser.HTTP_1_1 ? ResponseEncoder.KEEP_ALIVE : ResponseEncoder.KEEP_ALIVE_1_0;
        output.send(ErrorAnswers.shed(wire.outPool(), id, conn), null, responseWritten);
    }

    /** Answers a request that cannot be served and closes after: no later byte is read as a request. */
    private void refuse(int status, String message) {
        gate.releaseUndispatched();
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        // no exchange when the head was not whole: then there is no incoming id to keep
        String id = !echoIds ? null : exchange != null ? exchange.requestId() : RequestIds.generate();
        recorder.responded(Recorder.REFUSED, status, exchange, null, id, body.length);
        handling();
        exchange = null;
        closeAfter = true;
        bodyReader.abort();
        wire.readInterest(false);
        output.send(ErrorAnswers.refusal(wire.outPool(), status, body, id), null, responseWritten);
    }

    // ---- ExchangeOwner (any thread) ---------------------------------------------------------

    @Override
    public byte[] awaitDeferredBody(Exchange ex) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        if (wire.inLoop()) {
            // a handler running on a blocking loop: this thread must read the body itself
            boolean outer = advancing;
            advancing = false; // the request head's advance() is below us on the stack; body bytes may be buffered
            try {
                requestBody(f, ex);
                wire.runUntil(f);
            } finally {
                advancing = outer;
            }
        } else {
            wire.execute(() -> requestBody(f, ex));
        }
        try {
            return await(f); // the body-read timeout, a failure or a close always completes f
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new UncheckedIOException(new IOException("request body failed", e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while waiting for the request body"));
        }
    }

    /** Waits for a future the loop completes; gives up only if the connection is gone. */
    <T> T await(CompletableFuture<T> f) throws ExecutionException, InterruptedException {
        while (true) {
            try {
                return f.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                if (closed) {
                    throw new ExecutionException(new ClientDisconnectedException("connection closed"));
                }
            }
        }
    }

    private void requestBody(CompletableFuture<byte[]> f, Exchange ex) {
        if (state != HANDLING || !deferred.pending() || ex != exchange) {
            f.completeExceptionally(new ClientDisconnectedException("connection closed"));
            return;
        }
        deferred.requested(f);
        output.send(DeferredBody.continueAnswer(), null, () -> {
            deferred.continued();
            beginBody();
            advance();
        });
    }

    @Override
    public void complete(Exchange ex) {
        gate.release();
        if (wire.inLoop()) {
            writeResponseSafely(ex);
        } else {
            wire.execute(() -> writeResponseSafely(ex));
        }
    }

    @Override
    public String remoteAddress() {
        return wire.remoteAddress();
    }

    private void writeResponseSafely(Exchange ex) {
        try {
            writeResponse(ex);
        } catch (RuntimeException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "writing a response failed", e);
            if (state != CLOSED && !output.writing() && ex == exchange) {
                refuse(500, "Internal Server Error");
            } else {
                close();
            }
        }
    }

    // ---- output -----------------------------------------------------------------------------

    private void writeResponse(Exchange ex) {
        if (state == CLOSED || ex != exchange) {
            Exchange.closeQuietly(ex.responseStream());
            return;
        }
        if (shared.draining() || ex.deferredBodyUnread()) {
            // shutting down (its last response), or the client may still send a body nobody asked for
            closeAfter = true;
        }
        if (deferred.continuing()) {
            // "100 Continue" is still being written and the handler gave up on its body: answer next
            closeAfter = true;
            output.whenWritten(() -> writeResponseSafely(ex));
            return;
        }
        if (echoIds) {
            ex.echoRequestId();
        }
        if (!writer.frame(ex, closeAfter)) {
            refuse(500, "Response headers too large");
            return;
        }
        closeAfter = writer.closeAfter;
        recorder.responded(Recorder.ANSWERED, writer.status, ex, null, null, writer.bodyBytes);
        // the request is over: a borrowed head goes back before the buffer can move on (send may go on
        // to the next pipelined request)
        ex.release();
        ByteBuffer head = writer.head;
        ByteBuffer body = writer.body;
        InputStream stream = writer.stream;
        boolean chunked = writer.chunked;
        writer.clear();
        if (stream != null) {
            output.send(head, body, () -> {
                pump = new StreamPump(this, stream, chunked);
                shared.streams().execute(pump);
            });
        } else {
            output.send(head, body, responseWritten);
        }
    }

    @Override
    public void onWritable() {
        output.onWritable();
    }

    /** Called by a {@link StreamPump} (any thread): writes one framed piece of a streamed body. */
    CompletableFuture<Void> writeChunk(ByteBuffer data) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        wire.execute(() -> {
            if (state == CLOSED) {
                f.completeExceptionally(new IOException("connection closed"));
                return;
            }
            writeWaiter = f;
            output.send(data, null, () -> {
                writeWaiter = null;
                f.complete(null);
            });
        });
        return f;
    }

    /** Called by a {@link StreamPump} when the stream ended ({@code ok}) or failed. Any thread. */
    void endStream(boolean chunked, boolean ok) {
        wire.execute(() -> {
            pump = null;
            if (state == CLOSED) {
                return;
            }
            if (!ok || !chunked) {
                // a failed stream cannot be reported in-band; closing tells the client it is incomplete
                closeAfter = true;
                onResponseWritten();
            } else {
                output.send(LAST_CHUNK.duplicate(), null, responseWritten);
            }
        });
    }

    private void onResponseWritten() {
        exchange = null;
        deferred.reset(false);
        if (closeAfter) {
            if (inputClosed) {
                close();
            } else {
                // closing with unread input would reset the connection and could cut off the answer
                startLinger();
            }
            return;
        }
        parser.reset();
        state = READ_HEAD;
        deadlines.idle();
        if (!inputClosed) {
            wire.readInterest(true);
        }
        advance();
    }

    // ---- what a transport asks ---------------------------------------------------------------

    @Override
    public boolean idle() {
        return state == READ_HEAD && !parser.started() && !input.hasUnread() && !output.writing();
    }

    @Override
    public boolean holdsInput() {
        return input.buf != null;
    }

    @Override
    public boolean awaitsTask() {
        return state == HANDLING || state == QUEUED;
    }

    @Override
    public boolean isClosed() {
        return state == CLOSED;
    }

    // ---- timeouts and closing ----------------------------------------------------------------

    @Override
    public void onTimer(long now) {
        if (state == CLOSED) {
            return;
        }
        if (output.writing()) {
            if (output.stalled(now)) {
                wire.counters().timedOut();
                close();
            }
            return;
        }
        if (!deadlines.passed(now)) {
            return;
        }
        switch (state) {
            case READ_HEAD -> {
                boolean partial = parser.started() || input.hasUnread();
                wire.counters().timedOut();
                if (partial) {
                    refuse(408, "Request header read timeout");
                } else {
                    close();
                }
            }
            case QUEUED -> {
                if (gate.abandon()) {
                    shed(ServerStats.ShedReason.QUEUE_TIMEOUT);
                }
            }
            case READ_BODY -> {
                wire.counters().timedOut();
                bodyFailed(new HttpParseException(408, "Request body read timeout"));
            }
            case LINGER -> close();
            default -> {
                // HANDLING: the handler's time is not limited here
            }
        }
    }

    private void startLinger() {
        try {
            wire.shutdownOutput();
        } catch (IOException e) {
            close();
            return;
        }
        state = LINGER;
        linger = new Linger();
        shared.lingerStarted();
        deadlines.linger(Linger.NANOS);
        wire.writeInterest(false);
        wire.readInterest(true);
        drainLinger();
    }

    private void drainLinger() {
        input.hold();
        if (linger.drain(wire, input.buf)) {
            close();
        }
    }

    /** Graceful shutdown: close now if idle, else after the current response. */
    @Override
    public void drain() {
        if (idle()) {
            close();
        } else {
            closeAfter = true;
        }
    }

    @Override
    public void close() {
        if (state == CLOSED) {
            return;
        }
        if (state == LINGER) {
            shared.lingerEnded();
        }
        boolean wasQueued = state == QUEUED;
        state = CLOSED;
        closed = true;
        gate.close(wasQueued);
        input.release();
        output.close();
        bodyReader.abort();
        deferred.closed();
        CompletableFuture<Void> ww = writeWaiter;
        writeWaiter = null;
        if (ww != null) {
            ww.completeExceptionally(new IOException("connection closed"));
        }
        StreamPump p = pump;
        pump = null;
        if (p != null) {
            p.cancel();
        }
        wire.close();
    }
}
