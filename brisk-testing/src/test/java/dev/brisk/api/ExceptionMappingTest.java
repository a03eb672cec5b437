package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.HttpException;
import dev.brisk.testing.BriskTestServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Exception handlers, HttpException statuses, the 500 fallback and status error handlers. */
class ExceptionMappingTest {
    private static BriskTestServer server;

    static class TeapotException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TeapotException(String message) {
            super(message);
        }
    }

    static class SpecialStateException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        SpecialStateException(String message) {
            super(message);
        }
    }

    static class BrokenHandlerException extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.json(new FlatJsonCodec());
            cfg.exception(TeapotException.class, (e, ctx) ->
                    ctx.status(418).header("X-Mapped", "teapot").text("mapped: " + e.getMessage()));
            cfg.exception(BrokenHandlerException.class, (e, ctx) -> {
                ctx.status(409).text("half-written");
                throw new IllegalStateException("the exception handler failed too");
            });
            cfg.exception(IOException.class, (e, ctx) -> ctx.status(502).text("io: " + e.getMessage()));

            cfg.get("/teapot", ctx -> {
                ctx.header("X-Before-Throw", "lost").text("partial body");
                throw new TeapotException("short and stout");
            });
            cfg.get("/checked", ctx -> {
                throw new IOException("upstream down");
            });
            cfg.get("/broken-handler", ctx -> {
                throw new BrokenHandlerException();
            });
            cfg.get("/unhandled", ctx -> {
                ctx.header("X-Before-Throw", "lost").text("partial body");
                throw new UnsupportedOperationException("secret detail: password=hunter2");
            });
            cfg.get("/error", ctx -> {
                throw new AssertionError("an Error, not an Exception: secret");
            });
            cfg.get("/http/{kind}", ctx -> {
                throw switch (ctx.pathParam("kind")) {
                    case "bad-request" -> new HttpException.BadRequest("bad input");
                    case "unauthorized" -> new HttpException.Unauthorized("who are you");
                    case "forbidden" -> new HttpException.Forbidden("not you");
                    case "not-found" -> new HttpException.NotFound("no such thing");
                    case "conflict" -> new HttpException.Conflict("already there");
                    case "too-large" -> new HttpException.PayloadTooLarge("too big");
                    case "media-type" -> new HttpException.UnsupportedMediaType("xml please");
                    case "unprocessable" -> new HttpException.UnprocessableContent("nonsense");
                    case "unavailable" -> new HttpException.ServiceUnavailable("come back later");
                    case "custom" -> new HttpException(429, "slow down");
                    case "null-message" -> new HttpException(410, null);
                    default -> new IllegalArgumentException(ctx.pathParam("kind"));
                };
            });
            cfg.use(next -> ctx -> {
                if (ctx.path().equals("/from-middleware")) {
                    throw new TeapotException("thrown by middleware");
                }
                next.handle(ctx);
            });
            cfg.get("/from-middleware", ctx -> ctx.text("never"));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void customExceptionIsMappedAndReplacesWhatTheHandlerHadSet() {
        HttpResponse<String> r = server.get("/teapot");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("mapped: short and stout");
        assertThat(r.headers().firstValue("X-Mapped")).hasValue("teapot");
        assertThat(r.headers().firstValue("X-Before-Throw")).isEmpty();
    }

    @Test
    void checkedExceptionsCanBeMapped() {
        HttpResponse<String> r = server.get("/checked");
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).isEqualTo("io: upstream down");
    }

    @Test
    void exceptionThrownByMiddlewareIsMapped() {
        HttpResponse<String> r = server.get("/from-middleware");
        assertThat(r.statusCode()).isEqualTo(418);
        assertThat(r.body()).isEqualTo("mapped: thrown by middleware");
    }

    @ParameterizedTest
    @CsvSource({
            "bad-request, 400, bad input",
            "unauthorized, 401, who are you",
            "forbidden, 403, not you",
            "not-found, 404, no such thing",
            "conflict, 409, already there",
            "too-large, 413, too big",
            "media-type, 415, xml please",
            "unprocessable, 422, nonsense",
            "unavailable, 503, come back later",
            "custom, 429, slow down",
    })
    void httpExceptionsAnswerWithTheirStatusAndMessage(String kind, int status, String message) {
        HttpResponse<String> r = server.get("/http/" + kind);
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.body()).isEqualTo(message);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void httpExceptionWithoutMessageHasAnEmptyBody() {
        HttpResponse<String> r = server.get("/http/null-message");
        assertThat(r.statusCode()).isEqualTo(410);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void httpExceptionRefusesNonErrorStatuses() {
        assertThatThrownBy(() -> new HttpException(200, "ok")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HttpException(399, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HttpException(600, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new HttpException(599, "x").status()).isEqualTo(599);
        assertThat(new HttpException.Conflict("c").status()).isEqualTo(409);
    }

    @Test
    void unhandledExceptionIs500WithoutLeakingItsMessage() {
        HttpResponse<String> r = server.get("/unhandled");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Server Error").doesNotContain("hunter2", "secret");
        assertThat(r.headers().firstValue("X-Before-Throw")).isEmpty();
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");

        HttpResponse<String> other = server.get("/http/something-else");
        assertThat(other.statusCode()).isEqualTo(500);
        assertThat(other.body()).isEqualTo("Internal Server Error");
    }

    @Test
    void thrownErrorIs500AndTheServerKeepsServing() {
        HttpResponse<String> r = server.get("/error");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Server Error");
        assertThat(server.get("/teapot").statusCode()).isEqualTo(418);
    }

    @Test
    void exceptionHandlerThatThrowsGives500() {
        HttpResponse<String> r = server.get("/broken-handler");
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).isEqualTo("Internal Server Error").doesNotContain("half-written");
    }

    @Test
    void closestSuperclassHandlerWins() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.exception(RuntimeException.class, (e, ctx) -> ctx.status(500).text("runtime: " + e.getMessage()));
            cfg.exception(IllegalStateException.class, (e, ctx) ->
                    ctx.status(409).text("state(" + e.getClass().getSimpleName() + "): " + e.getMessage()));
            cfg.get("/ise", ctx -> {
                throw new IllegalStateException("plain");
            });
            cfg.get("/special", ctx -> {
                throw new SpecialStateException("sub");
            });
            cfg.get("/iae", ctx -> {
                throw new IllegalArgumentException("arg");
            });
            cfg.get("/checked", ctx -> {
                throw new IOException("not a runtime exception");
            });
        })) {
            for (int i = 0; i < 2; i++) { // the second round goes through the resolved-handler cache
                assertThat(s.get("/ise").body()).isEqualTo("state(IllegalStateException): plain");
                HttpResponse<String> special = s.get("/special");
                assertThat(special.statusCode()).isEqualTo(409);
                assertThat(special.body()).isEqualTo("state(SpecialStateException): sub");
                assertThat(s.get("/iae").body()).isEqualTo("runtime: arg");
                HttpResponse<String> checked = s.get("/checked");
                assertThat(checked.statusCode()).isEqualTo(500);
                assertThat(checked.body()).isEqualTo("Internal Server Error");
            }
        }
    }

    @Test
    void moreSpecificHandlerRegisteredLaterStillWinsForItsType() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.exception(SpecialStateException.class, (e, ctx) -> ctx.status(422).text("special"));
            cfg.exception(IllegalStateException.class, (e, ctx) -> ctx.status(409).text("state"));
            cfg.get("/special", ctx -> {
                throw new SpecialStateException("sub");
            });
            cfg.get("/ise", ctx -> {
                throw new IllegalStateException("plain");
            });
        })) {
            assertThat(s.get("/special").body()).isEqualTo("special");
            assertThat(s.get("/ise").body()).isEqualTo("state");
        }
    }

    // ---- error handlers by status -----------------------------------------------------------

    @Test
    void errorHandlerReplacesThe404Body() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.json(new FlatJsonCodec());
            cfg.error(404, ctx -> ctx.json(Map.of("error", "not found: " + ctx.path())));
            cfg.get("/thing/{id}", ctx -> {
                if (!ctx.pathParam("id").equals("1")) {
                    throw new HttpException.NotFound("no thing " + ctx.pathParam("id"));
                }
                ctx.text("thing 1");
            });
            cfg.get("/explicit-404", ctx -> ctx.status(404).text("handler's own 404"));
        })) {
            HttpResponse<String> unknown = s.get("/nowhere");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(unknown.body()).isEqualTo("{\"error\":\"not found: /nowhere\"}");

            HttpResponse<String> thrown = s.get("/thing/2");
            assertThat(thrown.statusCode()).isEqualTo(404);
            assertThat(thrown.body()).isEqualTo("{\"error\":\"not found: /thing/2\"}");

            HttpResponse<String> set = s.get("/explicit-404");
            assertThat(set.statusCode()).isEqualTo(404);
            assertThat(set.body()).isEqualTo("{\"error\":\"not found: /explicit-404\"}");

            assertThat(s.get("/thing/1").body()).isEqualTo("thing 1");
        }
    }

    @Test
    void errorHandlerFor500ReplacesTheDefaultAnswer() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.error(500, ctx -> ctx.html("<h1>Oops</h1>"));
            cfg.get("/boom", ctx -> {
                throw new IllegalStateException("boom");
            });
        })) {
            HttpResponse<String> r = s.get("/boom");
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).isEqualTo("<h1>Oops</h1>");
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        }
    }

    @Test
    void errorHandlerFor405KeepsTheAllowHeader() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.error(405, ctx -> ctx.text("use another method"));
            cfg.post("/only-post", ctx -> ctx.text("posted"));
        })) {
            HttpResponse<String> r = s.get("/only-post");
            assertThat(r.statusCode()).isEqualTo(405);
            assertThat(r.body()).isEqualTo("use another method");
            assertThat(r.headers().firstValue("Allow")).hasValue("POST, OPTIONS");
        }
    }

    @Test
    void exceptionMappedToAStatusThenGoesThroughThatStatusErrorHandler() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.exception(TeapotException.class, (e, ctx) -> ctx.status(418).text("mapped"));
            cfg.error(418, ctx -> ctx.text("error page for " + ctx.status()));
            cfg.get("/t", ctx -> {
                throw new TeapotException("x");
            });
        })) {
            HttpResponse<String> r = s.get("/t");
            assertThat(r.statusCode()).isEqualTo(418);
            assertThat(r.body()).isEqualTo("error page for 418");
        }
    }

    @Test
    void errorHandlerThatThrowsGives500() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.error(404, ctx -> {
                ctx.text("about to fail");
                throw new IllegalStateException("error handler broke: secret");
            });
            cfg.get("/ok", ctx -> ctx.text("ok"));
        })) {
            HttpResponse<String> r = s.get("/missing");
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).isEqualTo("Internal Server Error");
            assertThat(s.get("/ok").body()).isEqualTo("ok");
        }
    }

    @Test
    void errorHandlerStatusMustBeValid() {
        assertThatThrownBy(() -> BriskTestServer.start(cfg -> cfg.error(99, ctx -> { })))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BriskTestServer.start(cfg -> cfg.error(600, ctx -> { })))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void allowHeaderSurvivesAUserHttpExceptionHandler() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.exception(HttpException.class, (e, ctx) -> ctx.status(e.status()).text("error: " + e.getMessage()));
            cfg.post("/only-post", ctx -> ctx.text("posted"));
        })) {
            HttpResponse<String> r = s.get("/only-post");
            assertThat(r.statusCode()).isEqualTo(405);
            assertThat(r.body()).isEqualTo("error: Method Not Allowed");
            // observed: no Allow header (RFC 9110 15.5.6: a 405 MUST carry Allow)
            assertThat(r.headers().firstValue("Allow")).hasValue("POST, OPTIONS");
        }
    }
}
