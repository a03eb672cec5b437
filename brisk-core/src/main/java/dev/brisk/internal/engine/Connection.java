package dev.brisk.internal.engine;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.HttpException;
import dev.brisk.Method;
import dev.brisk.ServerOptions;
import dev.brisk.internal.ops.AccessLog;
import dev.brisk.internal.ops.AdmissionControl;
import dev.brisk.internal.ops.ServerStats;
import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.http.BodyBuffer;
import dev.brisk.internal.http.ChunkedDecoder;
import dev.brisk.internal.http.HttpParseException;
import dev.brisk.internal.http.RequestParser;
import dev.brisk.internal.http.ResponseEncoder;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.web.Exchange;
import dev.brisk.internal.web.ExchangeOwner;
import dev.brisk.internal.web.RequestIds;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One client connection: reads requests, hands them to the app, writes responses in order.
 *
 * <pre>
 *            bytes                head complete, body follows        body complete
 *  (accept) ──────▶ READ_HEAD ─────────────────────────▶ READ_BODY ─────────────────┐
 *                    │   ▲  head complete, no body (or Expect: 100-continue)         ▼
 *                    │   │ ───────────────────────────────────────────────────▶ HANDLING
 *                    │   │          response written, keep-alive                     │
 *                    │   └───────────────────────────────────────────────────────────┘
 *                    │ bad request / timeout / Connection: close
 *                    ▼
 *                  LINGER (output shut, input drained briefly) ──▶ CLOSED
 * </pre>
 *
 * <p>Threads: every method runs on the owning {@link ConnectionLoop}'s thread, except the
 * {@link ExchangeOwner} methods, which any thread may call and which hop to the loop. The loop is an
 * {@link IoLoop} (non-blocking, many connections per thread) or a {@link BlockingLoop} (this connection
 * alone on a thread that blocks); this class is the protocol for both.
 *
 * <p>Backpressure: one request is handled at a time; while it is, bytes of later (pipelined) requests
 * are only buffered, and reading stops when the buffer is full. While a response is being written,
 * nothing else is produced, so a client that does not read makes the server hold one response at most
 * (plus one batch, below).
 *
 * <p>Pipelining: a response answered at once while the next request's bytes are already buffered is
 * not written yet but appended to a batch (one pooled buffer), and the next request is parsed; the
 * batch goes out in one write with the first response that cannot join it, or when the buffered
 * requests run out. Sixteen pipelined requests then cost one write instead of sixteen.
 */
final class Connection implements ExchangeOwner {
    private static final int READ_HEAD = 0;
    private static final int READ_BODY = 1;
    private static final int HANDLING = 2;
    private static final int LINGER = 3;
    private static final int CLOSED = 4;
    /** Head parsed, waiting in the admission queue for an in-flight slot; not reading. */
    private static final int QUEUED = 5;

    private static final List<String> RETRY_AFTER = List.of("Retry-After", "1");
    private static final byte[] SHED_BODY = "Service Unavailable: too many requests in flight, retry shortly\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ROOT = {'/'};
    private static final Method[] METHODS = Method.values();
    private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long LINGER_MAX_BYTES = 1 << 20;

    // the kinds of response that responded() records
    /** Answered from a fast-static route. */
    private static final int FAST = 0;
    /** Answered by the request's handler chain (or the app's 404/405/503 answers). */
    private static final int ANSWERED = 1;
    /** Refused by load shedding before its handler. */
    private static final int SHED = 2;
    /** Refused while parsed or read (parse error, timeout, limit). */
    private static final int REFUSED = 3;

    private final ConnectionLoop loop;
    private final Server server;
    private final ServerOptions opts;
    private final SocketChannel ch;
    private final SelectionKey key; // null on a blocking loop
    private final RequestParser parser;
    private final FastRoutes fast;
    private final int headCapacity;
    private final AccessLog accessLog; // null when off
    private final boolean echoIds;
    // the timeouts in nanoseconds, read once: Duration.toNanos per request is measurable
    private final long headerReadNanos;
    private final long bodyReadNanos;
    private final long idleNanos;
    private final long writeNanos;

    private ByteBuffer in;
    private int reqStart;
    private int state = READ_HEAD;
    private int interest = SelectionKey.OP_READ;
    private long deadline;
    private boolean headTimerStarted = true;
    private int served;
    private boolean closeAfter;
    private boolean inputClosed;
    private boolean advancing;

    private Exchange exchange;
    private long headAt;
    // admission: the slot is released once, by whichever of completion / failure / close comes first
    private final java.util.concurrent.atomic.AtomicBoolean holdsSlot = new java.util.concurrent.atomic.AtomicBoolean();
    private long admittedAt;
    private boolean dispatched; // loop thread only
    private AdmissionControl.Ticket ticket;
    private boolean deferred;
    private CompletableFuture<byte[]> bodyWaiter;
    private long bodyRemaining;
    private ChunkedDecoder chunkDecoder;
    private BodyBuffer body;

    private ByteBuffer outHead;
    private ByteBuffer outBody;
    /** Pipelined responses not written yet (write mode), or null; see the class comment. */
    private ByteBuffer batch;
    /** "100 Continue" is being written: a response now means the handler gave up on the body. */
    private boolean continuing;
    private final ByteBuffer[] gather = new ByteBuffer[2];
    private Runnable afterWrite;
    private long writeDeadline;
    private CompletableFuture<Void> writeWaiter;
    private long lingerBytes;
    private volatile String remote;
    private volatile boolean closed;
    private StreamPump pump;
    // allocated once: a method reference per response would cost an object per request
    private final Runnable responseWritten = this::onResponseWritten;
    private final Runnable batchWritten = this::onBatchWritten;

    Connection(ConnectionLoop loop, SocketChannel ch, SelectionKey key) {
        this.loop = loop;
        this.server = loop.server;
        this.opts = server.options();
        this.ch = ch;
        this.key = key;
        this.parser = server.newParser();
        this.fast = server.app().fastRoutes();
        this.headCapacity = opts.maxRequestLine() + opts.maxHeaderSize() + 1024;
        this.accessLog = server.accessLog();
        this.echoIds = opts.requestIds();
        this.headerReadNanos = opts.headerReadTimeout().toNanos();
        this.bodyReadNanos = opts.bodyReadTimeout().toNanos();
        this.idleNanos = opts.idleTimeout().toNanos();
        this.writeNanos = opts.writeTimeout().toNanos();
        this.deadline = loop.clock() + headerReadNanos;
    }

    // ---- input ------------------------------------------------------------------------------

    void onReadable() {
        if (state == CLOSED) {
            return;
        }
        if (state == LINGER) {
            drainLinger();
            return;
        }
        if (in == null) {
            in = loop.inPool.acquire();
            reqStart = 0;
        }
        if (!in.hasRemaining()) {
            makeRoom();
            if (!in.hasRemaining()) {
                // a full buffer while a request is handled: stop reading until it is answered
                setInterest(interest & ~SelectionKey.OP_READ);
                return;
            }
        }
        int n;
        try {
            n = loop.read(ch, this, in);
        } catch (IOException e) {
            close();
            return;
        }
        if (n < 0) {
            onEof();
        } else if (n > 0) {
            loop.counters.bytesIn(n);
            if (state == READ_BODY) {
                deadline = loop.clock() + bodyReadNanos;
            }
            if (state == READ_HEAD || state == READ_BODY) {
                advance();
            }
        }
    }

    /** Moves unconsumed bytes to the front, or grows the buffer for a large head. */
    private void makeRoom() {
        int end = in.position();
        if (reqStart > 0) {
            byte[] a = in.array();
            System.arraycopy(a, reqStart, a, 0, end - reqStart);
            in.position(end - reqStart);
            reqStart = 0;
        } else if (state == READ_HEAD && in.capacity() < headCapacity) {
            ByteBuffer bigger = ByteBuffer.allocate(headCapacity);
            bigger.put(in.array(), 0, end);
            loop.inPool.release(in);
            in = bigger;
        }
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
                setInterest(interest & ~SelectionKey.OP_READ);
            }
            case READ_HEAD -> {
                if (outHead != null) {
                    setInterest(interest & ~SelectionKey.OP_READ); // a batch is still being written: it closes after
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
        if (batch != null) {
            // the buffered requests ran out (or the next one waits for its handler): write what they got
            ByteBuffer b = batch;
            batch = null;
            send(b.flip(), null, batchWritten);
        } else if (inputClosed && state == READ_HEAD && outHead == null) {
            close(); // the client half-closed: every complete request is answered, no more can come
        }
    }

    private void onBatchWritten() {
        if (inputClosed && state == READ_HEAD) {
            close();
        }
    }

    private boolean stepHead() {
        if (in == null) {
            return false;
        }
        int end = in.position();
        if (end == reqStart) {
            loop.inPool.release(in);
            in = null;
            reqStart = 0;
            return false;
        }
        if (!headTimerStarted) {
            headTimerStarted = true;
            deadline = loop.clock() + headerReadNanos;
        }
        boolean done;
        try {
            done = parser.parse(in.array(), reqStart, end);
        } catch (HttpParseException e) {
            reject(e.status(), e.getMessage());
            return false;
        }
        if (done) {
            onHead();
        }
        return done;
    }

    private void onHead() {
        byte[] a = in.array();
        int start = reqStart;
        int headLen = parser.headEnd();
        reqStart = start + headLen;
        served++;
        headAt = System.nanoTime();
        boolean keepAlive = parser.keepAlive() && !server.draining()
                && (opts.maxRequestsPerConnection() == 0 || served < opts.maxRequestsPerConnection());
        closeAfter = !keepAlive;
        boolean http11 = parser.version() == RequestParser.HTTP_1_1;
        int ms = start + parser.methodStart();
        int me = start + parser.methodEnd();
        if (!parser.hasBody() && !fast.isEmpty()) {
            boolean get = me - ms == 3 && a[ms] == 'G' && a[ms + 1] == 'E' && a[ms + 2] == 'T';
            boolean head = !get && me - ms == 4 && a[ms] == 'H' && a[ms + 1] == 'E' && a[ms + 2] == 'A' && a[ms + 3] == 'D';
            if (get || head) {
                FastRoutes.Entry e = parser.pathEnd() > parser.pathStart()
                        ? fast.find(a, start + parser.pathStart(), start + parser.pathEnd())
                        : fast.find(ROOT, 0, 1); // absolute-form without a path means "/"
                if (e != null) {
                    state = HANDLING;
                    int conn = closeAfter ? FastRoutes.CLOSE : http11 ? FastRoutes.KEEP_ALIVE : FastRoutes.KEEP_ALIVE_1_0;
                    String id = echoIds ? RequestIds.incomingOrNew(a, start, parser.fields(), parser.fieldCount()) : null;
                    responded(FAST, e.status(), null, e, id, e.bodyLength(head));
                    sendStatic(id == null ? e.bytes(head, conn) : e.bytesWith(head, conn, RequestIds.HEADER, id));
                    return;
                }
            }
        }
        String method = methodName(a, ms, me);
        boolean hasBody = parser.hasBody();
        deferred = hasBody && parser.expectContinue();
        // borrows the input buffer and the parser's offsets (relative to the request start) for routing
        exchange = new Exchange(this, a, start, headLen, parser.fields(), parser.fieldCount(), method,
                Method.of(method), parser.pathStart(), parser.pathEnd(), parser.targetEnd(), http11, null, deferred);
        dispatched = false;
        server.app().route(exchange);
        if (hasBody || !(loop.runsHandlersInline() || exchange.runsOnCallingThread())) {
            // it outlives this call: reading its body, or on another thread, the buffer moves on
            exchange.own();
        }
        AdmissionControl admission = server.admission();
        if (admission != null && !exchange.neverShed() && !admit(admission)) {
            return; // queued (reading paused) or refused with 503
        }
        proceed();
    }

    /** Reads the body if there is one, else hands the request to its handler. */
    private void proceed() {
        if (parser.hasBody() && !deferred) {
            beginBody();
            return;
        }
        state = HANDLING;
        dispatched = true;
        dispatch();
    }

    /** Hands the routed exchange to its handler: inline on a blocking loop, else on its route's dispatch. */
    private void dispatch() {
        if (loop.runsHandlersInline()) {
            server.app().runInline(exchange);
        } else {
            server.app().dispatch(exchange);
        }
    }

    /** A slot now (true), or queued / refused (false): before the body is read or routing runs code. */
    private boolean admit(AdmissionControl admission) {
        if (admission.tryAcquire()) {
            slotTaken();
            return true;
        }
        AdmissionControl.Ticket t = new AdmissionControl.Ticket(() -> loop.execute(this::granted));
        exchange.own(); // may wait in the queue: the head must not depend on the buffer meanwhile
        if (admission.enqueue(t)) {
            ticket = t;
            state = QUEUED;
            deadline = System.nanoTime() + opts.requestQueueTimeout().toNanos();
            setInterest(interest & ~SelectionKey.OP_READ);
            return false;
        }
        shed(ServerStats.ShedReason.CONCURRENCY_LIMIT);
        return false;
    }

    private void slotTaken() {
        admittedAt = System.nanoTime();
        holdsSlot.set(true);
    }

    /** The queue passed a slot to this connection (on its loop). */
    private void granted() {
        ticket = null;
        slotTaken();
        if (state != QUEUED) {
            releaseSlot(); // closed while the grant was on its way: pass it on
            return;
        }
        proceed();
        if (state == READ_BODY) {
            advance(); // body bytes may already be buffered
        }
    }

    /** Gives the slot back (once), with the request's latency for an adaptive limit. */
    private void releaseSlot() {
        if (holdsSlot.compareAndSet(true, false)) {
            server.admission().release(System.nanoTime() - admittedAt, false);
        }
    }

    /** Refuses a request before its handler with 503 + Retry-After; an unread body means closing after. */
    private void shed(ServerStats.ShedReason reason) {
        loop.counters.shed(reason);
        String id = echoIds ? exchange.requestId() : null;
        responded(SHED, 503, exchange, null, id, SHED_BODY.length);
        state = HANDLING;
        exchange = null;
        if (parser.hasBody()) {
            closeAfter = true; // its body is not read: it must not be taken for the next request
        }
        setInterest(interest & ~SelectionKey.OP_READ);
        ByteBuffer out = loop.outPool.acquire();
        List<String> headers = id == null ? RETRY_AFTER : List.of("Retry-After", "1", RequestIds.HEADER, id);
        ResponseEncoder.encodeHead(out, 503, "text/plain; charset=utf-8", headers, SHED_BODY.length,
                closeAfter ? 1 : parser.version() == RequestParser.HTTP_1_1 ? 0 : 2);
        out.put(SHED_BODY);
        out.flip();
        send(out, null, responseWritten);
    }

    /** The method as one of the {@link Method} names (no allocation), else a new string. */
    private static String methodName(byte[] a, int s, int e) {
        for (Method m : METHODS) {
            if (sameAscii(a, s, e, m.name())) {
                return m.name();
            }
        }
        return Ascii.latin1(a, s, e);
    }

    private static boolean sameAscii(byte[] a, int s, int e, String name) {
        if (e - s != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (a[s + i] != name.charAt(i)) {
                return false; // methods are case-sensitive
            }
        }
        return true;
    }

    private void beginBody() {
        state = READ_BODY;
        if (!inputClosed) {
            setInterest(interest | SelectionKey.OP_READ); // may be off: the buffer filled while waiting
        }
        deadline = loop.clock() + bodyReadNanos;
        if (parser.chunked()) {
            chunkDecoder = new ChunkedDecoder(opts.maxChunkExtension(), opts.maxHeaderSize());
            body = new BodyBuffer(opts.maxBodySize(), 1024);
        } else {
            // grows as bytes arrive: a declared length alone never reserves memory
            bodyRemaining = parser.contentLength();
            body = new BodyBuffer(bodyRemaining, (int) Math.min(bodyRemaining, 16 * 1024));
        }
    }

    private boolean stepBody() {
        int end = in == null ? reqStart : in.position();
        if (chunkDecoder != null) {
            if (end > reqStart) {
                try {
                    reqStart = chunkDecoder.decode(in.array(), reqStart, end, body);
                } catch (HttpParseException e) {
                    bodyFailed(e);
                    return false;
                }
            }
            if (!chunkDecoder.done()) {
                return false;
            }
            chunkDecoder = null;
        } else {
            int n = (int) Math.min(bodyRemaining, end - reqStart);
            if (n > 0) {
                try {
                    body.append(in.array(), reqStart, n);
                } catch (HttpParseException e) {
                    bodyFailed(e); // cannot happen: the limit is the declared length
                    return false;
                }
                reqStart += n;
                bodyRemaining -= n;
            }
            if (bodyRemaining > 0) {
                return false;
            }
        }
        byte[] b = body.toArray();
        body = null;
        bodyDone(b);
        return true;
    }

    private void bodyDone(byte[] body) {
        state = HANDLING;
        dispatched = true;
        if (deferred) {
            CompletableFuture<byte[]> f = bodyWaiter;
            bodyWaiter = null;
            if (f != null) {
                f.complete(body);
            }
        } else {
            exchange.setBody(body);
            dispatch();
        }
    }

    private void bodyFailed(HttpParseException e) {
        if (deferred) {
            state = HANDLING;
            closeAfter = true;
            deferred = false; // a later body() call must not start reading again
            chunkDecoder = null;
            body = null;
            setInterest(interest & ~SelectionKey.OP_READ);
            CompletableFuture<byte[]> f = bodyWaiter;
            bodyWaiter = null;
            if (f != null) {
                f.completeExceptionally(new HttpException(e.status(), e.getMessage()));
            }
        } else {
            reject(e.status(), e.getMessage());
        }
    }

    /** Answers a request that cannot be served and closes: no later byte is read as a request. */
    private void reject(int status, String message) {
        if (!dispatched) {
            releaseSlot();
        }
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        // no exchange when the head was not whole: then there is no incoming id to keep
        String id = !echoIds ? null : exchange != null ? exchange.requestId() : RequestIds.generate();
        responded(REFUSED, status, exchange, null, id, body.length);
        state = HANDLING;
        exchange = null;
        closeAfter = true;
        chunkDecoder = null;
        this.body = null;
        setInterest(interest & ~SelectionKey.OP_READ);
        ByteBuffer out = loop.outPool.acquire();
        ResponseEncoder.encodeHead(out, status, "text/plain; charset=utf-8",
                id == null ? List.of() : List.of(RequestIds.HEADER, id), body.length, 1);
        out.put(body, 0, Math.min(body.length, out.remaining()));
        out.flip();
        send(out, null, responseWritten);
    }

    // ---- ExchangeOwner (any thread) ---------------------------------------------------------

    @Override
    public byte[] awaitDeferredBody(Exchange ex) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        if (loop.inLoop()) {
            // a handler running inline on a blocking loop: this thread must read the body itself
            boolean outer = advancing;
            advancing = false; // the request head's advance() is below us on the stack; body bytes may be buffered
            try {
                startDeferredBody(f, ex);
                loop.runUntil(f);
            } finally {
                advancing = outer;
            }
        } else {
            loop.execute(() -> startDeferredBody(f, ex));
        }
        try {
            // the loop's body-read timeout, a failure or a close always completes f
            return await(f);
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

    private void startDeferredBody(CompletableFuture<byte[]> f, Exchange ex) {
        if (state != HANDLING || !deferred || ex != exchange) {
            f.completeExceptionally(new ClientDisconnectedException("connection closed"));
            return;
        }
        bodyWaiter = f;
        continuing = true;
        send(ByteBuffer.wrap(CONTINUE), null, () -> {
            continuing = false;
            beginBody();
            advance();
        });
    }

    @Override
    public void complete(Exchange ex) {
        releaseSlot();
        if (loop.inLoop()) {
            writeResponseSafely(ex);
        } else {
            loop.execute(() -> writeResponseSafely(ex));
        }
    }

    private void writeResponseSafely(Exchange ex) {
        try {
            writeResponse(ex);
        } catch (RuntimeException e) {
            System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, "writing a response failed", e);
            if (state != CLOSED && outHead == null && ex == exchange) {
                reject(500, "Internal Server Error");
            } else {
                close();
            }
        }
    }

    @Override
    public String remoteAddress() {
        String r = remote;
        if (r == null) {
            try {
                var a = ch.getRemoteAddress();
                r = a == null ? "unknown" : a.toString().replaceFirst("^.*/", "");
            } catch (IOException e) {
                r = "unknown";
            }
            remote = r;
        }
        return r;
    }

    // ---- recording ---------------------------------------------------------------------------

    /**
     * The one place a response is recorded, just before it is handed to the socket: the loop's
     * counters, the route's counts and, when on, an access-log line.
     *
     * @param kind {@link #FAST}, {@link #ANSWERED}, {@link #SHED} or {@link #REFUSED}
     * @param ex the request's exchange; null for a fast-static answer or a refusal before the head was whole
     * @param fast the fast-static route that answered, else null
     * @param requestId the id this response echoes, or null (then the log finds or makes one)
     * @param bodyBytes body bytes sent, -1 when streamed
     */
    private void responded(int kind, int status, Exchange ex, FastRoutes.Entry fast, String requestId,
                           long bodyBytes) {
        switch (kind) {
            case FAST -> loop.counters.response(status, 0); // answered at once: not worth a clock read
            case ANSWERED -> {
                loop.counters.response(status, System.nanoTime() - headAt);
                if (ex.route() != null) {
                    ex.route().stats().response(status);
                }
            }
            case SHED -> loop.counters.response(status, System.nanoTime() - headAt);
            default -> loop.counters.parseError(status);
        }
        if (accessLog != null && loop.accessLogSampler.take(status)) {
            accessLog.offer(logLine(status, ex, fast, requestId, bodyBytes));
        }
    }

    private AccessLog.Line logLine(int status, Exchange ex, FastRoutes.Entry fast, String requestId, long bodyBytes) {
        String remote = remoteAddress();
        if (ex != null) {
            return new AccessLog.Line(ex.method(), ex.routeTemplate(), ex.rawPath(), status, bodyBytes,
                    System.nanoTime() - headAt, remote, requestId != null ? requestId : ex.requestId());
        }
        if (fast != null) {
            // the head is still in the input buffer: nothing is read until this response is written
            byte[] a = in.array();
            int start = reqStart - parser.headEnd();
            String id = requestId != null ? requestId
                    : RequestIds.incomingOrNew(a, start, parser.fields(), parser.fieldCount());
            String method = methodName(a, start + parser.methodStart(), start + parser.methodEnd());
            return new AccessLog.Line(method, fast.path(), fast.path(), status, bodyBytes,
                    System.nanoTime() - headAt, remote, id);
        }
        return new AccessLog.Line(null, null, null, status, bodyBytes, -1, remote,
                requestId != null ? requestId : RequestIds.generate());
    }

    // ---- output -----------------------------------------------------------------------------

    private void sendStatic(byte[] bytes) {
        ByteBuffer out = loop.outPool.acquire();
        if (bytes.length <= out.capacity()) {
            out.put(bytes).flip();
            send(out, null, responseWritten);
        } else {
            loop.outPool.release(out);
            send(ByteBuffer.wrap(bytes), null, responseWritten);
        }
    }

    private void writeResponse(Exchange ex) {
        if (state == CLOSED || ex != exchange) {
            Exchange.closeQuietly(ex.responseStream());
            return;
        }
        if (server.draining()) {
            closeAfter = true; // shutting down: this is the connection's last response
        }
        if (ex.deferredBodyUnread()) {
            // the client may still send the body we never asked for: do not read it as a request
            closeAfter = true;
        }
        if (continuing) {
            // "100 Continue" is still being written and the handler gave up on its body: answer next
            closeAfter = true;
            afterWrite = () -> writeResponseSafely(ex);
            return;
        }
        int status = ex.status();
        if (echoIds) {
            ex.echoRequestId();
        }
        boolean headRequest = ex.methodEnum() == Method.HEAD;
        InputStream stream = ex.responseStream();
        String text = ex.responseText(); // when set, the body as ASCII chars (then no bytes are made)
        byte[] body = text == null ? ex.responseBody() : null;
        ByteBuffer shared = ex.responseBuffer(); // when set, the body (body itself is then empty)
        int bodyLength = 0;
        long length;
        if (ResponseEncoder.bodyless(status)) {
            Exchange.closeQuietly(stream);
            stream = null;
            length = ResponseEncoder.NO_LENGTH;
        } else if (stream != null) {
            if (!ex.http11()) {
                closeAfter = true;
                length = ResponseEncoder.NO_LENGTH;
            } else {
                length = ResponseEncoder.CHUNKED;
            }
            if (headRequest) {
                Exchange.closeQuietly(stream);
                stream = null;
            }
        } else {
            bodyLength = shared != null ? shared.remaining() : text != null ? text.length() : body.length;
            length = bodyLength;
        }
        int conn = closeAfter ? 1 : ex.http11() ? 0 : 2;
        ByteBuffer out = loop.outPool.acquire();
        if (!ResponseEncoder.encodeHead(out, status, ex.responseContentType(), ex.responseHeaders(), length, conn)) {
            loop.outPool.release(out);
            out = null;
            for (int size = 64 * 1024; size <= 1 << 20 && out == null; size *= 4) {
                ByteBuffer big = ByteBuffer.allocate(size);
                if (ResponseEncoder.encodeHead(big, status, ex.responseContentType(), ex.responseHeaders(), length, conn)) {
                    out = big;
                }
            }
            if (out == null) {
                Exchange.closeQuietly(stream);
                reject(500, "Response headers too large");
                return;
            }
        }
        responded(ANSWERED, status, ex, null, null, stream != null ? -1 : headRequest ? 0 : bodyLength);
        ByteBuffer bodyBuf = null;
        if (!headRequest && bodyLength > 0) {
            if (bodyLength <= out.remaining()) {
                // small: one buffer, one write (an absolute copy leaves a shared buffer's position alone)
                if (shared != null) {
                    out.put(out.position(), shared, shared.position(), bodyLength);
                    out.position(out.position() + bodyLength);
                } else if (text != null) {
                    Ascii.put(out, text);
                } else {
                    out.put(body);
                }
            } else {
                // a view of our own: the same shared buffer may be in flight on other connections
                bodyBuf = shared != null ? shared.duplicate()
                        : ByteBuffer.wrap(text != null ? text.getBytes(StandardCharsets.US_ASCII) : body);
            }
        }
        out.flip();
        // the request is over: a borrowed head goes back before the buffer can move on (send may go on
        // to the next pipelined request)
        ex.release();
        if (stream != null) {
            InputStream s = stream;
            boolean chunked = length == ResponseEncoder.CHUNKED;
            send(out, bodyBuf, () -> {
                pump = new StreamPump(this, s, chunked);
                server.streamExecutor().execute(pump);
            });
        } else {
            send(out, bodyBuf, responseWritten);
        }
    }


    /**
     * Writes {@code head} (and {@code body}) after anything written or batched before; runs {@code then}
     * on this loop once all is written. A pipelined response may instead join the batch: then
     * {@code then} runs at once.
     */
    private void send(ByteBuffer head, ByteBuffer body, Runnable then) {
        if (outHead != null) {
            // a batch is still being written (the socket was full): this response follows it
            Runnable before = afterWrite;
            afterWrite = () -> {
                before.run();
                if (state != CLOSED) {
                    send(head, body, then);
                }
            };
            return;
        }
        // not on a blocking loop: its next handler may block, and would hold back the batched answers
        if (body == null && then == responseWritten && advancing && !closeAfter && !loop.runsHandlersInline()
                && in != null && in.position() > reqStart
                && head.remaining() <= (batch == null ? loop.outPool.bufferSize() : batch.remaining())) {
            if (batch == null) {
                batch = loop.outPool.acquire();
            }
            batch.put(head);
            loop.outPool.release(head);
            then.run();
            return;
        }
        if (batch != null) {
            ByteBuffer b = batch;
            batch = null;
            if (body == null && b.remaining() >= head.remaining()) {
                // earlier responses first, in the same write
                b.put(head);
                loop.outPool.release(head);
                write(b.flip(), null, then);
            } else {
                send(b.flip(), null, batchWritten);
                send(head, body, then); // follows the batch (chained above if the socket is full)
            }
            return;
        }
        write(head, body, then);
    }

    private void write(ByteBuffer head, ByteBuffer body, Runnable then) {
        outHead = head;
        outBody = body;
        afterWrite = then;
        writeDeadline = loop.clock() + writeNanos;
        flush();
    }

    void onWritable() {
        if (outHead != null) {
            flush();
        } else {
            setInterest(interest & ~SelectionKey.OP_WRITE);
        }
    }

    private void flush() {
        long n;
        try {
            gather[0] = outHead;
            gather[1] = outBody;
            n = loop.write(ch, gather, outBody == null ? 1 : 2);
        } catch (IOException e) {
            close();
            return;
        }
        if (n > 0) {
            loop.counters.bytesOut(n);
        }
        if (outHead.hasRemaining() || (outBody != null && outBody.hasRemaining())) {
            if (n > 0) {
                writeDeadline = loop.clock() + writeNanos;
            }
            setInterest(interest | SelectionKey.OP_WRITE);
            return;
        }
        setInterest(interest & ~SelectionKey.OP_WRITE);
        loop.outPool.release(outHead);
        outHead = null;
        outBody = null;
        gather[0] = null;
        gather[1] = null;
        Runnable then = afterWrite;
        afterWrite = null;
        then.run();
    }

    /** Called by a {@link StreamPump} (any thread): writes one framed piece of a streamed body. */
    CompletableFuture<Void> writeChunk(ByteBuffer data) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        loop.execute(() -> {
            if (state == CLOSED) {
                f.completeExceptionally(new IOException("connection closed"));
                return;
            }
            writeWaiter = f;
            send(data, null, () -> {
                writeWaiter = null;
                f.complete(null);
            });
        });
        return f;
    }

    /** Called by a {@link StreamPump} when the stream ended ({@code ok}) or failed. */
    void endStream(boolean chunked, boolean ok) {
        loop.execute(() -> {
            pump = null;
            if (state == CLOSED) {
                return;
            }
            if (!ok || !chunked) {
                // a failed stream cannot be reported in-band; closing tells the client it is incomplete
                closeAfter = true;
                onResponseWritten();
            } else {
                send(ByteBuffer.wrap(LAST_CHUNK), null, responseWritten);
            }
        });
    }

    static ByteBuffer frame(byte[] data, int n, boolean chunked) {
        if (!chunked) {
            return ByteBuffer.wrap(Arrays.copyOf(data, n));
        }
        byte[] size = ResponseEncoder.chunkHeader(n);
        ByteBuffer b = ByteBuffer.allocate(size.length + n + 2);
        b.put(size).put(data, 0, n).put((byte) '\r').put((byte) '\n').flip();
        return b;
    }

    private void onResponseWritten() {
        exchange = null;
        deferred = false;
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
        headTimerStarted = false;
        deadline = loop.clock() + idleNanos;
        if (!inputClosed) {
            setInterest(interest | SelectionKey.OP_READ);
        }
        advance();
    }

    // ---- for a blocking loop -----------------------------------------------------------------

    /** When the current wait (for bytes, or in the admission queue) times out; see {@link #checkTimeout}. */
    long deadline() {
        return deadline;
    }

    /** Whether the loop should read now: the connection waits for request or lingering bytes. */
    boolean wantsInput() {
        return (state == READ_HEAD || state == READ_BODY || state == LINGER) && (interest & SelectionKey.OP_READ) != 0;
    }

    /**
     * Handling a request and still reading (to buffer pipelined bytes, and to notice a client that
     * leaves during a long response).
     */
    boolean readsWhileHandling() {
        return state == HANDLING && (interest & SelectionKey.OP_READ) != 0 && !inputClosed;
    }

    /**
     * The first bytes of a request, read by a blocking loop into its own small array while this
     * connection held no buffer: an idle connection then costs no pooled buffer while it waits.
     * {@code n} is the count read, -1 at the end of the stream.
     */
    void onFirstBytes(byte[] src, int n) {
        if (n < 0) {
            onEof();
            return;
        }
        if (in == null) {
            in = loop.inPool.acquire();
            reqStart = 0;
        }
        in.put(src, 0, n); // n is far below a pooled buffer's size
        loop.counters.bytesIn(n);
        advance();
    }

    /** Holds an input buffer (bytes of a request, or room being read into). */
    boolean holdsInput() {
        return in != null;
    }

    /** Waiting in the admission queue, until {@link #deadline}. */
    boolean queued() {
        return state == QUEUED;
    }

    /** Between requests with nothing buffered: closing now loses nothing. */
    boolean idle() {
        return state == READ_HEAD && !parser.started() && (in == null || in.position() == reqStart) && outHead == null;
    }

    boolean isClosed() {
        return state == CLOSED;
    }

    // ---- closing ----------------------------------------------------------------------------

    private void startLinger() {
        try {
            ch.shutdownOutput();
        } catch (IOException e) {
            close();
            return;
        }
        state = LINGER;
        server.lingerStarted();
        deadline = System.nanoTime() + LINGER_NANOS;
        setInterest(SelectionKey.OP_READ);
        drainLinger();
    }

    /** Reads and drops what the client still sends, so closing does not reset the answer away. */
    private void drainLinger() {
        if (in == null) {
            in = loop.inPool.acquire();
        }
        try {
            while (true) {
                in.clear();
                int n = loop.read(ch, this, in);
                if (n < 0 || (lingerBytes += n) > LINGER_MAX_BYTES) {
                    close();
                    return;
                }
                if (n == 0) {
                    return;
                }
            }
        } catch (IOException e) {
            close();
        }
    }

    /** Graceful shutdown: close now if idle, else after the current response. */
    void drain() {
        if (idle()) {
            close();
        } else {
            closeAfter = true;
        }
    }

    void checkTimeout(long now) {
        if (state == CLOSED) {
            return;
        }
        if (outHead != null) {
            if (now - writeDeadline > 0) {
                loop.counters.timedOut();
                close();
            }
            return;
        }
        if (now - deadline <= 0) {
            return;
        }
        switch (state) {
            case READ_HEAD -> {
                boolean partial = parser.started() || (in != null && in.position() > reqStart);
                loop.counters.timedOut();
                if (partial) {
                    reject(408, "Request header read timeout");
                } else {
                    close();
                }
            }
            case QUEUED -> {
                if (ticket != null && ticket.abandon(server.admission())) {
                    ticket = null;
                    shed(ServerStats.ShedReason.QUEUE_TIMEOUT);
                }
            }
            case READ_BODY -> {
                loop.counters.timedOut();
                if (deferred) {
                    bodyFailed(new HttpParseException(408, "Request body read timeout"));
                } else {
                    reject(408, "Request body read timeout");
                }
            }
            case LINGER -> close();
            default -> {
                // HANDLING: the handler's time is not limited here
            }
        }
    }

    private void setInterest(int ops) {
        if (ops != interest && state != CLOSED) {
            interest = ops;
            if (key != null && key.isValid()) {
                key.interestOps(ops);
            }
        }
    }

    void close() {
        if (state == CLOSED) {
            return;
        }
        if (state == LINGER) {
            server.lingerEnded();
        }
        boolean wasQueued = state == QUEUED;
        state = CLOSED;
        closed = true;
        if (key != null) {
            key.cancel();
        }
        if (wasQueued && ticket != null) {
            ticket.abandon(server.admission()); // if a grant won the race, granted() passes the slot on
            ticket = null;
        }
        if (!dispatched) {
            releaseSlot(); // never reached its handler: nothing else will give the slot back
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (in != null) {
            loop.inPool.release(in);
            in = null;
        }
        if (outHead != null) {
            loop.outPool.release(outHead);
            outHead = null;
            outBody = null;
        }
        if (batch != null) {
            loop.outPool.release(batch);
            batch = null;
        }
        CompletableFuture<byte[]> bw = bodyWaiter;
        bodyWaiter = null;
        if (bw != null) {
            bw.completeExceptionally(new ClientDisconnectedException("client closed the connection before the request body arrived"));
        }
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
        loop.closed(this);
    }
}
