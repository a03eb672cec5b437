package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine's own refusals of a request whose head it read whole (a body over the route's limit, a body
 * no memory is free for) follow {@code Accept} as the app's error answers do: JSON when it prefers
 * {@code application/json}, else plain text. A request refused before its head was whole gets plain
 * text whatever it sent, as nothing of it is read for sure.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class RefusalBodiesTest {
    @Parameter
    Engine engine;

    private BriskTestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start() {
        server = Wire.start(engine, (BriskConfig cfg) -> {
            cfg.options().bodyMemoryBudget(1024).bodySpoolDisk(0);
            cfg.post("/small", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(10);
            cfg.post("/upload", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(1 << 20);
            cfg.get("/page", ctx -> ctx.text("page")).maxBodySize(10); // HEAD too
        });
    }

    private RawConnection.Response refused(String head) {
        try (RawConnection c = server.raw()) {
            return c.send(head).read();
        }
    }

    @Test
    void aBodyOverTheRoutesLimitIsRefusedInJsonWhenTheClientAsksForIt() {
        start();
        RawConnection.Response json = refused("POST /small HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                + "Content-Length: 1000\r\n\r\n");
        assertThat(json.status()).isEqualTo(413);
        assertThat(json.header("Content-Type")).isEqualTo("application/json");
        assertThat(json.header("Connection")).isEqualTo("close");
        assertThat(json.body()).isEqualTo(
                "{\"status\":413,\"error\":\"Content Too Large\",\"message\":\"Request body is larger than 10 bytes\"}");
        RawConnection.Response text = refused("POST /small HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n"
                + "Content-Length: 1000\r\n\r\n");
        assertThat(text.status()).isEqualTo(413);
        assertThat(text.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(text.body()).isEqualTo("Request body is larger than 10 bytes\n");
    }

    @Test
    void aBodyNoMemoryIsFreeForIsShedInJsonWhenTheClientAsksForIt() {
        start();
        RawConnection.Response json = refused("POST /upload HTTP/1.1\r\nHost: x\r\n"
                + "Accept: text/plain;q=0.5, application/json\r\nContent-Length: 4096\r\n\r\n");
        assertThat(json.status()).isEqualTo(503);
        assertThat(json.header("Retry-After")).isEqualTo("1");
        assertThat(json.header("Content-Type")).isEqualTo("application/json");
        assertThat(json.body()).isEqualTo("{\"status\":503,\"error\":\"Service Unavailable\","
                + "\"message\":\"Service Unavailable: no request-body memory free, retry shortly\"}");
        RawConnection.Response text = refused("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4096\r\n\r\n");
        assertThat(text.status()).isEqualTo(503);
        assertThat(text.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        assertThat(text.body()).isEqualTo("Service Unavailable: no request-body memory free, retry shortly\n");
    }

    @Test
    void aHeadRequestGetsTheJsonRefusalsHeadOnly() {
        start();
        try (RawConnection c = server.raw()) {
            RawConnection.Response r = c.send("HEAD /page HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n").read(true);
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.header("Content-Type")).isEqualTo("application/json");
            assertThat(r.header("Content-Length")).isEqualTo(String.valueOf(
                    "{\"status\":413,\"error\":\"Content Too Large\",\"message\":\"Request body is larger than 10 bytes\"}"
                            .length()));
            assertThat(r.bodyBytes()).isEmpty();
            assertThat(c.closedWithin(5_000)).as("no body follows the head, and the connection closes").isTrue();
        }
    }

    @Test
    void aBrokenSecondRequestIsNotAnsweredWithTheFirstOnesAccept() {
        start();
        try (RawConnection c = server.raw()) {
            RawConnection.Response ok = c.send("POST /upload HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                    + "Content-Length: 5\r\n\r\nhello").read();
            assertThat(ok.status()).isEqualTo(200);
            RawConnection.Response bad = c.send("GET /small HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n").read();
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
        }
    }

    @Test
    void aHeadThatIsNotWholeIsRefusedInPlainText() {
        start();
        RawConnection.Response r = refused("GET /small HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n"
                + "Bad Header Line\r\n\r\n");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
    }
}
