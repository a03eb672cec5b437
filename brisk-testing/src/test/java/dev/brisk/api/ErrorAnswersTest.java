package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Context;
import dev.brisk.HttpException;
import dev.brisk.Middleware;
import dev.brisk.testing.BriskTestServer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: error answers are made inside {@code next}, so a middleware's code after {@code next} runs
 * on them (README's {@code Server-Timing} example), and the framework's own error bodies follow
 * {@code Accept}.
 */
class ErrorAnswersTest {
    private static final List<String> events = new CopyOnWriteArrayList<>();
    private static BriskTestServer server;

    static class TeapotException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TeapotException(String message) {
            super(message);
        }
    }

    /** README's example, recording the status it saw after next. */
    static final Middleware TIMING = next -> ctx -> {
        long t = System.nanoTime();
        ctx.header("X-Request-Tag", "t1"); // before next: kept on error answers
        next.handle(ctx);
        events.add("timing saw " + ctx.status());
        ctx.header("Server-Timing", "app;dur=" + (System.nanoTime() - t) / 1e6);
    };

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.use(TIMING);
            cfg.after(ctx -> events.add("after saw " + ctx.status()));
            cfg.exception(TeapotException.class, (e, ctx) -> ctx.status(418).header("X-Mapped", "yes")
                    .text("mapped: " + e.getMessage()));
            cfg.get("/ok", ctx -> ctx.text("ok"));
            cfg.get("/boom", ctx -> {
                ctx.header("X-Handler", "dropped").text("partial");
                throw new IllegalStateException("secret");
            });
            cfg.get("/conflict", ctx -> {
                throw new HttpException.Conflict("say \"no\"\nthen\tleave \\ \u0001 é");
            });
            cfg.get("/teapot", ctx -> {
                throw new TeapotException("short");
            });
            cfg.get("/assert", ctx -> {
                throw new AssertionError("an Error");
            });
            cfg.post("/only-post", ctx -> ctx.text("posted"));
            cfg.group("/mw-throws", g -> {
                g.use(next -> ctx -> {
                    throw new TeapotException("from middleware");
                });
                g.get("/x", ctx -> ctx.text("never"));
            });
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clear() {
        events.clear();
    }

    private static HttpResponse<String> get(String path, String accept) {
        return server.send(server.request(path).header("Accept", accept).build());
    }

    private static String header(HttpResponse<String> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    // ---- the middleware's code after next ---------------------------------------------------

    @Test
    void serverTimingOnANormalRoute() {
        HttpResponse<String> r = server.get("/ok");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");
        assertThat(events).containsExactly("timing saw 200", "after saw 200");
    }

    @Test
    void serverTimingOnA404() {
        HttpResponse<String> r = server.get("/missing");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).isEqualTo("Not Found");
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");
        assertThat(header(r, "X-Request-Tag")).isEqualTo("t1");
        assertThat(events).containsExactly("timing saw 404", "after saw 404");
    }

    @Test
    void serverTimingOnAHandlerThatThrows() {
        HttpResponse<String> r = server.get("/boom");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Server Error");
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");
        assertThat(header(r, "X-Request-Tag")).isEqualTo("t1");
        assertThat(header(r, "X-Handler")).as("the failed handler's header").isNull();
        assertThat(events).containsExactly("timing saw 500", "after saw 500");

        HttpResponse<String> error = server.get("/assert");
        assertThat(error.statusCode()).isEqualTo(500);
        assertThat(header(error, "Server-Timing")).startsWith("app;dur=");
    }

    @Test
    void serverTimingOnAnExceptionHandlersAnswerAndA405() {
        HttpResponse<String> r = server.get("/teapot");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("mapped: short");
        assertThat(header(r, "X-Mapped")).isEqualTo("yes");
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");

        HttpResponse<String> m = server.get("/only-post");
        assertThat(m.statusCode()).isEqualTo(405);
        assertThat(header(m, "Allow")).isEqualTo("POST, OPTIONS");
        assertThat(header(m, "Server-Timing")).startsWith("app;dur=");
    }

    @Test
    void serverTimingOnA501() {
        HttpResponse<String> r = server.send(server.request("/ok").method("BREW", BodyPublishers.noBody()).build());
        assertThat(r.statusCode()).isEqualTo(501);
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");
        assertThat(header(r, "X-Request-Tag")).isEqualTo("t1");
    }

    @Test
    void anExceptionAMiddlewareThrowsIsStillMappedOutsideTheChain() {
        HttpResponse<String> r = server.get("/mw-throws/x");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("mapped: from middleware");
        // the inner middleware failed, so the outer one's line after next never ran
        assertThat(header(r, "Server-Timing")).isNull();
        assertThat(events).containsExactly("after saw 418");
    }

    @Test
    void aWrapperThatKeepsAttributesToItselfFallsBackToMappingOutsideTheChain() {
        Middleware hiding = next -> ctx -> next.handle(hidingAttributes(ctx));
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(TIMING);
            cfg.use(hiding);
            cfg.get("/boom", ctx -> {
                throw new HttpException.Conflict("taken");
            });
        })) {
            HttpResponse<String> r = s.get("/boom");
            assertThat(r.statusCode()).isEqualTo(409);
            assertThat(r.body()).isEqualTo("taken");
            assertThat(header(r, "Server-Timing")).as("the exception went through the middleware").isNull();
        }
    }

    // ---- bodies negotiated on Accept --------------------------------------------------------

    @Test
    void a404IsJsonWhenTheClientPrefersJson() {
        HttpResponse<String> r = get("/missing", "application/json");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(header(r, "Content-Type")).isEqualTo("application/json");
        assertThat(r.body()).isEqualTo("{\"status\":404,\"error\":\"Not Found\",\"message\":\"Not Found\"}");
        assertThat(header(r, "Server-Timing")).startsWith("app;dur=");
    }

    @Test
    void anAcceptOnSeveralLinesIsReadWhole() {
        // the JDK client sends each header() call as a line of its own: text/html, then application/json
        HttpResponse<String> r = server.send(server.request("/missing").header("Accept", "text/html")
                .header("Accept", "application/json").build());
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(header(r, "Content-Type")).as("JSON, from the second line").isEqualTo("application/json");
    }

    @Test
    void a405And500And501AreJsonToo() {
        HttpResponse<String> m = get("/only-post", "application/json");
        assertThat(m.body()).isEqualTo(
                "{\"status\":405,\"error\":\"Method Not Allowed\",\"message\":\"Method Not Allowed\"}");
        assertThat(header(m, "Allow")).isEqualTo("POST, OPTIONS");

        HttpResponse<String> e = get("/boom", "application/json");
        assertThat(e.statusCode()).isEqualTo(500);
        assertThat(e.body()).isEqualTo(
                "{\"status\":500,\"error\":\"Internal Server Error\",\"message\":\"Internal Server Error\"}");

        HttpResponse<String> n = server.send(server.request("/ok").header("Accept", "application/json")
                .method("BREW", BodyPublishers.noBody()).build());
        assertThat(n.statusCode()).isEqualTo(501);
        assertThat(n.body()).startsWith("{\"status\":501,");
    }

    @Test
    void anHttpExceptionsMessageIsEscaped() {
        HttpResponse<String> r = get("/conflict", "application/json");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.body()).isEqualTo("{\"status\":409,\"error\":\"Conflict\","
                + "\"message\":\"say \\\"no\\\"\\nthen\\tleave \\\\ \\u0001 é\"}");
    }

    @Test
    void plainTextUnlessJsonIsPreferred() {
        for (String accept : List.of("*/*", "text/plain", "text/html,application/xhtml+xml,*/*;q=0.8",
                "application/json;q=0.5, text/plain", "text/*, application/json;q=0.9", "application/json;q=0")) {
            HttpResponse<String> r = get("/missing", accept);
            assertThat(r.body()).as(accept).isEqualTo("Not Found");
            assertThat(header(r, "Content-Type")).as(accept).isEqualTo("text/plain; charset=utf-8");
        }
        for (String accept : List.of("application/json, text/plain, */*", "text/plain;q=0.5, application/json",
                "application/*", "Application/JSON; charset=utf-8", "application/json;q=0.9, */*;q=0.1")) {
            assertThat(get("/missing", accept).body()).as(accept).startsWith("{\"status\":404,");
        }
    }

    @Test
    void errorHandlersStillOverrideTheNegotiatedBody() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(TIMING);
            cfg.error(404, ctx -> ctx.contentType("application/problem+json").bytes(
                    "{\"title\":\"gone fishing\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            cfg.get("/ok", ctx -> ctx.text("ok"));
        })) {
            HttpResponse<String> r = s.send(s.request("/nope").header("Accept", "application/json").build());
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).isEqualTo("{\"title\":\"gone fishing\"}");
            assertThat(header(r, "Content-Type")).isEqualTo("application/problem+json");
            assertThat(header(r, "Server-Timing")).as("error handlers run last, keeping it").startsWith("app;dur=");
        }
    }

    /** A proxy that delegates everything but attributes, which it keeps to itself. */
    private static Context hidingAttributes(Context target) {
        java.util.Map<String, Object> own = new java.util.HashMap<>();
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getName().equals("attribute")) {
                if (args.length == 2) {
                    own.put((String) args[0], args[1]);
                    return proxy;
                }
                return own.get((String) args[0]);
            }
            try {
                Object result = method.invoke(target, args);
                return result == target ? proxy : result;
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class}, h);
    }
}
