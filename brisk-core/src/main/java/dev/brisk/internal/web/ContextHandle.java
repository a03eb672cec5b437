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

    /** The exchange, while this handle's request lasts. */
    private Exchange ex() {
        if (ex.generation() != generation) {
            throw new IllegalStateException("this request is over: a Context may be used only until its response"
                    + " is written (copy what must outlive the handler)");
        }
        return ex;
    }

    // ---- request ----------------------------------------------------------------------------------------

    @Override
    public String method() {
        return ex().method();
    }

    @Override
    public String path() {
        return ex().path();
    }

    @Override
    public String queryString() {
        return ex().queryString();
    }

    @Override
    public String pathParam(String name) {
        return ex().pathParam(name);
    }

    @Override
    public Map<String, String> pathParams() {
        return ex().pathParams();
    }

    @Override
    public String queryParam(String name) {
        return ex().queryParam(name);
    }

    @Override
    public List<String> queryParams(String name) {
        return ex().queryParams(name);
    }

    @Override
    public Map<String, List<String>> queryParamMap() {
        return ex().queryParamMap();
    }

    @Override
    public String header(String name) {
        return ex().header(name);
    }

    @Override
    public List<String> headers(String name) {
        return ex().headers(name);
    }

    @Override
    public List<String> headerNames() {
        return ex().headerNames();
    }

    @Override
    public String cookie(String name) {
        return ex().cookie(name);
    }

    @Override
    public Map<String, String> cookies() {
        return ex().cookies();
    }

    @Override
    public byte[] body() {
        return ex().body();
    }

    @Override
    public String bodyAsString() {
        return ex().bodyAsString();
    }

    @Override
    public InputStream bodyAsStream() {
        return ex().bodyAsStream();
    }

    @Override
    public <T> T bodyAsJson(Class<T> type) {
        return ex().bodyAsJson(type);
    }

    @Override
    public <T> T bodyAsJson(Type type) {
        return ex().bodyAsJson(type);
    }

    @Override
    public String formParam(String name) {
        return ex().formParam(name);
    }

    @Override
    public List<String> formParams(String name) {
        return ex().formParams(name);
    }

    @Override
    public Map<String, List<String>> formParamMap() {
        return ex().formParamMap();
    }

    @Override
    public Multipart multipart() {
        return ex().multipart();
    }

    @Override
    public List<Part> parts() {
        return ex().parts();
    }

    @Override
    public String remoteAddress() {
        return ex().remoteAddress();
    }

    @Override
    public TlsInfo tls() {
        return ex().tls();
    }

    @Override
    public String routeTemplate() {
        return ex().routeTemplate();
    }

    @Override
    public String requestId() {
        return ex().requestId();
    }

    @Override
    public Object attribute(String name) {
        return ex().attribute(name);
    }

    // ---- response: each answers this handle, not the exchange, so a chain of calls stays checked ---------

    @Override
    public Context attribute(String name, Object value) {
        ex().attribute(name, value);
        return this;
    }

    @Override
    public Context status(int status) {
        ex().status(status);
        return this;
    }

    @Override
    public int status() {
        return ex().status();
    }

    @Override
    public Context header(String name, String value) {
        ex().header(name, value);
        return this;
    }

    @Override
    public Context addHeader(String name, String value) {
        ex().addHeader(name, value);
        return this;
    }

    @Override
    public String responseHeader(String name) {
        return ex().responseHeader(name);
    }

    @Override
    public Context contentType(String contentType) {
        ex().contentType(contentType);
        return this;
    }

    @Override
    public Context text(String text) {
        ex().text(text);
        return this;
    }

    @Override
    public Context html(String html) {
        ex().html(html);
        return this;
    }

    @Override
    public Context json(Object value) {
        ex().json(value);
        return this;
    }

    @Override
    public Context bytes(byte[] body) {
        ex().bytes(body);
        return this;
    }

    @Override
    public Context bytes(ByteBuffer body) {
        ex().bytes(body);
        return this;
    }

    @Override
    public Context stream(InputStream in) {
        ex().stream(in);
        return this;
    }

    @Override
    public Context redirect(String location, int status) {
        ex().redirect(location, status);
        return this;
    }

    /** Names the exchange and which of its requests this is (tests tell a reused exchange by it). */
    @Override
    public String toString() {
        return "Context of request " + generation + " on " + ex.identity()
                + (ex.generation() == generation ? "" : " (over)");
    }
}
