package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.JsonBindingException;
import dev.brisk.JsonCodec;
import dev.brisk.testing.BriskTestServer;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: {@code bodyAsJson} refuses a non-JSON {@code Content-Type} with 415, puts the codec's where
 * and why into the 400 and the DEBUG log, reads generic types; a route declared with a body type has it bound
 * the same way, and fails {@code Brisk.create} when the app has no codec; a plain handler's missing codec is
 * a 500 logged once.
 */
class JsonBodyTest {
    private static BriskTestServer server;
    private final Logger log = Logger.getLogger("dev.brisk");
    private final List<LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level oldLevel;

    /** Reads a body as its text; "bad" fails with a location, "weird" with a plain exception. */
    static final class TextCodec implements JsonCodec {
        @Override
        public byte[] write(Object value) {
            return ("\"" + value + "\"").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public <T> T read(byte[] json, Class<T> type) {
            String s = new String(json, StandardCharsets.UTF_8);
            if (s.contains("bad")) {
                throw new JsonBindingException("expected a number, found a string", 2, 9, "items[0].qty", null);
            }
            if (s.contains("weird")) {
                throw new IllegalArgumentException("codec internals: com.example.Secret");
            }
            return type.cast(s);
        }
    }

    /** {@code List<String>}, without a library to make it. */
    static final Type LIST_OF_STRING = new ParameterizedType() {
        @Override
        public Type[] getActualTypeArguments() {
            return new Type[] {String.class};
        }

        @Override
        public Type getRawType() {
            return List.class;
        }

        @Override
        public Type getOwnerType() {
            return null;
        }
    };

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.json(new TextCodec());
            cfg.post("/text", ctx -> ctx.text("got " + ctx.bodyAsJson(String.class)));
            cfg.post("/generic", ctx -> ctx.text("got " + ctx.bodyAsJson(LIST_OF_STRING)));
            cfg.post("/typed", String.class, (ctx, body) -> ctx.status(201).text("bound " + body));
            cfg.group("/g", g -> g.put("/typed/{id}", String.class,
                    (ctx, body) -> ctx.text(ctx.pathParam("id") + " bound " + body)));
            cfg.route(dev.brisk.Method.POST, "/typed-generic", LIST_OF_STRING, (ctx, body) -> ctx.text("got " + body));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void listen() {
        oldLevel = log.getLevel();
        log.setLevel(Level.ALL);
        log.addHandler(capture);
    }

    @AfterEach
    void unlisten() {
        log.removeHandler(capture);
        log.setLevel(oldLevel);
    }

    private static HttpResponse<String> post(BriskTestServer s, String path, String contentType, String body) {
        var b = s.request(path).POST(BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return s.send(b.build());
    }

    @Test
    void jsonContentTypesAndAnAbsentOneAreRead() {
        for (String type : new String[] {"application/json", "application/json; charset=utf-8", "APPLICATION/JSON",
                "application/merge-patch+json", "application/vnd.api+json;v=2", null}) {
            HttpResponse<String> r = post(server, "/text", type, "hello");
            assertThat(r.statusCode()).as(type).isEqualTo(200);
            assertThat(r.body()).isEqualTo("got hello");
        }
    }

    @Test
    void anotherContentTypeIs415BeforeTheBodyIsRead() {
        for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "application/jsonx",
                "json", "application/xml; charset=utf-8"}) {
            HttpResponse<String> r = post(server, "/text", type, "hello");
            assertThat(r.statusCode()).as(type).isEqualTo(415);
            assertThat(r.body()).isEqualTo("Request body must be JSON (application/json), not " + type);
        }
    }

    @Test
    void aBindingErrorSaysWhereAndWhyInThe400AndAtDebug() {
        HttpResponse<String> r = post(server, "/text", "application/json", "bad");
        assertThat(r.statusCode()).isEqualTo(400);
        String expected = "Request body is not valid JSON for String: line 2, column 9 (field items[0].qty):"
                + " expected a number, found a string";
        assertThat(r.body()).isEqualTo(expected);
        assertThat(records).anySatisfy(rec -> {
            assertThat(rec.getLevel()).isEqualTo(Level.FINE);
            assertThat(rec.getMessage()).isEqualTo(expected + " (POST /text)");
        });
    }

    @Test
    void aCodecsPlainExceptionIsA400WhoseDetailGoesOnlyToTheLog() {
        HttpResponse<String> r = post(server, "/text", "application/json", "weird");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("Request body is not valid JSON for String");
        assertThat(records).anySatisfy(rec -> assertThat(rec.getMessage()).contains("com.example.Secret"));
    }

    @Test
    void aGenericTypeTheCodecCannotReadIsTheServersFault() {
        // TextCodec keeps JsonCodec's default read(byte[], Type): plain classes only
        HttpResponse<String> r = post(server, "/generic", "application/json", "[\"a\"]");
        assertThat(r.statusCode()).isEqualTo(500);
    }

    @Test
    void withoutACodecJsonIsA500LoggedOnce() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.post("/in", ctx -> ctx.text("got " + ctx.bodyAsJson(String.class)));
            cfg.get("/out", ctx -> ctx.json("x"));
        })) {
            assertThat(post(s, "/in", "application/json", "{}").statusCode()).isEqualTo(500);
            assertThat(s.get("/out").statusCode()).isEqualTo(500);
            assertThat(post(s, "/in", "application/json", "{}").body()).isEqualTo("Internal Server Error");
            List<LogRecord> loud = records.stream().filter(rec -> rec.getLevel().intValue() >= Level.WARNING.intValue())
                    .toList();
            assertThat(loud).hasSize(1);
            assertThat(loud.get(0).getMessage()).startsWith("no JsonCodec configured: add brisk-jackson and call"
                    + " cfg.json(new JacksonJsonCodec()) (in POST /in)");
        }
    }

    @Test
    void aTypedBodyRouteGetsItsBodyBoundBeforeTheHandler() {
        HttpResponse<String> r = post(server, "/typed", "application/json", "hello");
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.body()).isEqualTo("bound hello");
        HttpResponse<String> g = server.send(server.request("/g/typed/7")
                .PUT(BodyPublishers.ofString("there")).header("Content-Type", "application/json").build());
        assertThat(g.statusCode()).isEqualTo(200);
        assertThat(g.body()).isEqualTo("7 bound there");
    }

    @Test
    void aTypedBodyRouteAnswersBindingErrorsLikeBodyAsJson() {
        assertThat(post(server, "/typed", "text/plain", "hello").statusCode()).isEqualTo(415);
        HttpResponse<String> bad = post(server, "/typed", "application/json", "bad");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).startsWith("Request body is not valid JSON for String: line 2, column 9");
        // the generic form reaches the codec's read(byte[], Type), which TextCodec does not implement
        assertThat(post(server, "/typed-generic", "application/json", "[\"a\"]").statusCode()).isEqualTo(500);
    }

    @Test
    void aTypedBodyRouteWithoutACodecFailsCreateNamingTheRoutes() {
        assertThatThrownBy(() -> Brisk.create(cfg -> {
            cfg.get("/plain", ctx -> ctx.text("ok"));
            cfg.post("/todos", String.class, (ctx, body) -> ctx.text(body));
        })).isInstanceOf(IllegalStateException.class)
                .hasMessage("no JsonCodec configured, but route POST /todos binds a JSON body: add brisk-jackson"
                        + " and call cfg.json(new JacksonJsonCodec())");
        assertThatThrownBy(() -> Brisk.create(cfg -> {
            cfg.patch("/a", String.class, (ctx, body) -> ctx.text(body));
            cfg.group("/api", g -> g.post("/b", String.class, (ctx, body) -> ctx.text(body)));
        })).isInstanceOf(IllegalStateException.class)
                .hasMessage("no JsonCodec configured, but routes PATCH /a, POST /api/b bind a JSON body:"
                        + " add brisk-jackson and call cfg.json(new JacksonJsonCodec())");
        // the same app with a codec is created; without any typed route, no codec is needed to create one
        Brisk.create(cfg -> {
            cfg.json(new TextCodec());
            cfg.post("/todos", String.class, (ctx, body) -> ctx.text(body));
        });
        Brisk.create(cfg -> cfg.post("/in", ctx -> ctx.text("got " + ctx.bodyAsJson(String.class))));
    }
}
