package dev.brisk.internal.web;

import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.JsonCodec;
import dev.brisk.Method;
import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.http.HeaderRules;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.RouteMatch;
import dev.brisk.internal.routing.Router;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request and its response: the {@link Context} handlers see. Header strings are made only when
 * asked for, from the head's bytes: a private copy, or, for a request answered on the thread that read
 * it (an event-loop handler, the blocking engine) with no body, the connection's own input buffer and
 * the parser's field offsets, borrowed until the response is handed over (no copy at all). A borrowed
 * exchange is {@link #release released} then, and its request accessors fail loudly afterwards instead
 * of reading the next request's bytes.
 *
 * <p>Threads: created on the I/O thread, then used by exactly one handler thread at a time; the
 * connection reads the response fields only after {@link ExchangeOwner#complete} (a happens-before
 * edge through the loop's task queue).
 */
public final class Exchange implements Context {
    private static final byte[] NO_BODY = new byte[0];
    private static final String[] NO_PARAMS = new String[0];
    private static final byte[] ROOT = {'/'};

    // request
    private final ExchangeOwner owner;
    private byte[] head; // null once released
    private int[] fields;
    private int base; // where the request starts in head: 0 once owned
    private final int headLength;
    private boolean borrowed;
    private final int fieldCount;
    private final String method;
    private final Method methodEnum;
    // the request target in head: path [pathStart, pathEnd), query (pathEnd, targetEnd); strings on demand
    private final int pathStart;
    private final int pathEnd;
    private final int targetEnd;
    private String rawPath;
    private String query;
    private final boolean http11;
    private final boolean bodyDeferred;
    private byte[] body;
    private String path;
    private String[] rawParams = NO_PARAMS; // shared: never written to
    private CompiledRoute route;
    private Handler chain;
    private Dispatch dispatchMode;
    private Rare rare; // what few requests need, made on first use: a smaller exchange for the rest
    private JsonCodec codec;
    private int headerMark;
    private String requestId;

    // response
    private int status = 200;
    private String contentType;
    private List<String> headers;
    private byte[] responseBody = NO_BODY;
    /** An ASCII text body, encoded straight into the output (no byte[] of its own), or null. */
    private String responseText;
    /** A body given as a buffer (shared, never written through), or null: then {@link #responseBody}. */
    private ByteBuffer responseBuffer;
    private InputStream responseStream;

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
                    byte[] body, boolean bodyDeferred) {
        this.owner = owner;
        this.head = head;
        this.base = base;
        this.headLength = headLength;
        this.borrowed = true;
        this.fields = fields;
        this.fieldCount = fieldCount;
        this.method = method;
        this.methodEnum = methodEnum;
        this.pathStart = pathStart;
        this.pathEnd = pathEnd;
        this.targetEnd = targetEnd;
        this.http11 = http11;
        this.body = body;
        this.bodyDeferred = bodyDeferred;
    }

    /** The request state few requests use: kept out of every exchange's own fields. */
    private static final class Rare {
        Map<String, List<String>> queryMap;
        Map<String, String> cookieMap;
        Map<String, Object> attributes;
        String allow;
        RuntimeException bodyFailure;
    }

    private Rare rare() {
        Rare r = rare;
        if (r == null) {
            r = new Rare();
            rare = r;
        }
        return r;
    }

    // ---- engine-facing ----

    /** Copies the borrowed head and field offsets: the exchange may now outlive the buffer and the parser. */
    public void own() {
        if (borrowed) {
            head = Arrays.copyOfRange(head, base, base + headLength);
            fields = Arrays.copyOf(fields, fieldCount * 4);
            base = 0;
            borrowed = false;
        }
    }

    /** Drops a borrowed head once the response is handed over: later request reads fail instead of lying. */
    public void release() {
        if (borrowed) {
            head = null;
        }
    }

    /** The head's bytes; {@link #base} is where the request starts in them. */
    private byte[] head() {
        byte[] h = head;
        if (h == null) {
            throw new IllegalStateException(
                    "this request is over: a Context may be used only until its handler returns");
        }
        return h;
    }

    private String latin1(int from, int to) {
        return Ascii.latin1(head(), base + from, base + to);
    }

    void bind(CompiledRoute route, String[] rawParams, JsonCodec codec) {
        this.route = route;
        this.rawParams = rawParams;
        this.codec = codec;
    }

    void codec(JsonCodec codec) {
        this.codec = codec;
    }

    /** Sets the request body once it has been read (before dispatch). */
    public void setBody(byte[] body) {
        this.body = body;
    }

    ExchangeOwner owner() {
        return owner;
    }

    boolean bodyDeferred() {
        return bodyDeferred;
    }

    /** The Allow value for a 405 or OPTIONS answer. */
    String allow() {
        return rare == null ? null : rare.allow;
    }

    void allow(String allow) {
        rare().allow = allow;
    }

    public Method methodEnum() {
        return methodEnum;
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

    /** Whether the raw path is {@code *} (the asterisk form of OPTIONS), without making its string. */
    boolean asteriskPath() {
        return pathEnd - pathStart == 1 && head()[base + pathStart] == '*';
    }

    /** The exact-path route entry for this request's raw path, found from its bytes; null when none. */
    RouteMatch exactMatch(Router router) {
        return pathEnd > pathStart ? router.findExact(head(), base + pathStart, base + pathEnd)
                : router.findExact(ROOT, 0, 1);
    }

    /** The parameterized route entry for this request's raw path, found from its bytes; null when none. */
    RouteMatch dynamicMatch(Router router) {
        return pathEnd > pathStart ? router.findDynamic(head(), base + pathStart, base + pathEnd)
                : router.findDynamic(ROOT, 0, 1);
    }

    public boolean http11() {
        return http11;
    }

    @Override
    public String routeTemplate() {
        return route == null ? null : route.template();
    }

    /** Remembers what {@code App.route} decided. */
    void routed(Handler chain, Dispatch dispatch) {
        this.chain = chain;
        this.dispatchMode = dispatch;
    }

    Handler chain() {
        return chain;
    }

    /** Whether {@link App#dispatch} runs this exchange's chain on the calling (I/O) thread, to the end. */
    public boolean runsOnCallingThread() {
        return dispatchMode == Dispatch.EVENT_LOOP && !bodyDeferred;
    }

    Dispatch dispatchMode() {
        return dispatchMode;
    }

    /** Whether the concurrency limit must let this request through (its route says so). */
    public boolean neverShed() {
        return route != null && route.neverShed();
    }

    public CompiledRoute route() {
        return route;
    }

    /** Whether the request had a deferred body that nobody read (the connection must then close). */
    public boolean deferredBodyUnread() {
        return bodyDeferred && body == null;
    }

    public List<String> responseHeaders() {
        return headers == null ? List.of() : headers;
    }

    public String responseContentType() {
        return contentType;
    }

    /** The body's bytes (empty when it is a buffer, a stream, or none). */
    public byte[] responseBody() {
        String t = responseText;
        return t != null ? t.getBytes(StandardCharsets.US_ASCII) : responseBody;
    }

    /** The body when it is ASCII text given to {@link #text}: its chars are its bytes. Else null. */
    public String responseText() {
        return responseText;
    }

    /** The body given as a buffer, or null when it is {@link #responseBody()} (or a stream). */
    public ByteBuffer responseBuffer() {
        return responseBuffer;
    }

    public InputStream responseStream() {
        return responseStream;
    }

    /**
     * Adds {@code X-Request-Id} with {@link #requestId()} to the response, unless the handler set that
     * header itself. Called by the engine once the handler is done.
     */
    public void echoRequestId() {
        if (responseHeader(RequestIds.HEADER) == null) {
            addHeader(RequestIds.HEADER, requestId());
        }
    }

    /** Headers set from here on belong to the handler and are dropped if it fails. */
    void markHeaders() {
        headerMark = headers == null ? 0 : headers.size();
    }

    /**
     * Clears the response for an error answer: status, body, content type and the headers the handler
     * set. Headers set before the handler ran (by middleware or before filters: a request id, CORS)
     * stay, so they reach error responses too.
     */
    void resetResponse() {
        status = 200;
        contentType = null;
        if (headers != null) {
            int keep = Math.max(0, Math.min(headerMark, headers.size()));
            headers.subList(keep, headers.size()).clear();
        }
        responseBody = NO_BODY;
        responseText = null;
        responseBuffer = null;
        closeQuietly(responseStream);
        responseStream = null;
    }

    /** Closes a response stream nobody will read, ignoring failures. */
    public static void closeQuietly(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (Exception ignored) {
                // nothing to do: the stream is abandoned
            }
        }
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
        if (route == null) {
            return null;
        }
        List<String> names = route.paramNames();
        for (int i = 0; i < names.size() && i < rawParams.length; i++) {
            if (names.get(i).equals(name)) {
                return UriCodec.decode(rawParams[i], false);
            }
        }
        return null;
    }

    @Override
    public Map<String, String> pathParams() {
        if (route == null || rawParams.length == 0) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        List<String> names = route.paramNames();
        for (int i = 0; i < names.size() && i < rawParams.length; i++) {
            m.put(names.get(i), UriCodec.decode(rawParams[i], false));
        }
        return Collections.unmodifiableMap(m);
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

    private boolean nameIs(int field, String name) {
        byte[] h = head();
        int s = base + fields[field * 4];
        int e = base + fields[field * 4 + 1];
        if (e - s != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            int a = h[s + i];
            int b = name.charAt(i);
            if (a != b) {
                if (a >= 'A' && a <= 'Z') {
                    a += 32;
                }
                if (b >= 'A' && b <= 'Z') {
                    b += 32;
                }
                if (a != b) {
                    return false;
                }
            }
        }
        return true;
    }

    private String value(int field) {
        return latin1(fields[field * 4 + 2], fields[field * 4 + 3]);
    }

    @Override
    public String header(String name) {
        for (int i = 0; i < fieldCount; i++) {
            if (nameIs(i, name)) {
                return value(i);
            }
        }
        return null;
    }

    @Override
    public List<String> headers(String name) {
        List<String> out = null;
        for (int i = 0; i < fieldCount; i++) {
            if (nameIs(i, name)) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                out.add(value(i));
            }
        }
        return out == null ? List.of() : Collections.unmodifiableList(out);
    }

    @Override
    public List<String> headerNames() {
        List<String> names = new ArrayList<>(fieldCount);
        outer:
        for (int i = 0; i < fieldCount; i++) {
            for (int j = 0; j < i; j++) {
                if (nameIs(i, latin1(fields[j * 4], fields[j * 4 + 1]))) {
                    continue outer;
                }
            }
            names.add(latin1(fields[i * 4], fields[i * 4 + 1]));
        }
        return Collections.unmodifiableList(names);
    }

    @Override
    public String cookie(String name) {
        return cookies().get(name);
    }

    @Override
    public Map<String, String> cookies() {
        Map<String, String> m = rare == null ? null : rare.cookieMap;
        if (m == null) {
            m = new LinkedHashMap<>();
            for (String h : headers("Cookie")) {
                int from = 0;
                while (from < h.length()) {
                    int semi = h.indexOf(';', from);
                    int end = semi < 0 ? h.length() : semi;
                    int eq = h.indexOf('=', from);
                    if (eq > from && eq < end) {
                        String n = h.substring(from, eq).trim();
                        String v = h.substring(eq + 1, end).trim();
                        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
                            v = v.substring(1, v.length() - 1);
                        }
                        if (!n.isEmpty()) {
                            m.putIfAbsent(n, v);
                        }
                    }
                    from = end + 1;
                }
            }
            m = Collections.unmodifiableMap(m);
            rare().cookieMap = m;
        }
        return m;
    }

    @Override
    public byte[] body() {
        byte[] b = body;
        if (b == null) {
            if (!bodyDeferred) {
                return NO_BODY;
            }
            if (rare != null && rare.bodyFailure != null) {
                throw rare.bodyFailure; // asking again gives the same answer, never a second read
            }
            try {
                b = owner.awaitDeferredBody(this);
            } catch (RuntimeException e) {
                rare().bodyFailure = e;
                throw e;
            }
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
        return new ByteArrayInputStream(body());
    }

    @Override
    public <T> T bodyAsJson(Class<T> type) {
        JsonCodec c = requireCodec();
        byte[] b = body();
        try {
            return c.read(b, type);
        } catch (RuntimeException e) {
            throw new HttpException.BadRequest("Request body is not valid JSON for " + type.getSimpleName());
        }
    }

    private JsonCodec requireCodec() {
        if (codec == null) {
            throw new IllegalStateException("no JsonCodec configured: add brisk-jackson and call cfg.json(...)");
        }
        return codec;
    }

    @Override
    public String remoteAddress() {
        return owner.remoteAddress();
    }

    @Override
    public String requestId() {
        String id = requestId;
        if (id == null) {
            id = RequestIds.incomingOrNew(head(), base, fields, fieldCount);
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
        Rare r = rare();
        if (r.attributes == null) {
            r.attributes = new HashMap<>();
        }
        r.attributes.put(name, value);
        return this;
    }

    // ---- response ----

    @Override
    public Context status(int status) {
        if (status < 200 || status > 599) {
            // 1xx are interim answers the server sends itself; a final status is 200-599
            throw new IllegalArgumentException("status must be 200-599: " + status);
        }
        this.status = status;
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Context header(String name, String value) {
        HeaderRules.checkName(name);
        HeaderRules.checkValue(value);
        if (name.equalsIgnoreCase("Content-Type")) {
            contentType = value;
            return this;
        }
        if (headers != null) {
            for (int i = headers.size() - 2; i >= 0; i -= 2) {
                if (headers.get(i).equalsIgnoreCase(name)) {
                    headers.remove(i + 1);
                    headers.remove(i);
                }
            }
        }
        return addHeader(name, value);
    }

    @Override
    public Context addHeader(String name, String value) {
        HeaderRules.checkName(name);
        HeaderRules.checkValue(value);
        if (name.equalsIgnoreCase("Content-Type")) {
            contentType = value; // one slot: a response has one content type
            return this;
        }
        if (isFramingHeader(name)) {
            throw new IllegalArgumentException(name + " is set by the server, not by handlers");
        }
        if (headers == null) {
            headers = new ArrayList<>(8);
        }
        headers.add(name);
        headers.add(value);
        return this;
    }

    private static boolean isFramingHeader(String name) {
        return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                || name.equalsIgnoreCase("Connection") || name.equalsIgnoreCase("Date");
    }

    @Override
    public String responseHeader(String name) {
        if (name.equalsIgnoreCase("Content-Type")) {
            return contentType;
        }
        if (headers != null) {
            for (int i = 0; i < headers.size(); i += 2) {
                if (headers.get(i).equalsIgnoreCase(name)) {
                    return headers.get(i + 1);
                }
            }
        }
        return null;
    }

    @Override
    public Context contentType(String contentType) {
        if (contentType != null) {
            HeaderRules.checkValue(contentType);
        }
        this.contentType = contentType;
        return this;
    }

    private Context body(String type, byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("response body must not be null");
        }
        closeQuietly(responseStream);
        responseStream = null;
        contentType = type;
        responseBody = bytes;
        responseText = null;
        responseBuffer = null;
        return this;
    }

    @Override
    public Context text(String text) {
        if (text != null && Ascii.isAscii(text)) {
            body("text/plain; charset=utf-8", NO_BODY);
            responseText = text;
            return this;
        }
        return body("text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Context html(String html) {
        return body("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Context json(Object value) {
        return body("application/json", requireCodec().write(value));
    }

    @Override
    public Context bytes(byte[] bytes) {
        return body(contentType != null ? contentType : "application/octet-stream", bytes);
    }

    @Override
    public Context bytes(ByteBuffer buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException("response body must not be null");
        }
        body(contentType != null ? contentType : "application/octet-stream", NO_BODY);
        responseBuffer = buffer;
        return this;
    }

    @Override
    public Context stream(InputStream in) {
        if (in == null) {
            throw new IllegalArgumentException("stream must not be null");
        }
        closeQuietly(responseStream);
        responseBody = NO_BODY;
        responseText = null;
        responseBuffer = null;
        responseStream = in;
        if (contentType == null) {
            contentType = "application/octet-stream";
        }
        return this;
    }

    @Override
    public Context redirect(String location, int status) {
        if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        header("Location", location);
        status(status);
        return body("text/plain; charset=utf-8", NO_BODY);
    }
}
