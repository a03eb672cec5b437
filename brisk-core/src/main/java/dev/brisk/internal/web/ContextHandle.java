package dev.brisk.internal.web;

import dev.brisk.Context;
import dev.brisk.Multipart;
import dev.brisk.Part;
import dev.brisk.TlsInfo;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * The {@link Context} the app's code holds for one request: a handle on the {@link Exchange} that works
 * while that request lasts and throws {@link IllegalStateException} from every method once it is over.
 *
 * <p>Why: an HTTP/1.1 connection reuses its exchange for its next request. A context kept past its
 * response (handed to a thread that outlives the handler, stored in a field) would otherwise read the
 * next request, and set headers on its response, which behind a proxy that pools connections is often
 * another user's. The exchange counts its requests ({@link Exchange#generation}); a handle remembers the
 * count it was made with. The price is this one small object per request, made as its handlers start
 * ({@link Exchange#newContext}); Tomcat's {@code discardFacades}, on by default, makes the same trade.
 *
 * <p>Threads: any, as the exchange allows; the check reads a volatile count, so a thread that kept the
 * handle sees the request end.
 */
final class ContextHandle implements Context {
    private final Exchange ex;
    private final int generation;

    ContextHandle(Exchange ex, int generation) {
        this.ex = ex;
        this.generation = generation;
    }

    /**
     * The exchange, while this handle's request lasts, marked in use until {@link Exchange#leaveHandle}:
     * the mark comes before the check, and the connection ends a request by counting it over before it
     * looks for the mark ({@link Exchange#reusable}), so a call that passed the check while the request
     * ended keeps the exchange from being reused under it.
     */
    private Exchange enter() {
        ex.enterHandle();
        if (ex.generation() != generation) {
            ex.leaveHandle();
            throw new IllegalStateException("this request is over: a Context may be used only until its response"
                    + " is written (copy what must outlive the handler)");
        }
        return ex;
    }

    // ---- request ----------------------------------------------------------------------------------------

    @Override
    public String method() {
        Exchange e = enter();
        try {
            return e.method();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String path() {
        Exchange e = enter();
        try {
            return e.path();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String queryString() {
        Exchange e = enter();
        try {
            return e.queryString();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String pathParam(String name) {
        Exchange e = enter();
        try {
            return e.pathParam(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Map<String, String> pathParams() {
        Exchange e = enter();
        try {
            return e.pathParams();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String queryParam(String name) {
        Exchange e = enter();
        try {
            return e.queryParam(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public List<String> queryParams(String name) {
        Exchange e = enter();
        try {
            return e.queryParams(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Map<String, List<String>> queryParamMap() {
        Exchange e = enter();
        try {
            return e.queryParamMap();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String header(String name) {
        Exchange e = enter();
        try {
            return e.header(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public List<String> headers(String name) {
        Exchange e = enter();
        try {
            return e.headers(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public List<String> headerNames() {
        Exchange e = enter();
        try {
            return e.headerNames();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String cookie(String name) {
        Exchange e = enter();
        try {
            return e.cookie(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Map<String, String> cookies() {
        Exchange e = enter();
        try {
            return e.cookies();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public byte[] body() {
        Exchange e = enter();
        try {
            return e.body();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String bodyAsString() {
        Exchange e = enter();
        try {
            return e.bodyAsString();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public InputStream bodyAsStream() {
        Exchange e = enter();
        try {
            return e.bodyAsStream();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public <T> T bodyAsJson(Class<T> type) {
        Exchange e = enter();
        try {
            return e.bodyAsJson(type);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public <T> T bodyAsJson(Type type) {
        Exchange e = enter();
        try {
            return e.bodyAsJson(type);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String formParam(String name) {
        Exchange e = enter();
        try {
            return e.formParam(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public List<String> formParams(String name) {
        Exchange e = enter();
        try {
            return e.formParams(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Map<String, List<String>> formParamMap() {
        Exchange e = enter();
        try {
            return e.formParamMap();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Multipart multipart() {
        Exchange e = enter();
        try {
            return e.multipart();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public List<Part> parts() {
        Exchange e = enter();
        try {
            return e.parts();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String remoteAddress() {
        Exchange e = enter();
        try {
            return e.remoteAddress();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public TlsInfo tls() {
        Exchange e = enter();
        try {
            return e.tls();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String routeTemplate() {
        Exchange e = enter();
        try {
            return e.routeTemplate();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public String requestId() {
        Exchange e = enter();
        try {
            return e.requestId();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Object attribute(String name) {
        Exchange e = enter();
        try {
            return e.attribute(name);
        } finally {
            e.leaveHandle();
        }
    }

    // ---- response: each answers this handle, not the exchange, so a chain of calls stays checked ---------

    @Override
    public Context attribute(String name, Object value) {
        Exchange e = enter();
        try {
            e.attribute(name, value);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context status(int status) {
        Exchange e = enter();
        try {
            e.status(status);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public int status() {
        Exchange e = enter();
        try {
            return e.status();
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Context header(String name, String value) {
        Exchange e = enter();
        try {
            e.header(name, value);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context addHeader(String name, String value) {
        Exchange e = enter();
        try {
            e.addHeader(name, value);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context trailers(java.util.function.Supplier<java.util.Map<String, String>> fields) {
        Exchange e = enter();
        try {
            e.trailers(fields);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context removeHeader(String name) {
        Exchange e = enter();
        try {
            e.removeHeader(name);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public String responseHeader(String name) {
        Exchange e = enter();
        try {
            return e.responseHeader(name);
        } finally {
            e.leaveHandle();
        }
    }

    @Override
    public Context contentType(String contentType) {
        Exchange e = enter();
        try {
            e.contentType(contentType);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context text(String text) {
        Exchange e = enter();
        try {
            e.text(text);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context html(String html) {
        Exchange e = enter();
        try {
            e.html(html);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context json(Object value) {
        Exchange e = enter();
        try {
            e.json(value);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context bytes(byte[] body) {
        Exchange e = enter();
        try {
            e.bytes(body);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context bytes(ByteBuffer body) {
        Exchange e = enter();
        try {
            e.bytes(body);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context stream(InputStream in) {
        Exchange e = enter();
        try {
            e.stream(in);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    @Override
    public Context redirect(String location, int status) {
        Exchange e = enter();
        try {
            e.redirect(location, status);
        } finally {
            e.leaveHandle();
        }
        return this;
    }

    /** Names the exchange and which of its requests this is (tests tell a reused exchange by it). */
    @Override
    public String toString() {
        return "Context of request " + generation + " on " + ex.identity()
                + (ex.generation() == generation ? "" : " (over)");
    }
}
