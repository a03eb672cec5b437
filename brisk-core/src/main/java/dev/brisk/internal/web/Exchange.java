package dev.brisk.internal.web;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.JsonCodec;
import dev.brisk.Method;
import dev.brisk.internal.routing.CompiledRoute;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One request and its response, the same whichever protocol carried it: the {@link Context} handlers
 * see, and what the connection reads back to write the answer.
 *
 * <p>The request is a head as bytes plus four offsets per header field ({@link RequestHeadState} keeps
 * them, {@link RequestHead} does the lookups), a target given as offsets into the same bytes, and a body. Nothing here knows the wire
 * syntax of HTTP/1.1 beyond that shape (and the {@link #http11} flag the connection reads back), so an
 * HTTP/2 stream can produce exchanges too. Strings are made only when asked for. The head is either a
 * private copy or, for a request answered on the thread that read it (an event-loop handler, the
 * blocking engine) with no body, borrowed from the connection's input buffer and the parser's offsets
 * until the response is handed over (no copy at all). A borrowed exchange is {@link #release released}
 * then, and its request accessors fail loudly afterwards instead of reading the next request's bytes.
 *
 * <p>The response half is {@link ResponseState}. The app records its routing decision here (the route,
 * its raw parameters, the chain and its dispatch), so the connection can see the route before the body
 * is read. Cookie parsing ({@link Cookies}) and the state few requests need ({@link RareRequestState}) live apart:
 * the common request costs this one object.
 *
 * <p>An HTTP/1.1 connection {@link #reuse reuses} its exchange for its next request, once the handler
 * handed it back and its response is written ({@link #over} in between): an event-loop request then
 * allocates only the {@link ContextHandle} its handlers hold (which fails once {@link #over} has run, so
 * a context kept past its response never reaches the next request), and one on another thread copies
 * its head into arrays kept from before ({@link RequestHeadState}).
 *
 * <p>Threads: created on the I/O thread, then used by exactly one handler thread at a time; the
 * connection reads the response fields only after {@link ExchangeOwner#complete} (a happens-before
 * edge through the loop's task queue).
 */
public final class Exchange extends ResponseState {
    private static final String[] NO_PARAMS = new String[0];
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    // request
    private final ExchangeOwner owner;
    private String method;
    private Method methodEnum;
    // the request target in head: path [pathStart, pathEnd), query (pathEnd, targetEnd); strings on demand
    private int pathStart;
    private int pathEnd;
    private int targetEnd;
    private String rawPath;
    private String query;
    private boolean http11;
    private boolean bodyDeferred;
    /** The body as the engine handed it over (before dispatch; for a deferred body, when asked for). */
    private RequestBody requestBody;
    /** Whether the handler holds {@link #requestBody} (from its first use of the body until it returns). */
    private boolean bodyHeld;
    /**
     * Whether the handler has returned ({@link #releaseBody}): a use of the body after that (a response
     * stream, an event callback) relies on the connection's hold, which lasts as long as the Context may
     * be used, instead of taking a hold nothing would give back.
     */
    private boolean handlerDone;
    private byte[] body;
    private String path;
    private String requestId;
    private RareRequestState rare; // what few requests need, made on first use: a smaller exchange for the rest

    // what routing decided
    private String[] rawParams = NO_PARAMS; // an exact route's (never written to) or paramSlots
    /** Where the router writes a parameterized path's values: kept from one request to the next. */
    private String[] paramSlots = NO_PARAMS;
    private CompiledRoute route;
    private Handler chain;
    private Dispatch dispatchMode;
    private RequestServices services;
    /** Runs this exchange's chain on another thread: made by the {@link Dispatcher} once, kept on reuse. */
    Runnable dispatchTask;
    /** Counts the requests this exchange has ended ({@link #over}): a {@link ContextHandle} of an earlier one fails. */
    private volatile int generation;
    /** The handle the app's code holds for the current request ({@link #newContext}), or null before. */
    private Context context;
    /** Calls through a {@link ContextHandle} in progress: an exchange one is in is never reused ({@link #reusable}). */
    private final java.util.concurrent.atomic.AtomicInteger handleCalls = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * A borrowing exchange: call {@link #own} before the head's buffer or the parser is used for anything
     * else, or {@link #release} once the response is handed over.
     *
     * @param head the buffer holding the request head at {@code base}
     * @param fields header offsets relative to {@code base}, four ints per field
     * @param pathStart where the raw path starts, relative to {@code base}
     * @param pathEnd where it ends (== pathStart for an absolute-form target without a path: "/")
     * @param targetEnd where the target ends: a query follows the path when it is beyond {@code pathEnd}
     */
    public Exchange(ExchangeOwner owner, byte[] head, int base, int headLength, int[] fields, int fieldCount,
                    String method, Method methodEnum, int pathStart, int pathEnd, int targetEnd, boolean http11,
                    boolean bodyDeferred) {
        this.owner = owner;
        request(head, base, headLength, fields, fieldCount, method, methodEnum, pathStart, pathEnd, targetEnd, http11,
                bodyDeferred);
    }

    /**
     * This exchange, made new for its connection's next request (the arguments as the constructor's):
     * the request and routing state are replaced, the response emptied. By its owner only, once the
     * previous response is written and no other thread holds the exchange.
     */
    public Exchange reuse(byte[] head, int base, int headLength, int[] fields, int fieldCount, String method,
                          Method methodEnum, int pathStart, int pathEnd, int targetEnd, boolean http11,
                          boolean bodyDeferred) {
        rawPath = null;
        query = null;
        requestBody = null;
        bodyHeld = false;
        handlerDone = false;
        body = null;
        path = null;
        requestId = null;
        rare = null;
        rawParams = NO_PARAMS;
        route = null;
        chain = null;
        dispatchMode = null;
        services = null;
        clearForReuse();
        request(head, base, headLength, fields, fieldCount, method, methodEnum, pathStart, pathEnd, targetEnd, http11,
                bodyDeferred);
        return this;
    }

    /**
     * Makes the {@link Context} the app's code gets for this request: handlers, filters, exception and
     * error handlers all see this one handle, which fails once the request is over. On the handler's
     * thread, as its chain starts.
     */
    Context newContext() {
        Context c = new ContextHandle(this, generation);
        context = c;
        return c;
    }

    /** The handle {@link #newContext} made for the current request (the exchange itself before one was made). */
    Context context() {
        Context c = context;
        return c != null ? c : this;
    }

    /** This exchange object's identity, for {@link ContextHandle#toString}. */
    String identity() {
        return "exchange@" + Integer.toHexString(System.identityHashCode(this));
    }

    /** A {@link ContextHandle} call begins (before its check of {@link #generation}). */
    void enterHandle() {
        handleCalls.incrementAndGet();
    }

    /** A {@link ContextHandle} call has ended. */
    void leaveHandle() {
        handleCalls.decrementAndGet();
    }

    /**
     * After {@link #over}: whether no handle call is in one now, so the exchange may serve the next request.
     * A call that checked its request before {@link #over} counted it would otherwise run on the next one;
     * such an exchange is left to that call and the connection takes a new one.
     */
    public boolean reusable() {
        return handleCalls.get() == 0;
    }

    /** How many requests this exchange has ended: a handle made before the last end fails. */
    int generation() {
        return generation;
    }

    /**
     * As {@link RequestHeadState#over}, and every {@link ContextHandle} of this request fails from now on:
     * a context kept past its response never reaches the connection's next request.
     */
    @Override
    public void over() {
        super.over();
        context = null;
        generation++; // one writer, the connection's loop; the volatile write is what a kept handle reads
    }

    private void request(byte[] head, int base, int headLength, int[] fields, int fieldCount, String method,
                         Method methodEnum, int pathStart, int pathEnd, int targetEnd, boolean http11,
                         boolean bodyDeferred) {
        head(head, base, headLength, fields, fieldCount);
        this.method = method;
        this.methodEnum = methodEnum;
        this.pathStart = pathStart;
        this.pathEnd = pathEnd;
        this.targetEnd = targetEnd;
        this.http11 = http11;
        this.bodyDeferred = bodyDeferred;
    }

    private RareRequestState rare() {
        RareRequestState r = rare;
        if (r == null) {
            r = new RareRequestState();
            rare = r;
        }
        return r;
    }

    // ---- engine-facing ----

    /** Sets the request body, read or being streamed, before dispatch; the connection keeps its own hold. */
    public void setBody(RequestBody body) {
        this.requestBody = body;
    }

    /**
     * The answer is a stream, read after the handler returns: the stored parts of the request's form
     * stay until that stream is closed, since it may be one of them or read from one. The handler's
     * thread, after the chain and before {@link #releaseBody}.
     */
    void holdPartsForAnswer() {
        java.io.InputStream answer = responseStream();
        // the engine's own streams (a file, an event stream, an encoding) never read a part, and the
        // engine tells them by type: they are never wrapped
        if (answer != null && rare != null && rare.form != null
                && !(answer instanceof dev.brisk.internal.files.SizedBody) && !(answer instanceof DrainableBody)) {
            ownedStream(rare.form.holdFor(answer));
        }
    }

    /** The handler is done: it lets go of the body if it used it. The handler's thread, once. */
    public void releaseBody() {
        if (rare != null && rare.form != null) {
            rare.form.release(); // stored parts' memory and files: before the body, whatever happened
        }
        handlerDone = true;
        if (bodyHeld) {
            bodyHeld = false;
            requestBody.release();
        }
    }

    /** Whether the route reads its body as a stream ({@code Route.streamBody}). */
    public boolean streamsBody() {
        return route != null && route.streamBody();
    }

    public Method methodEnum() {
        return methodEnum;
    }

    public boolean http11() {
        return http11;
    }

    /** The path as sent (percent-encoded), made on first use. */
    public String rawPath() {
        String p = rawPath;
        if (p == null) {
            p = pathEnd > pathStart ? latin1(pathStart, pathEnd) : "/";
            rawPath = p;
        }
        return p;
    }

    public CompiledRoute route() {
        return route;
    }

    @Override
    public String routeTemplate() {
        return route == null ? null : route.template();
    }

    /** Whether {@link App#dispatch} runs this exchange's chain on the calling (I/O) thread, to the end. */
    public boolean runsOnCallingThread() {
        return dispatchMode == Dispatch.EVENT_LOOP && !bodyDeferred && !streamsBody();
    }

    /**
     * The CORS fields (name, value...) for an answer the engine gives this request instead of its chain
     * (a body too large or too slow, a request shed): its route's CORS policy's for its {@code Origin},
     * none when the route has no CORS middleware. The thread that refuses it.
     */
    public List<String> refusalHeaders() {
        dev.brisk.Cors cors = services == null ? null : services.cors(route);
        if (cors == null) {
            return List.of();
        }
        try {
            return cors.answerHeaders(headers("Origin"));
        } catch (IllegalStateException released) {
            return List.of(); // the head is gone (a write that failed after the exchange let it go)
        }
    }

    /** Adds {@link #refusalHeaders} to the answer: for the app's own 503s that replace a chain. */
    void addRefusalHeaders() {
        List<String> cors = refusalHeaders();
        for (int i = 0; i < cors.size(); i += 2) {
            header(cors.get(i), cors.get(i + 1));
        }
    }

    /** Whether the concurrency limit must let this request through (its route says so). */
    public boolean neverShed() {
        return route != null && route.neverShed();
    }

    /**
     * The connection cannot switch protocols after all (it closes after this response: a shutdown
     * began): the accepted switch becomes the error answer {@code status}.
     */
    public void declineSwitch(int status, String message) {
        resetResponse();
        ErrorBodies.answer(this, status, message);
    }

    /** Whether the request had a deferred body that nobody read (the connection must then close). */
    public boolean deferredBodyUnread() {
        return bodyDeferred && requestBody == null;
    }

    // ---- app-facing: routing, dispatch, error answers ----

    /** Where the raw path starts in {@link #head()}. */
    int pathFrom() {
        return base() + pathStart;
    }

    /** Where the raw path ends in {@link #head()}; equal to {@link #pathFrom()} when the target has none ("/"). */
    int pathTo() {
        return base() + pathEnd;
    }

    void services(RequestServices services) {
        this.services = services;
    }

    /** Remembers routing's decision for a request no route serves: one of the app's own answers. */
    void routed(Handler chain, Dispatch dispatch) {
        this.chain = chain;
        this.dispatchMode = dispatch;
    }

    /**
     * An array of at least {@code n} slots for the router to write this request's path parameters into,
     * kept for the connection's next request (so that routing allocates nothing).
     */
    String[] paramSlots(int n) {
        String[] s = paramSlots;
        if (s.length < n) {
            s = new String[n];
            paramSlots = s;
        }
        return s;
    }

    /** Remembers routing's decision for a request {@code route} serves. */
    void routed(CompiledRoute route, String[] rawParams) {
        this.route = route;
        this.rawParams = rawParams;
        this.chain = route.chain();
        this.dispatchMode = route.dispatch();
    }

    Handler chain() {
        return chain;
    }

    Dispatch dispatchMode() {
        return dispatchMode;
    }

    boolean bodyDeferred() {
        return bodyDeferred;
    }

    ExchangeOwner owner() {
        return owner;
    }

    // ---- request ----

    @Override
    public String method() {
        return method;
    }

    @Override
    public String path() {
        String p = path;
        if (p == null) {
            p = UriCodec.decode(rawPath(), false);
            path = p;
        }
        return p;
    }

    @Override
    public String queryString() {
        String q = query;
        if (q == null) {
            q = pathEnd < targetEnd ? latin1(pathEnd + 1, targetEnd) : "";
            query = q;
        }
        return q;
    }

    @Override
    public String pathParam(String name) {
        return PathParams.get(route, rawParams, name);
    }

    @Override
    public Map<String, String> pathParams() {
        return PathParams.all(route, rawParams);
    }

    @Override
    public String queryParam(String name) {
        List<String> v = queryParamMap().get(name);
        return v == null ? null : v.get(0);
    }

    @Override
    public List<String> queryParams(String name) {
        return queryParamMap().getOrDefault(name, List.of());
    }

    @Override
    public Map<String, List<String>> queryParamMap() {
        Map<String, List<String>> m = rare == null ? null : rare.queryMap;
        if (m == null) {
            m = UriCodec.parseQuery(queryString());
            rare().queryMap = m;
        }
        return m;
    }

    @Override
    public String cookie(String name) {
        return cookies().get(name);
    }

    @Override
    public Map<String, String> cookies() {
        Map<String, String> m = rare == null ? null : rare.cookieMap;
        if (m == null) {
            m = Cookies.parse(headers("Cookie"));
            rare().cookieMap = m;
        }
        return m;
    }

    /**
     * The body, held by the handler from here until it returns: the one handed over, or for a deferred
     * body the one read now. Null when the request has none.
     */
    private RequestBody heldBody() {
        RequestBody rb = requestBody;
        if (bodyHeld || handlerDone && rb != null) {
            return rb;
        }
        if (rb == null) {
            if (!bodyDeferred) {
                return null;
            }
            if (rare != null && rare.bodyFailure != null) {
                throw rare.bodyFailure; // asking again gives the same answer, never a second read
            }
            try {
                rb = owner.awaitDeferredBody(this);
            } catch (RuntimeException e) {
                rare().bodyFailure = e;
                throw e;
            }
            requestBody = rb;
        }
        if (!rb.retain()) {
            throw new ClientDisconnectedException("client closed the connection: the request body is gone");
        }
        bodyHeld = true;
        return rb;
    }

    @Override
    public byte[] body() {
        byte[] b = body;
        if (b == null) {
            RequestBody rb = heldBody();
            if (rb == null) {
                return NO_BODY;
            }
            b = rb.bytes();
            body = b;
        }
        return b;
    }

    @Override
    public String bodyAsString() {
        return new String(body(), MediaTypes.charset(contentType(), StandardCharsets.UTF_8));
    }

    @Override
    public InputStream bodyAsStream() {
        byte[] b = body;
        if (b != null) {
            return new ByteArrayInputStream(b);
        }
        RequestBody rb = heldBody();
        return rb == null ? new ByteArrayInputStream(NO_BODY) : rb.stream();
    }

    // ---- JSON binding: JsonBodies ----

    @Override
    public <T> T bodyAsJson(Class<T> type) {
        return JsonBodies.read(this, requireCodec(), type);
    }

    @Override
    public <T> T bodyAsJson(Type type) {
        return JsonBodies.read(this, requireCodec(), type);
    }

    private JsonCodec requireCodec() {
        JsonCodec codec = services == null ? null : services.codec();
        if (codec == null) {
            throw new MissingJsonCodec();
        }
        return codec;
    }

    // ---- forms: RequestForm ----

    private dev.brisk.internal.form.RequestForm form() {
        RareRequestState r = rare();
        if (r.form == null) {
            r.form = services == null ? new dev.brisk.internal.form.RequestForm(dev.brisk.FormOptions.DEFAULTS, null)
                    : new dev.brisk.internal.form.RequestForm(services.forms(), services.bodies());
        }
        return r.form;
    }

    @Override
    public String formParam(String name) {
        List<String> v = formParamMap().get(name);
        return v == null ? null : v.get(0);
    }

    @Override
    public List<String> formParams(String name) {
        return formParamMap().getOrDefault(name, List.of());
    }

    @Override
    public Map<String, List<String>> formParamMap() {
        return form().fields(this);
    }

    @Override
    public dev.brisk.Multipart multipart() {
        return form().multipart(this);
    }

    @Override
    public List<dev.brisk.Part> parts() {
        return form().parts(this);
    }

    @Override
    public String remoteAddress() {
        return owner.remoteAddress();
    }

    @Override
    public dev.brisk.TlsInfo tls() {
        return owner.tls();
    }

    @Override
    public String requestId() {
        String id = requestId;
        if (id == null) {
            id = incomingOrNewRequestId();
            requestId = id;
        }
        return id;
    }

    @Override
    public Object attribute(String name) {
        return rare == null || rare.attributes == null ? null : rare.attributes.get(name);
    }

    @Override
    public Context attribute(String name, Object value) {
        if (value == HandlerStart.TOKEN) {
            markHeaders(); // the chain's signal, however the Context was wrapped on its way: not stored
            return this;
        }
        if (value instanceof ChainFailure f) {
            f.mapOnto(this); // the core's exception, answered here: not stored either
            return this;
        }
        if (value instanceof ProtocolSwitch s) {
            if (http11 && owner.canSwitchProtocols()) {
                own(); // the new protocol reads its opening request after this response is written
                switchProtocols(s);
                s.taken();
            }
            return this; // not stored: untaken, the handler answers the refusal itself
        }
        RareRequestState r = rare();
        if (r.attributes == null) {
            r.attributes = new HashMap<>();
        }
        r.attributes.put(name, value);
        return this;
    }

    // ---- response: the rest is ResponseState's ----

    @Override
    public Context json(Object value) {
        return body("application/json", requireCodec().write(value));
    }
}
