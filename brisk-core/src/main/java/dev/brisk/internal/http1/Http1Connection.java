package dev.brisk.internal.http1;

import dev.brisk.HttpException;
import dev.brisk.ServerOptions;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.transport.Protocol;
import dev.brisk.internal.transport.Upgrade;
import dev.brisk.internal.transport.Wire;
import dev.brisk.internal.web.App;
import dev.brisk.internal.web.BodyUnavailableException;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/1.1 on one {@link Wire}: the protocol's state machine. It turns each request into an
 * {@link Exchange} for the {@link App} and writes the answers in order; each concern around the
 * states is a collaborator: {@link RequestReader} (bytes, heads, bodies), {@link FastAnswers},
 * {@link AdmissionGate} (the in-flight limit), {@link Http1Channel} (the exchange's owner: dispatch,
 * response) with its {@link BodyDelivery} (100-continue, streamed bodies), {@link Output} (writes and
 * the {@link PipelineBatch}), {@link ErrorAnswers} (shed and refused), {@link Recorder} (metrics and the access log), {@link PipelineRuns} (pipelined requests run ahead) and {@link Deadlines}. A connection
 * that closes while its client may still send hands the wire to {@link LingeringClose}; an
 * {@link Upgrade} takes it the same way.
 *
 * <pre>
 *   (accept)
 *      ▼        head whole: fast-static, or admitted with no body (or a deferred one, Expect: 100-continue)
 *   READ_HEAD ──────────────────────────────────────────────────────────────────────────────▶ HANDLING
 *    ▲  │  │                                                                                  ▲  │  ▲
 *    │  │  │ head whole: a buffered body follows           body whole (a buffered one         │  │  │
 *    │  │  │ (no slot yet), or a streamed one, admitted    with its slot taken)               │  │  │
 *    │  │  ├──────────────────────────────────▶ READ_BODY ────────────────────────────────────┤  │  │
 *    │  │  │                                    ▲  │  ▲ handler asked for its deferred body:  │  │  │
 *    │  │  │                                    │  │  └─ "100 Continue" written ◀─────────────│──┘  │
 *    │  │  │            granted, streamed body  │  │ buffered body whole, no slot free        │     │
 *    │  │  │ no slot free                       │  ▼                                          │     │
 *    │  │  └──────────────────────────────────▶ QUEUED ──granted: its body read, or none ─────┤     │
 *    │  │                                         └──queue full or timed out: 503 (shed) ─────┘     │
 *    │  └─ bad request, timeout, body below min-body-rate, limit: refused (closing after) ──────────┘
 *    └──────────── response written, keep-alive ◀── HANDLING
 *                  response written, closing ──▶ (LingeringClose takes the wire; or, input ended, CLOSED)
 *                  response written, upgrade ──▶ (the Upgrade's protocol takes the wire)
 *   any ──▶ CLOSED: end of stream (after answering every complete request), I/O error, timeout, close()
 * </pre>
 *
 * <p>End of stream during a streamed answer (a {@code ResponseStream}, an event stream) closes at once,
 * dropping pipelined requests behind it: a client that ended its side is taken to have gone, as nginx
 * takes it by default, since such a stream may run for hours and a peer's FIN is the only early sign.
 *
 * <p>Admission (with {@code max-concurrent-requests}): a request without a body, or with a streamed or
 * deferred one, takes its slot when its head is whole; a buffered body is read first (under its budget
 * and {@code min-body-rate}), so a slow upload holds no slot, and takes one when it is whole. Shed then,
 * its body read, the connection stays open.
 *
 * <p>Bodies: entering READ_BODY first reserves what the body needs against the server's budgets (its
 * declared length of memory, or of spool disk past {@code body-spool-threshold}; a chunked body as it
 * grows); a budget that cannot take it answers 503 + Retry-After (shed, closing after) instead, the
 * route's limit 413. A route that streams its body enters READ_BODY with its handler already
 * dispatched (after "100 Continue" once the handler reads, if the client waits for it): reading pauses,
 * with no deadline, while the stream's window is full, and resumes when the handler has read; a response
 * before the body is whole leaves the rest unread (READ_BODY ──▶ HANDLING, closing after).
 *
 * <p>Threads: every method runs on the wire's loop thread, except {@link #gone} and {@link #execute}.
 *
 * <p>Backpressure: one request is handled at a time; while it is, bytes of later (pipelined) requests
 * are only buffered, and reading stops when the buffer is full. A response ready at once while the
 * next request is already buffered joins the {@link PipelineBatch} instead of being written.
 *
 * <p>Pipeline runs: on a loop, a request for a virtual-thread route with more requests buffered behind
 * it takes those that may run ahead of their turn (no body, no {@code Upgrade}, keep-alive, not
 * fast-static, no concurrency limit set) into a {@link PipelineRun} ({@link PipelineRuns}), up to 16, whose handlers go to the
 * connection's thread in one hand-off. HANDLING then lasts for the whole run: each member becomes the
 * current request in turn, its answer written when its handler has ended, and the answers of members
 * that ended together in one write. The first request that may not run ahead stays buffered and is
 * parsed in its turn.
 */
final class Http1Connection implements Protocol {
    private static final int READ_HEAD = 0;
    private static final int READ_BODY = 1;
    private static final int HANDLING = 2;
    private static final int CLOSED = 4;
    /** Head parsed, waiting in the admission queue for an in-flight slot; not reading. */
    private static final int QUEUED = 5;
    /** The most a connection no thread came free for may take to send its head (at most header-read-timeout). */
    private static final long BUSY_HEAD_NANOS = 1_000_000_000L;

    private final Wire wire;
    private final Http1Shared shared;
    private final ServerOptions opts;
    private final RequestParser parser;
    private final RequestReader reader;
    private final FastAnswers fast;
    private final Deadlines deadlines;
    private final AdmissionGate gate;
    private final Output output;
    private final Recorder recorder;
    private final ErrorAnswers errors;
    private final Http1Channel channel;
    private final boolean echoIds;
    /**
     * No thread came free for this connection ({@link Http1Shared#whenBusy}): it answers one request,
     * closing after, and runs a handler only for a route never shed; the rest are shed (thread-limit).
     */
    private final boolean busy;

    private int state = READ_HEAD;
    private int served;
    /** {@link #served} at the last scan ({@link #onTimer}): a connection that served none since is idle. */
    private int servedAtScan = -1;
    private boolean closeAfter;
    private boolean inputClosed;
    private boolean advancing;
    /** The drain found this connection idle and gave it {@code drain-grace} to receive a last request. */
    private boolean graceGiven;
    /**
     * Bytes received when this connection first saw the drain, -1 before: a request that began within
     * them was sent before its client could know of the drain, and is answered ({@link #lastBeforeDrain}).
     */
    private long drainMark = -1;
    /** The current request's body limit: its route's, or the server's. */
    private long bodyLimit;
    /**
     * The current request's buffered body is read before it asks for a slot: a client that trickles its
     * body then holds none (only body budget, bounded by {@code min-body-rate}).
     */
    private boolean admitAfterBody;
    /** A buffered body read whole, held (on the connection's hold) while its request waits in the queue. */
    private RequestBody waitingBody;
    /** Pipelined requests handed to the connection's thread together, while their answers are written. */
    private final PipelineRuns runs;
    /** For handler threads: the connection is gone (or handed over). */
    private volatile boolean closed;
    // allocated once: a method reference per response would cost an object per request
    private final Runnable responseWritten = this::onResponseWritten;
    private final Runnable batchWritten = this::onBatchWritten;
    private final Runnable grant = () -> execute(this::granted);

    Http1Connection(Wire wire, Http1Shared shared, boolean busy) {
        this.wire = wire;
        this.busy = busy;
        this.shared = shared;
        this.opts = shared.options;
        this.parser = shared.newParser();
        this.echoIds = opts.requestIds();
        this.deadlines = new Deadlines(wire, opts);
        if (busy) {
            // its request waited in the backlog: it is here, or the connection is not worth a place for long
            deadlines.atMost(BUSY_HEAD_NANOS);
        }
        InboundBytes input = new InboundBytes(wire.inPool(), opts.maxRequestLine() + opts.maxHeaderSize() + 1024);
        this.reader = new RequestReader(wire, input, parser, new BodyReader(opts, shared.bodies), deadlines);
        this.gate = new AdmissionGate(shared.admission);
        this.output = new Output(wire, this, opts.writeTimeout().toNanos(), responseWritten, batchWritten);
        this.recorder = new Recorder(wire, shared.accessLog, input, parser);
        this.fast = new FastAnswers(shared.app.fastRoutes(), parser, recorder, echoIds);
        this.errors = new ErrorAnswers(wire, recorder, parser, echoIds);
        this.channel = new Http1Channel(this, wire, shared, gate, output, recorder, responseWritten);
        this.runs = new PipelineRuns(shared, reader, fast, channel, recorder);
    }

    // ---- requests in --------------------------------------------------------------------------

    @Override
    public void onReadable() {
        if (state == CLOSED) {
            return;
        }
        int n;
        try {
            n = reader.fill(state == READ_HEAD);
        } catch (IOException e) {
            close();
            return;
        }
        if (n == RequestReader.FULL) {
            wire.readInterest(false); // full while a request is handled: read on once it is answered
        } else if (n < 0) {
            onEof();
        } else if (n > 0 && (state == READ_HEAD || state == READ_BODY)) {
            if (state == READ_BODY) {
                deadlines.bodyRead(n);
            }
            advance();
        }
    }

    @Override
    public void onBytes(byte[] src, int n) {
        if (n < 0) {
            onEof();
            return;
        }
        reader.accept(src, n);
        advance();
    }

    private void onEof() {
        inputClosed = true;
        if (state == HANDLING && !channel.streaming()) {
            // answer this request and any complete pipelined ones already buffered, then close
            wire.readInterest(false);
        } else if (state == READ_HEAD && output.writing()) {
            wire.readInterest(false); // a batch is still being written: it closes after
        } else {
            close(); // nothing to answer, or a stream nobody will read the rest of
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
        // not on a blocking loop: its next handler may block, and would hold back the batched answers;
        // not the last answer before the wire changes hands
        return (advancing && reader.hasUnread() || runs.nextReady())
                && !closeAfter && !wire.blocking() && !channel.upgrading();
    }

    private void onBatchWritten() {
        if (inputClosed && state == READ_HEAD) {
            close();
        }
    }

    private boolean stepHead() {
        Upgrade h2c = served == 0 ? shared.priorKnowledge() : null;
        if (h2c != null) {
            int preface = reader.preface();
            if (preface == RequestReader.PARTIAL) {
                return false; // may still be HTTP/2's preface: wait for the rest
            }
            if (preface == RequestReader.WHOLE && busy) {
                refuseHttp2(); // no thread for its streams: told in HTTP/2, which it speaks, not with a 505
                return false;
            }
            if (preface == RequestReader.WHOLE) {
                // an HTTP/2 client with prior knowledge (h2c): the connection is HTTP/2's from its first byte
                ByteBuffer buffered = reader.input.unread();
                release();
                channel.switchTo(h2c, buffered);
                return false;
            }
        }
        try {
            if (reader.parseHead() != RequestReader.WHOLE) {
                return false;
            }
        } catch (HttpParseException e) {
            refuse(e.status(), e.getMessage());
            return false;
        }
        served++;
        recorder.headParsed();
        closeAfter = busy || !parser.keepAlive() || shared.draining() && lastBeforeDrain()
                || (opts.maxRequestsPerConnection() != 0 && served >= opts.maxRequestsPerConnection());
        byte[] fastAnswer = fast.answer(reader.bytes(), reader.headStart(), closeAfter);
        if (fastAnswer != null) {
            toHandling();
            output.send(fastAnswer, responseWritten);
            return true;
        }
        Exchange exchange = channel.begin(reader, parser.hasBody() && parser.expectContinue());
        gate.newRequest();
        shared.app.route(exchange);
        if (parser.hasBody()) {
            bodyLimit = shared.bodyLimit(exchange);
            if (!parser.chunked() && parser.contentLength() > bodyLimit) {
                refuse(413, "Request body is larger than " + bodyLimit + " bytes"); // before any of it is read
                return false;
            }
        }
        if (parser.hasBody() || !(wire.blocking() || exchange.runsOnCallingThread())) {
            // it outlives this call: reading its body, or on another thread, the buffer moves on
            exchange.own();
        }
        admitAfterBody = false;
        if (reader.hasUnread() && shared.admission == null && !closeAfter && !parser.hasBody() && !wire.blocking()
                && runs.runsAhead(exchange)) {
            startRun(exchange); // more requests are buffered: their handlers may go to the thread with this one's
        } else if (busy && !exchange.neverShed()) {
            shed(ServerStats.ShedReason.THREAD_LIMIT); // its body unread: closing after
        } else if (shared.admission == null || exchange.neverShed()) {
            proceed();
        } else if (parser.hasBody() && !channel.streamsBody() && !channel.body().deferred()) {
            admitAfterBody = true; // the slot is taken once the body is whole (stepBody)
            startBody();
        } else if (admit()) {
            proceed();
        }
        return true;
    }

    /**
     * Hands {@code first} to its handler with the requests buffered behind it that may run ahead of their
     * turn, as a {@link PipelineRun}; alone when none may.
     */
    private void startRun(Exchange first) {
        PipelineRun r = runs.form(first, served);
        if (r == null) {
            proceed();
            return;
        }
        served += r.size() - 1;
        toHandling();
        gate.dispatched();
        runs.begin(r);
    }

    /** Member {@code i} of {@code r} has ended on the connection's thread (or was refused). Loop thread. */
    void memberDone(PipelineRun r, int i) {
        runs.memberDone(r, i);
    }

    /** The thread stopped running {@code r}'s members ahead. Loop thread. */
    void runStopped(PipelineRun r) {
        if (state == HANDLING) {
            runs.stopped(r);
        }
    }

    /**
     * A slot now (true), or queued / shed (false): before any handler runs, and before the body is read
     * unless it is a buffered one (then {@link #waitingBody} holds it, read whole).
     */
    private boolean admit() {
        int admitted = gate.admit(grant);
        if (admitted == AdmissionGate.ADMITTED) {
            return true;
        }
        channel.exchange().own(); // may wait in the queue: the head must not depend on the buffer meanwhile
        if (admitted == AdmissionGate.QUEUED) {
            state = QUEUED;
            deadlines.queued();
            wire.readInterest(false);
        } else {
            shed(ServerStats.ShedReason.CONCURRENCY_LIMIT);
        }
        return false;
    }

    /** The queue passed a slot to this connection (on its loop). */
    private void granted() {
        gate.granted();
        if (state != QUEUED) {
            gate.release(); // closed while the grant was on its way: pass it on
            return;
        }
        if (waitingBody != null) {
            RequestBody body = waitingBody;
            waitingBody = null;
            deliver(body);
            return;
        }
        proceed();
        if (state == READ_BODY) {
            advance(); // body bytes may already be buffered
        }
    }

    /**
     * Reads the body if there is one (and it is not deferred), else hands the request to its handler; a
     * streamed body is read while its handler runs.
     */
    private void proceed() {
        if (parser.hasBody() && channel.streamsBody()) {
            startStream();
            return;
        }
        if (parser.hasBody() && !channel.body().deferred()) {
            startBody();
            return;
        }
        toHandling();
        gate.dispatched();
        channel.dispatch();
    }

    /** Reserves what the body needs and reads it; a budget that cannot take it answers 503 at once. */
    private void startBody() {
        ServerStats.ShedReason refused;
        try {
            refused = reader.beginBody(bodyLimit);
        } catch (HttpParseException e) {
            refuse(e.status(), e.getMessage());
            return;
        }
        if (refused != null) {
            shedBody(refused);
            return;
        }
        beginBody();
    }

    /**
     * Hands the request to its handler with a stream its body is read into as the handler takes it
     * (after "100 Continue", once the handler first reads, if the client waits for it).
     */
    private void startStream() {
        BodyStream s = channel.body().openStream(shared.bodies, bodyLimit);
        if (s == null) {
            shedBody(ServerStats.ShedReason.BODY_MEMORY);
            return;
        }
        reader.beginStream(s);
        if (channel.body().deferred()) {
            toHandling();
        } else {
            beginBody(); // before the handler runs: on a blocking loop it runs right here, reading
        }
        gate.dispatched();
        channel.dispatch();
    }

    /**
     * The handler asked for its deferred (buffered) body: reserves what it needs. Null when it may be
     * read, else what the handler's wait fails with (the connection closes after the answer).
     */
    RuntimeException prepareDeferredBody() {
        ServerStats.ShedReason refused;
        try {
            refused = reader.beginBody(bodyLimit);
        } catch (HttpParseException e) {
            closeAfter = true;
            return new HttpException(e.status(), e.getMessage());
        }
        if (refused != null) {
            closeAfter = true;
            wire.counters().shed(refused);
            return new BodyUnavailableException(ErrorAnswers.shedMessage(refused));
        }
        return null;
    }

    private void toHandling() {
        state = HANDLING;
        deadlines.none();
    }

    /** Body reading is set up: read it. */
    private void beginBody() {
        state = READ_BODY;
        if (!inputClosed) {
            wire.readInterest(true); // may be off: the buffer filled while waiting
        }
        deadlines.bodyBegins();
    }

    private boolean stepBody() {
        RequestBody body;
        try {
            body = reader.readBody();
        } catch (HttpParseException e) {
            bodyFailed(e);
            return false;
        }
        if (body == null) {
            if (reader.bodyStarved()) {
                // the stream's window is full: the client waits until its handler reads (no timeout meanwhile)
                wire.readInterest(false);
                deadlines.paused();
            }
            return false;
        }
        if (admitAfterBody) {
            admitAfterBody = false;
            waitingBody = body;
            if (!admit()) {
                // queued with its body; or shed, the body given back and the next request (if any) read on
                return state != QUEUED;
            }
            waitingBody = null;
        }
        deliver(body);
        return true;
    }

    /** The whole body arrived and the request has its slot (if it needs one): to its handler, or to the handler waiting for it. */
    private void deliver(RequestBody body) {
        toHandling();
        gate.dispatched();
        channel.body().arrived(body);
    }

    private void bodyFailed(HttpParseException e) {
        ServerStats.ShedReason refused = e.status() == 503 ? reader.bodyRefusal() : null;
        if (channel.body().handlerWaits()) {
            toHandling();
            closeAfter = true;
            reader.abortBody();
            wire.readInterest(false);
            if (refused != null) {
                wire.counters().shed(refused);
            }
            channel.body().failed(refused != null ? new BodyUnavailableException(e.getMessage())
                    : new HttpException(e.status(), e.getMessage()));
        } else if (refused != null) {
            shedBody(refused);
        } else {
            refuse(e.status(), e.getMessage());
        }
    }

    /** A body its budget cannot take: 503 + Retry-After before its handler, closing after (it is unread). */
    private void shedBody(ServerStats.ShedReason reason) {
        gate.releaseUndispatched();
        reader.abortBody();
        closeAfter = true;
        shed(reason);
    }

    /**
     * Refuses a request before its handler with 503 + Retry-After; an unread body means closing after,
     * a body read whole (waiting for a slot) is given back and the connection kept.
     */
    private void shed(ServerStats.ShedReason reason) {
        RequestBody held = waitingBody;
        if (held != null) {
            waitingBody = null;
            held.release();
        } else {
            closeAfter |= parser.hasBody(); // an unread body must not be taken for the next request
        }
        // as a handler's answer would say: the client must not send again
        closeAfter |= shared.draining() && lastBeforeDrain();
        answerAlone(errors.shed(channel.exchange(), reason, closeAfter));
    }

    /** An HTTP/2 client on a connection no thread came free for: SETTINGS and GOAWAY, then closing. */
    private void refuseHttp2() {
        closeAfter = true;
        toHandling();
        wire.readInterest(false);
        output.send(ErrorAnswers.HTTP2_BUSY, responseWritten); // counted as a refusal when it closes (release)
    }

    /** Answers a request that cannot be served and closes after: no later byte is read as a request. */
    void refuse(int status, String message) {
        gate.releaseUndispatched();
        closeAfter = true;
        reader.abortBody();
        answerAlone(errors.refusal(channel.exchange(), status, message));
    }

    /** The engine's own answer instead of a handler's: nothing more is read until it is written. */
    private void answerAlone(ByteBuffer answer) {
        toHandling();
        channel.end();
        wire.readInterest(false);
        output.send(answer, null, responseWritten);
    }

    // ---- for the channel -----------------------------------------------------------------------

    /** Serves the wire on this (blocking loop) thread until {@code f} completes, after {@code first}. */
    void serveUntil(CompletableFuture<?> f, Runnable first) {
        boolean outer = advancing;
        advancing = false; // the head's advance() is below us on the stack; body bytes may be buffered
        try {
            first.run();
            wire.runUntil(f);
        } finally {
            advancing = outer;
        }
    }

    /** The handler asked for its deferred body and "100 Continue" is written: read it. */
    void readBody() {
        beginBody();
        advance();
    }

    /** A streamed body's reader made room in its window (or waits for bytes): read on, if reading it. */
    void resumeBody() {
        if (state == READ_BODY) {
            if (!inputClosed) {
                wire.readInterest(true);
            }
            deadlines.bodyResumed();
            advance();
        }
    }

    /** The handler answered before its streamed body was whole: it is not read any more, and the connection closes after. */
    void abandonBody() {
        closeAfter = true;
        if (state == READ_BODY) {
            reader.abortBody();
            toHandling();
            wire.readInterest(false);
        }
    }

    /** A handler has the request (its answer may come). */
    boolean isHandling() {
        return state == HANDLING;
    }

    /** Whether the server drains (a graceful shutdown has begun). Any thread. */
    boolean draining() {
        return shared.draining();
    }

    /** Whether the connection is gone, for threads other than the loop's. Any thread. */
    boolean gone() {
        return closed;
    }

    /** Whether the response on its way is the connection's last. */
    boolean closingAfterResponse() {
        return closeAfter;
    }

    @Override
    public void onWritable() {
        output.onWritable();
    }

    Http1Channel channel() {
        return channel;
    }

    /** Runs {@code task} on the loop. Any thread. */
    void execute(Runnable task) {
        wire.execute(task);
    }

    /**
     * In a drain, whether the answer being framed is the connection's last: no further request began
     * arriving before the connection saw the drain — none of its bytes are buffered, and no member of a
     * pipeline run follows. Requests received before are answered, keep-alive, and only the last says
     * {@code Connection: close}; what arrives after the mark is never served, so a client that keeps
     * sending cannot hold the drain open. Loop thread; only while draining.
     */
    boolean lastBeforeDrain() {
        markDrain();
        return !runs.hasMore() && !(reader.hasUnread() && reader.unreadFrom() < drainMark);
    }

    /** Sets {@link #drainMark}, once: the connection has seen the drain. */
    private void markDrain() {
        if (drainMark >= 0) {
            return;
        }
        if (state == HANDLING) {
            // what arrived while a handler ran (on the loop, or on a blocking loop's only thread) was sent
            // before the client could know: read it now, taking only what is here (a blocking read would wait).
            // Reading may move the buffer's unread bytes over the current head, which the exchange may still
            // borrow (its answer is being framed, the request id echoed, the access log written): it copies it first
            Exchange current = channel.exchange();
            if (current != null) {
                current.own();
            }
            wire.readsOnlyLook(true);
            try {
                long had;
                do { // until nothing more is here (a TLS wire gives one record's plaintext a read), or full
                    had = reader.received();
                    onReadable();
                } while (reader.received() > had && state == HANDLING);
            } finally {
                wire.readsOnlyLook(false);
            }
        }
        drainMark = reader.received();
    }

    /** The response on its way is the connection's last. */
    void closeAfterResponse() {
        closeAfter = true;
    }

    private void onResponseWritten() {
        Upgrade next = channel.end();
        if (next != null) {
            ByteBuffer buffered = reader.input.unread();
            release();
            channel.switchTo(next, buffered);
        } else if (closeAfter && inputClosed) {
            close();
        } else if (closeAfter) {
            // closing with unread input would reset the connection and could cut off the answer
            ByteBuffer scratch = reader.input.take();
            release();
            LingeringClose.takeOver(wire, shared, scratch);
        } else if (runs.next()) {
            // the run's next request is the current one now
        } else {
            parser.reset();
            state = READ_HEAD;
            deadlines.idle();
            if (!inputClosed) {
                wire.readInterest(true);
            }
            advance();
            if (shared.draining() && idle()) {
                // its response said keep-alive, framed before the drain began; a blocking loop must not
                // read here (its read would block): its own idle read takes a request sent in the grace
                if (wire.blocking()) {
                    grace();
                } else {
                    drain();
                }
            }
        }
    }

    // ---- what a transport asks ---------------------------------------------------------------

    @Override
    public boolean idle() {
        return state == READ_HEAD && !parser.started() && !reader.hasUnread() && !output.writing();
    }

    @Override
    public boolean holdsInput() {
        return reader.input.buf != null;
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
        if (state == READ_HEAD && !parser.started() && !reader.hasUnread() && served == servedAtScan) {
            // waiting, and no request since the last scan: the exchange and the handler thread are kept
            // only while the connection is busy. Not at the first scan that finds it waiting: with many
            // connections each one is found between two requests at almost every scan
            channel.dropSpare();
        }
        servedAtScan = served;
        if (output.writing()) {
            if (output.stalled(now)) {
                wire.counters().timedOut();
                wire.discardUnsent();
                close();
            }
            return;
        }
        if (!deadlines.passed(now)) {
            if (state == READ_BODY && deadlines.bodyTooSlow(now)) {
                wire.counters().slowBody();
                bodyFailed(new HttpParseException(408, "Request body arrives below the minimum data rate"));
            }
            return;
        }
        if (state == READ_HEAD) {
            if (parser.started() || reader.hasUnread()) {
                wire.counters().timedOut();
                refuse(408, "Request header read timeout");
            } else {
                if (!graceGiven) { // the end of a drain's grace is no client's fault
                    wire.counters().timedOut();
                }
                close();
            }
        } else if (state == QUEUED) {
            if (gate.abandon()) {
                shed(ServerStats.ShedReason.QUEUE_TIMEOUT);
            }
        } else if (state == READ_BODY) {
            wire.counters().timedOut();
            bodyFailed(new HttpParseException(408, "Request body read timeout"));
        }
        // HANDLING: the handler's time is not limited here
    }

    /**
     * Graceful shutdown. A request whose bytes have arrived but not been read yet is not idle: what the
     * wire has is read first (a blocking loop reads only briefly here), so such a request is answered,
     * with {@code Connection: close}, not reset. A connection busy with a request answers it, and each
     * pipelined request that began arriving before the connection saw the drain, the last answer with
     * {@code Connection: close} (each response sees the drain when it is framed: {@link #lastBeforeDrain}),
     * and closes; one whose keep-alive response was framed before the drain comes back here when it is
     * written. An idle connection stays open for {@code drain-grace} (0: closed at once): its client may
     * have sent a request before it could know of the drain, and that request is answered with
     * {@code Connection: close}; still idle at the end of the grace, it is closed by {@link #onTimer}.
     * Called once or more; the grace is given once.
     */
    @Override
    public void drain() {
        if (channel.streaming() || state == HANDLING) {
            channel.stream().drain(); // an event stream ends (a stream being set up ends as it starts)
        }
        if (idle()) {
            onReadable();
        }
        markDrain();
        if (!idle()) {
            return;
        }
        grace();
    }

    /** An idle connection in a drain: {@code drain-grace} to receive a last request, once (0: closed now). */
    private void grace() {
        if (graceGiven) {
            return;
        }
        long grace = opts.drainGrace().toNanos();
        if (grace == 0) {
            close();
        } else {
            graceGiven = true;
            deadlines.grace(grace);
        }
    }

    @Override
    public void close() {
        if (state != CLOSED) {
            release();
            wire.close();
        }
    }

    /** Lets go of everything this connection holds; the wire stays open for whoever takes it. */
    private void release() {
        if (busy && served == 0 && state != CLOSED) {
            // turned away before any request was read (gone, stalled, or HTTP/2): a thread-limit refusal too
            wire.counters().shed(ServerStats.ShedReason.THREAD_LIMIT);
        }
        boolean wasQueued = state == QUEUED;
        state = CLOSED;
        closed = true;
        gate.close(wasQueued);
        runs.discard();
        if (waitingBody != null) {
            waitingBody.release();
            waitingBody = null;
        }
        reader.input.release();
        reader.abortBody();
        output.close();
        channel.close();
    }
}
