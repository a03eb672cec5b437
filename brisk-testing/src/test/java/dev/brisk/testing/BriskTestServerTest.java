package dev.brisk.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Context;
import dev.brisk.Handler;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The test helper itself: every method, request headers, JSON through the app's codec, raw bytes. */
class BriskTestServerTest {
    private static BriskTestServer server;

    /** Echoes what arrived: method, a header, the content type and the body. */
    private static final Handler ECHO = ctx -> ctx.text(ctx.method() + " x-a=" + ctx.header("X-A") + " x-b="
            + ctx.header("X-B") + " type=" + ctx.contentType() + " body=" + ctx.bodyAsString());

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.json(new FlatMapJsonCodec());
            cfg.get("/m", ECHO);
            cfg.head("/m", ctx -> ctx.header("X-Head", "yes").text("not sent"));
            cfg.options("/m", ECHO);
            cfg.delete("/m", ECHO);
            cfg.post("/m", ECHO);
            cfg.put("/m", ECHO);
            cfg.patch("/m", ECHO);
            cfg.post("/json", BriskTestServerTest::echoJson);
            cfg.put("/json", BriskTestServerTest::echoJson);
            cfg.patch("/json", BriskTestServerTest::echoJson);
            cfg.get("/json", ctx -> ctx.json(Map.of("accept", String.valueOf(ctx.header("Accept")), "n", 7)));
            cfg.get("/json/missing", ctx -> ctx.status(404).json(Map.of("error", "no such thing")));
            cfg.get("/bytes", ctx -> ctx.bytes(allBytes()));
            cfg.put("/bytes", ctx -> ctx.contentType(ctx.contentType()).bytes(ctx.body()));
        });
    }

    private static void echoJson(Context ctx) {
        @SuppressWarnings("unchecked")
        Map<String, Object> in = new LinkedHashMap<>(ctx.bodyAsJson(Map.class));
        in.put("method", ctx.method());
        in.put("type", ctx.contentType());
        ctx.json(in);
    }

    private static byte[] allBytes() {
        byte[] b = new byte[256];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyMethodWithHeaders() {
        assertThat(server.get("/m").body()).isEqualTo("GET x-a=null x-b=null type=null body=");
        assertThat(server.get("/m", "X-A", "1", "X-B", "2").body()).isEqualTo("GET x-a=1 x-b=2 type=null body=");
        assertThat(server.options("/m", "X-A", "o").body()).isEqualTo("OPTIONS x-a=o x-b=null type=null body=");
        assertThat(server.delete("/m", "X-A", "d").body()).isEqualTo("DELETE x-a=d x-b=null type=null body=");
        assertThat(server.post("/m", "text/plain", "p").body()).isEqualTo("POST x-a=null x-b=null type=text/plain body=p");
        assertThat(server.post("/m", "text/plain", "p", "X-A", "1").body())
                .isEqualTo("POST x-a=1 x-b=null type=text/plain body=p");
        assertThat(server.put("/m", "text/csv", "a,b", "X-B", "2").body())
                .isEqualTo("PUT x-a=null x-b=2 type=text/csv body=a,b");
        assertThat(server.patch("/m", "text/plain; charset=utf-8", "é").body())
                .isEqualTo("PATCH x-a=null x-b=null type=text/plain; charset=utf-8 body=é");

        HttpResponse<String> head = server.head("/m");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("X-Head")).hasValue("yes");
        assertThat(head.body()).isEmpty();
    }

    @Test
    void headersMustComeInPairs() {
        assertThatThrownBy(() -> server.get("/m", "X-A"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name, value pairs");
    }

    @Test
    void jsonInAndOutThroughTheAppsCodec() {
        for (String method : new String[] {"POST", "PUT", "PATCH"}) {
            Map<String, Object> sent = Map.of("name", "Ada", "age", 36);
            HttpResponse<String> r = switch (method) {
                case "POST" -> server.postJson("/json", sent);
                case "PUT" -> server.putJson("/json", sent, "X-A", "1");
                default -> server.patchJson("/json", sent);
            };
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(server.readJson(r, Map.class)).isEqualTo(
                    Map.of("name", "Ada", "age", 36L, "method", method, "type", "application/json"));
        }
        assertThat(server.getJson("/json", Map.class)).isEqualTo(Map.of("accept", "application/json", "n", 7L));
    }

    @Test
    void getJsonFailsLoudlyOnAnErrorStatus() {
        assertThatThrownBy(() -> server.getJson("/json/missing", Map.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("404")
                .hasMessageContaining("no such thing");
        // readJson reads any status
        assertThat(server.readJson(server.get("/json/missing"), Map.class)).isEqualTo(Map.of("error", "no such thing"));
    }

    @Test
    void jsonWithoutACodecSaysSo() {
        try (var t = BriskTestServer.start(cfg -> cfg.get("/x", ctx -> ctx.text("x")))) {
            assertThat(t.app().jsonCodec()).isNull();
            assertThatThrownBy(() -> t.postJson("/x", Map.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no JsonCodec");
        }
        assertThat(server.app().jsonCodec()).isInstanceOf(FlatMapJsonCodec.class);
    }

    @Test
    void rawBytesBothWays() {
        HttpResponse<byte[]> r = server.getBytes("/bytes");
        assertThat(r.body()).isEqualTo(allBytes());
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/octet-stream");

        byte[] sent = "\u0000\u00ff binary".getBytes(StandardCharsets.ISO_8859_1);
        HttpResponse<byte[]> echoed = server.sendBytes("PUT", "/bytes", "application/x-thing", sent, "X-A", "1");
        assertThat(echoed.body()).isEqualTo(sent);
        assertThat(echoed.headers().firstValue("Content-Type")).hasValue("application/x-thing");

        HttpResponse<byte[]> noBody = server.sendBytes("DELETE", "/m", null, null, "X-A", "z");
        assertThat(new String(noBody.body(), StandardCharsets.UTF_8)).isEqualTo("DELETE x-a=z x-b=null type=null body=");
    }

    @Test
    void anyRequestWithAnyBodyHandler() {
        HttpResponse<byte[]> r = server.send(server.request("/m").header("X-A", "q").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("GET x-a=q x-b=null type=null body=");
    }
}
