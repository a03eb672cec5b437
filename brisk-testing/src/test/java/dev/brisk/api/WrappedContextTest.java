package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Context;
import dev.brisk.HttpException;
import dev.brisk.Middleware;
import dev.brisk.testing.BriskTestServer;
import java.io.InputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A middleware may hand {@code next} a Context of its own that delegates to the one it was given: a
 * decorator class or a dynamic proxy. The framework must never assume the Context it gets back is its
 * own implementation, so every answer it makes itself (404, 405, OPTIONS, HEAD, exception and error
 * mapping) works through such a wrapper exactly as without one.
 */
@ParameterizedClass
@EnumSource(WrappedContextTest.Wrapping.class)
class WrappedContextTest {

    /** How the middleware wraps the Context it passes on. */
    enum Wrapping {
        DECORATOR {
            @Override
            Context wrap(Context ctx) {
                return new Decorated(ctx);
            }

            @Override
            boolean isWrapper(Context ctx) {
                return ctx instanceof Decorated;
            }
        },
        PROXY {
            @Override
            Context wrap(Context ctx) {
                return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                        new Delegating(ctx));
            }

            @Override
            boolean isWrapper(Context ctx) {
                return Proxy.isProxyClass(ctx.getClass());
            }
        };

        abstract Context wrap(Context ctx);

        abstract boolean isWrapper(Context ctx);
    }

    static class TeapotException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TeapotException(String message) {
            super(message);
        }
    }

    @Parameter
    Wrapping wrapping;

    private BriskTestServer server;

    @BeforeEach
    void start() {
        Middleware wrapper = next -> ctx -> {
            ctx.header("X-Middleware", "kept"); // set before the handler: error answers keep it
            next.handle(wrapping.wrap(ctx));
        };
        server = BriskTestServer.start(cfg -> {
            cfg.use(wrapper);
            cfg.before(ctx -> ctx.header("X-Before", String.valueOf(wrapping.isWrapper(ctx))));
            cfg.after(ctx -> ctx.header("X-After", "status=" + ctx.status()));
            cfg.exception(TeapotException.class, (e, ctx) -> ctx.status(418).text("mapped: " + e.getMessage()));
            cfg.error(410, ctx -> ctx.text("error page for " + ctx.status()));

            cfg.get("/hello", ctx -> ctx.header("X-Handler", String.valueOf(wrapping.isWrapper(ctx))).text("hello"));
            cfg.get("/users/{id}", ctx -> ctx.text("user " + ctx.pathParam("id")));
            cfg.post("/only-post", ctx -> ctx.text("posted"));
            cfg.get("/http-exception", ctx -> {
                ctx.header("X-Handler", "dropped").text("partial");
                throw new HttpException.Conflict("already there");
            });
            cfg.get("/mapped", ctx -> {
                ctx.header("X-Handler", "dropped");
                throw new TeapotException("short and stout");
            });
            cfg.get("/unknown", ctx -> {
                ctx.header("X-Handler", "dropped").text("partial");
                throw new UnsupportedOperationException("secret detail");
            });
            cfg.get("/gone", ctx -> ctx.status(410).text("gone"));
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(String method, String path) {
        return server.send(server.request(path).method(method, BodyPublishers.noBody()).build());
    }

    private static String header(HttpResponse<String> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void aRouteAnswersThroughTheWrapper() {
        HttpResponse<String> r = server.get("/hello");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("hello");
        assertThat(header(r, "X-Handler")).as("the handler got the wrapper").isEqualTo("true");
        assertThat(header(r, "X-Before")).as("so did the before filter").isEqualTo("true");
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");
        assertThat(header(r, "X-After")).isEqualTo("status=200");

        HttpResponse<String> p = server.get("/users/7");
        assertThat(p.statusCode()).isEqualTo(200);
        assertThat(p.body()).isEqualTo("user 7");
    }

    @Test
    void anUnknownPathIs404() {
        HttpResponse<String> r = server.get("/no/such/path");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).isEqualTo("Not Found");
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");
        assertThat(header(r, "X-After")).isEqualTo("status=404");
    }

    @Test
    void anotherMethodIs405WithAllow() {
        HttpResponse<String> r = server.get("/only-post");
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.body()).isEqualTo("Method Not Allowed");
        assertThat(header(r, "Allow")).isEqualTo("POST, OPTIONS");
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");

        HttpResponse<String> d = send("DELETE", "/hello");
        assertThat(d.statusCode()).isEqualTo(405);
        assertThat(header(d, "Allow")).isEqualTo("GET, HEAD, OPTIONS");
    }

    @Test
    void optionsIs204WithAllow() {
        HttpResponse<String> r = send("OPTIONS", "/only-post");
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(header(r, "Allow")).isEqualTo("POST, OPTIONS");

        HttpResponse<String> p = send("OPTIONS", "/users/1");
        assertThat(p.statusCode()).isEqualTo(204);
        assertThat(header(p, "Allow")).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(header(p, "X-Middleware")).isEqualTo("kept");
    }

    @Test
    void headIsTheGetWithoutItsBody() {
        HttpResponse<String> r = send("HEAD", "/hello");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
        assertThat(header(r, "Content-Length")).isEqualTo("5");
        assertThat(header(r, "X-Handler")).isEqualTo("true");
    }

    @Test
    void anHttpExceptionGivesItsStatusAndDropsTheHandlersHeaders() {
        HttpResponse<String> r = server.get("/http-exception");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.body()).isEqualTo("already there");
        assertThat(header(r, "X-Handler")).isNull();
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");
        assertThat(header(r, "X-Before")).as("set by a before filter: kept").isEqualTo("true");
        assertThat(header(r, "X-After")).isEqualTo("status=409");
    }

    @Test
    void aRegisteredExceptionHandlerMapsTheException() {
        HttpResponse<String> r = server.get("/mapped");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("mapped: short and stout");
        assertThat(header(r, "X-Handler")).isNull();
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");
    }

    @Test
    void anUnknownExceptionIs500() {
        HttpResponse<String> r = server.get("/unknown");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Server Error");
        assertThat(header(r, "X-Handler")).isNull();
        assertThat(header(r, "X-Middleware")).isEqualTo("kept");
    }

    @Test
    void anErrorHandlerAnswersItsStatus() {
        HttpResponse<String> r = server.get("/gone");
        assertThat(r.statusCode()).isEqualTo(410);
        assertThat(r.body()).isEqualTo("error page for 410");
    }

    /** Delegates every call to the wrapped Context, answering itself where the delegate would return itself. */
    private record Delegating(Context target) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                Object result = method.invoke(target, args);
                return result == target ? proxy : result;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** A decorator: every Context method delegated, fluent ones returning the decorator. */
    private static final class Decorated implements Context {
        private final Context d;

        Decorated(Context delegate) {
            this.d = delegate;
        }

        @Override public String method() { return d.method(); }
        @Override public String path() { return d.path(); }
        @Override public String queryString() { return d.queryString(); }
        @Override public String pathParam(String name) { return d.pathParam(name); }
        @Override public Map<String, String> pathParams() { return d.pathParams(); }
        @Override public String queryParam(String name) { return d.queryParam(name); }
        @Override public List<String> queryParams(String name) { return d.queryParams(name); }
        @Override public Map<String, List<String>> queryParamMap() { return d.queryParamMap(); }
        @Override public String header(String name) { return d.header(name); }
        @Override public List<String> headers(String name) { return d.headers(name); }
        @Override public List<String> headerNames() { return d.headerNames(); }
        @Override public String cookie(String name) { return d.cookie(name); }
        @Override public Map<String, String> cookies() { return d.cookies(); }
        @Override public byte[] body() { return d.body(); }
        @Override public String bodyAsString() { return d.bodyAsString(); }
        @Override public InputStream bodyAsStream() { return d.bodyAsStream(); }
        @Override public String formParam(String name) { return d.formParam(name); }
        @Override public List<String> formParams(String name) { return d.formParams(name); }
        @Override public Map<String, List<String>> formParamMap() { return d.formParamMap(); }
        @Override public dev.brisk.Multipart multipart() { return d.multipart(); }
        @Override public List<dev.brisk.Part> parts() { return d.parts(); }
        @Override public <T> T bodyAsJson(Class<T> type) { return d.bodyAsJson(type); }
        @Override public String remoteAddress() { return d.remoteAddress(); }
        @Override public dev.brisk.TlsInfo tls() { return d.tls(); }
        @Override public String routeTemplate() { return d.routeTemplate(); }
        @Override public String requestId() { return d.requestId(); }
        @Override public Object attribute(String name) { return d.attribute(name); }
        @Override public Context attribute(String name, Object value) { d.attribute(name, value); return this; }
        @Override public Context status(int status) { d.status(status); return this; }
        @Override public int status() { return d.status(); }
        @Override public Context header(String name, String value) { d.header(name, value); return this; }
        @Override public Context addHeader(String name, String value) { d.addHeader(name, value); return this; }
        @Override public Context removeHeader(String name) { d.removeHeader(name); return this; }
        @Override public Context trailers(java.util.function.Supplier<Map<String, String>> fields) { d.trailers(fields); return this; }
        @Override public String responseHeader(String name) { return d.responseHeader(name); }
        @Override public Context contentType(String contentType) { d.contentType(contentType); return this; }
        @Override public Context text(String text) { d.text(text); return this; }
        @Override public Context html(String html) { d.html(html); return this; }
        @Override public Context json(Object value) { d.json(value); return this; }
        @Override public Context bytes(byte[] body) { d.bytes(body); return this; }
        @Override public Context bytes(ByteBuffer body) { d.bytes(body); return this; }
        @Override public Context stream(InputStream in) { d.stream(in); return this; }
        @Override public Context redirect(String location, int status) { d.redirect(location, status); return this; }
    }
}
