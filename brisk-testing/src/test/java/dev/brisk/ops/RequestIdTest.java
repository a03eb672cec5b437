package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.StaticResponse;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Request ids over real sockets: kept when valid, replaced when not, echoed only when asked. */
class RequestIdTest {
    /** What {@code RequestIds.generate()} makes: a per-process hex prefix and a hex counter. */
    private static final String GENERATED = "[0-9a-f]{12}-[0-9a-f]+";

    private static BriskTestServer start(boolean echo, Consumer<BriskConfig> more) {
        return BriskTestServer.start(cfg -> {
            cfg.options().requestIds(echo).shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/id", ctx -> ctx.text(ctx.requestId()));
            cfg.get("/twice", ctx -> ctx.text(ctx.requestId() + " " + ctx.requestId()));
            cfg.fastGet("/health", StaticResponse.text("OK"));
            more.accept(cfg);
        });
    }

    private static HttpResponse<String> get(BriskTestServer s, String path, String requestId) {
        return s.send(s.request(path).header("X-Request-Id", requestId).GET().build());
    }

    @Test
    void aValidIncomingIdIsEchoedUnchangedAndIsTheContextsId() {
        try (BriskTestServer s = start(true, cfg -> { })) {
            for (String id : List.of("abc-123", "0af7651916cd43dd8448eb211c80319c", "svc.a:1/x+y=@z_Q",
                    "x".repeat(128))) {
                HttpResponse<String> r = get(s, "/id", id);
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(id);
                assertThat(r.headers().allValues("X-Request-Id")).containsExactly(id);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a\tb", "quote\"d", "semi;colon", "%0d%0aSet-Cookie:%20x=1", "<script>"})
    void anInvalidIdIsReplacedByAGeneratedOne(String bad) {
        try (BriskTestServer s = start(true, cfg -> { }); RawConnection c = s.raw()) {
            c.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + bad + "\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("X-Request-Id")).matches(GENERATED).isEqualTo(r.body());
        }
    }

    @Test
    void aTooLongIdIsReplaced() {
        try (BriskTestServer s = start(true, cfg -> { })) {
            HttpResponse<String> r = get(s, "/id", "x".repeat(129));
            assertThat(r.headers().firstValue("X-Request-Id")).get().asString().matches(GENERATED);
            assertThat(r.body()).isEqualTo(r.headers().firstValue("X-Request-Id").orElseThrow());
        }
    }

    @Test
    void nonAsciiIsReplaced() {
        try (BriskTestServer s = start(true, cfg -> { }); RawConnection c = s.raw()) {
            c.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: caf".getBytes(StandardCharsets.ISO_8859_1));
            c.send("é-1\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            RawConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("X-Request-Id")).matches(GENERATED).isEqualTo(r.body());
        }
    }

    @Test
    void crOrLfInsideTheValueIsRefusedByTheParserAndNeverEchoed() {
        try (BriskTestServer s = start(true, cfg -> { })) {
            for (String bad : List.of("abc\rSet-Cookie: x=1", "abc\nSet-Cookie: x=1")) {
                try (RawConnection c = s.raw()) {
                    c.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + bad + "\r\n\r\n");
                    RawConnection.Response r = c.read();
                    assertThat(r.status()).isEqualTo(400);
                    assertThat(r.header("X-Request-Id")).as("the refusal carries a fresh id").matches(GENERATED);
                    assertThat(r.headers()).doesNotContainKey("set-cookie");
                }
            }
            // a second header line is just another header: only the id's own value is echoed
            try (RawConnection c = s.raw()) {
                c.send("GET /id HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\r\nSet-Cookie: x=1\r\n\r\n");
                RawConnection.Response r = c.read();
                assertThat(r.header("X-Request-Id")).isEqualTo("abc");
                assertThat(r.headers()).doesNotContainKey("set-cookie");
            }
        }
    }

    @Test
    void withoutAnIdOneIsGeneratedOncePerRequest() {
        try (BriskTestServer s = start(true, cfg -> { })) {
            HttpResponse<String> r = s.get("/twice");
            String id = r.headers().firstValue("X-Request-Id").orElseThrow();
            assertThat(id).matches(GENERATED);
            assertThat(r.body()).isEqualTo(id + " " + id);
        }
    }

    @Test
    void generatedIdsAreUnique() throws Exception {
        try (BriskTestServer s = start(true, cfg -> { })) {
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                ids.add(s.get("/id").headers().firstValue("X-Request-Id").orElseThrow());
            }
            List<CompletableFuture<HttpResponse<String>>> parallel = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                parallel.add(s.client().sendAsync(s.request("/id").GET().build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> f : parallel) {
                ids.add(f.get().body());
            }
            assertThat(ids).hasSize(400).allMatch(id -> id.matches(GENERATED));
        }
    }

    @Test
    void everyKindOfResponseCarriesTheId() throws Exception {
        try (BriskTestServer s = start(true, cfg -> {
            cfg.get("/boom", ctx -> {
                throw new IllegalStateException("boom");
            });
            cfg.get("/own", ctx -> ctx.header("X-Request-Id", "set-by-handler").text("own"));
        })) {
            assertThat(get(s, "/missing", "m-1").headers().allValues("X-Request-Id")).containsExactly("m-1");
            assertThat(get(s, "/boom", "b-1").headers().allValues("X-Request-Id")).containsExactly("b-1");
            HttpResponse<String> post = s.send(s.request("/id").header("X-Request-Id", "p-1")
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().allValues("X-Request-Id")).containsExactly("p-1");
            assertThat(get(s, "/own", "o-1").headers().allValues("X-Request-Id"))
                    .as("a handler's own header wins, and is not doubled").containsExactly("set-by-handler");

            // fast-static routes too, GET and HEAD, with the body intact
            HttpResponse<String> fast = get(s, "/health", "f-1");
            assertThat(fast.body()).isEqualTo("OK");
            assertThat(fast.headers().allValues("X-Request-Id")).containsExactly("f-1");
            assertThat(s.get("/health").headers().firstValue("X-Request-Id")).get().asString().matches(GENERATED);
            try (RawConnection c = s.raw()) {
                c.send("HEAD /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: h-1\r\n\r\n"
                        + "GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: h-2\r\n\r\n");
                RawConnection.Response head = c.read(true);
                assertThat(head.header("X-Request-Id")).isEqualTo("h-1");
                assertThat(head.header("Content-Length")).isEqualTo("2");
                RawConnection.Response next = c.read();
                assertThat(next.header("X-Request-Id")).isEqualTo("h-2");
                assertThat(next.body()).isEqualTo("OK");
            }
        }
    }

    @Test
    void aShedRequestCarriesItsId() throws Exception {
        LoadSheddingTest.Gate gate = new LoadSheddingTest.Gate();
        try (BriskTestServer s = start(true, cfg -> {
            cfg.options().maxConcurrentRequests(1).requestQueueSize(0);
            cfg.get("/slow", ctx -> {
                gate.pass();
                ctx.text("done");
            });
        })) {
            CompletableFuture<HttpResponse<String>> first =
                    s.client().sendAsync(s.request("/slow").GET().build(), HttpResponse.BodyHandlers.ofString());
            for (int i = 0; i < 500 && gate.entered.get() < 1; i++) {
                Thread.sleep(10);
            }
            assertThat(gate.entered.get()).as("the first request holds the only slot").isEqualTo(1);
            HttpResponse<String> shed = get(s, "/slow", "shed-1");
            assertThat(shed.statusCode()).isEqualTo(503);
            assertThat(shed.headers().allValues("X-Request-Id")).containsExactly("shed-1");
            assertThat(shed.headers().firstValue("Retry-After")).contains("1");
            gate.release.countDown();
            assertThat(first.get().statusCode()).isEqualTo(200);
        }
    }

    @Test
    void turnedOffNothingIsEchoedButTheContextStillHasTheId() {
        AtomicInteger calls = new AtomicInteger();
        try (BriskTestServer s = start(false, cfg -> cfg.get("/count", ctx -> ctx.text("" + calls.incrementAndGet())))) {
            HttpResponse<String> r = get(s, "/id", "abc-123");
            assertThat(r.body()).isEqualTo("abc-123");
            assertThat(r.headers().firstValue("X-Request-Id")).isEmpty();

            HttpResponse<String> invalid = get(s, "/id", "a b");
            assertThat(invalid.body()).matches(GENERATED);
            assertThat(invalid.headers().firstValue("X-Request-Id")).isEmpty();

            assertThat(s.get("/twice").body()).matches(GENERATED + " " + GENERATED)
                    .satisfies(b -> assertThat(b.split(" ")[0]).isEqualTo(b.split(" ")[1]));
            assertThat(get(s, "/health", "f-1").headers().firstValue("X-Request-Id")).isEmpty();
            assertThat(get(s, "/missing", "m-1").headers().firstValue("X-Request-Id")).isEmpty();
            assertThat(s.get("/count").headers().firstValue("X-Request-Id")).isEmpty();
        }
    }
}
