package dev.brisk.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.HttpException;
import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class JacksonJsonCodecTest {

    record Person(String name, int age, List<String> tags) {
    }

    record Greeting(String message, int nameLength, boolean adult) {
    }

    private final JacksonJsonCodec codec = new JacksonJsonCodec();

    // ---- the codec on its own ---------------------------------------------------------------

    @Test
    void recordRoundTrip() {
        Person ada = new Person("Ada Lovelace", 36, List.of("math", "poetry"));
        byte[] json = codec.write(ada);
        String text = new String(json, StandardCharsets.UTF_8);
        assertThat(text).contains("\"name\":\"Ada Lovelace\"", "\"age\":36", "\"tags\":[\"math\",\"poetry\"]");
        assertThat(codec.read(json, Person.class)).isEqualTo(ada);
    }

    @Test
    void mapRoundTripKeepsOrderAndTypes() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("d", null);
        inner.put("e", true);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put("a", List.of(1, 2, 3));
        map.put("c", inner);
        map.put("s", "text");

        byte[] json = codec.write(map);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .isEqualTo("{\"b\":1,\"a\":[1,2,3],\"c\":{\"d\":null,\"e\":true},\"s\":\"text\"}");
        @SuppressWarnings("unchecked")
        Map<String, Object> back = codec.read(json, Map.class);
        assertThat(back).isEqualTo(map);
        assertThat(back.keySet()).containsExactly("b", "a", "c", "s");
    }

    @Test
    void writesUtf8() {
        byte[] json = codec.write(Map.of("word", "café €"));
        assertThat(json).isEqualTo("{\"word\":\"café €\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(codec.read(json, Map.class)).isEqualTo(Map.of("word", "café €"));
    }

    @Test
    void readsScalarsAndLists() {
        assertThat(codec.read("42".getBytes(StandardCharsets.UTF_8), Integer.class)).isEqualTo(42);
        assertThat(codec.read("\"x\"".getBytes(StandardCharsets.UTF_8), String.class)).isEqualTo("x");
        assertThat(codec.read("[1,\"a\"]".getBytes(StandardCharsets.UTF_8), List.class)).containsExactly(1, "a");
    }

    @Test
    void malformedJsonThrowsARuntimeException() {
        for (String bad : new String[] {"{", "{\"name\":}", "not json", "{\"name\":\"x\",}", ""}) {
            assertThatThrownBy(() -> codec.read(bad.getBytes(StandardCharsets.UTF_8), Person.class))
                    .as(bad).isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void wrongShapeThrowsARuntimeException() {
        assertThatThrownBy(() -> codec.read("{\"name\":\"x\",\"age\":\"old\"}".getBytes(StandardCharsets.UTF_8),
                Person.class)).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> codec.read("[1,2]".getBytes(StandardCharsets.UTF_8), Person.class))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void customMapperIsUsed() {
        JsonMapper mapper = JsonMapper.builder().build();
        JacksonJsonCodec custom = new JacksonJsonCodec(mapper);
        assertThat(custom.mapper()).isSameAs(mapper);
        assertThat(new String(custom.write(List.of(1)), StandardCharsets.UTF_8)).isEqualTo("[1]");
        assertThat(codec.mapper()).isNotNull();
    }

    // ---- end to end -------------------------------------------------------------------------

    @Nested
    class EndToEnd {
        private static BriskTestServer server;

        @BeforeAll
        static void start() {
            server = BriskTestServer.start(cfg -> {
                cfg.json(new JacksonJsonCodec());
                cfg.post("/greet", ctx -> {
                    Person p = ctx.bodyAsJson(Person.class);
                    ctx.status(201).json(new Greeting("Hello, " + p.name() + "!", p.name().length(), p.age() >= 18));
                });
                cfg.post("/echo-map", ctx -> ctx.json(ctx.bodyAsJson(Map.class)));
                cfg.get("/list", ctx -> ctx.json(List.of("a", "b")));
                cfg.get("/fail", ctx -> {
                    throw new HttpException.Conflict("taken");
                });
                cfg.exception(HttpException.class, (e, ctx) ->
                        ctx.status(e.status()).json(Map.of("status", e.status(), "error", e.getMessage())));
                cfg.error(404, ctx -> ctx.json(Map.of("error", "no route for " + ctx.path())));
            });
        }

        @AfterAll
        static void stop() {
            server.close();
        }

        @Test
        void postJsonGetJsonBack() {
            HttpResponse<String> r = server.post("/greet", "application/json",
                    "{\"name\":\"Grace\",\"age\":85,\"tags\":[\"navy\"]}");
            assertThat(r.statusCode()).isEqualTo(201);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
            Greeting g = codec.read(r.body().getBytes(StandardCharsets.UTF_8), Greeting.class);
            assertThat(g).isEqualTo(new Greeting("Hello, Grace!", 5, true));
        }

        @Test
        void nonAsciiJsonBodyRoundTrips() {
            byte[] body = "{\"name\":\"Zoë\",\"age\":7,\"tags\":[]}".getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> r = server.send(server.request("/greet").header("Content-Type", "application/json")
                    .POST(BodyPublishers.ofByteArray(body)).build());
            assertThat(codec.read(r.body().getBytes(StandardCharsets.UTF_8), Greeting.class))
                    .isEqualTo(new Greeting("Hello, Zoë!", 3, false));
        }

        @Test
        void mapBodyIsEchoed() {
            HttpResponse<String> r = server.post("/echo-map", "application/json", "{\"z\":1,\"a\":[true,null]}");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"z\":1,\"a\":[true,null]}");
        }

        @Test
        void jsonResponseOfAList() {
            HttpResponse<String> r = server.get("/list");
            assertThat(r.body()).isEqualTo("[\"a\",\"b\"]");
            assertThat(r.headers().firstValue("Content-Length")).hasValue("9");
        }

        @Test
        void invalidJsonBodyIs400() {
            // the exception handler for HttpException turns the 400 into JSON
            HttpResponse<String> r = server.post("/greet", "application/json", "{\"name\": ");
            assertThat(r.statusCode()).isEqualTo(400);
            Map<?, ?> error = codec.read(r.body().getBytes(StandardCharsets.UTF_8), Map.class);
            assertThat(error.get("status")).isEqualTo(400);
            assertThat((String) error.get("error")).contains("Person");
        }

        @Test
        void wrongShapeIs400() {
            HttpResponse<String> r = server.post("/greet", "application/json", "{\"name\":\"x\",\"age\":\"old\"}");
            assertThat(r.statusCode()).isEqualTo(400);
        }

        @Test
        void emptyBodyIs400() {
            HttpResponse<String> r = server.post("/greet", "application/json", "");
            assertThat(r.statusCode()).isEqualTo(400);
        }

        @Test
        void exceptionAndErrorHandlersAnswerInJson() {
            HttpResponse<String> conflict = server.get("/fail");
            assertThat(conflict.statusCode()).isEqualTo(409);
            assertThat(codec.read(conflict.body().getBytes(StandardCharsets.UTF_8), Map.class))
                    .isEqualTo(Map.of("status", 409, "error", "taken"));

            HttpResponse<String> missing = server.get("/nowhere");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(missing.body()).isEqualTo("{\"error\":\"no route for /nowhere\"}");
        }
    }

    @Test
    void invalidJsonWithoutAnExceptionHandlerIsPlain400() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.json(new JacksonJsonCodec());
            cfg.post("/p", ctx -> ctx.text(ctx.bodyAsJson(Person.class).name()));
        })) {
            HttpResponse<String> ok = s.post("/p", "application/json", "{\"name\":\"Ada\",\"age\":1,\"tags\":[]}");
            assertThat(ok.body()).isEqualTo("Ada");

            HttpResponse<String> bad = s.post("/p", "application/json", "[not json");
            assertThat(bad.statusCode()).isEqualTo(400);
            // issue 15: the parser's where and why are in the answer
            assertThat(bad.body()).startsWith("Request body is not valid JSON for Person: line 1, column ");
            assertThat(bad.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        }
    }
}
