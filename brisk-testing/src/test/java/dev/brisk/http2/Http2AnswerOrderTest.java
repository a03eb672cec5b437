package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each stream's answer goes out when it is ready, also where handlers run one after another on the
 * connection's own thread (the blocking engine): a burst of requests read at once must not hold the
 * first answer back until every handler in it has run.
 */
class Http2AnswerOrderTest {
    private final CountDownLatch clientHasFirst = new CountDownLatch(1);
    private Brisk app;

    private H2Conn start(Engine engine, java.util.function.Consumer<dev.brisk.BriskConfig> routes) throws Exception {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            routes.accept(cfg);
        }).start();
        return new H2Conn(app.port());
    }

    @AfterEach
    void stop() {
        clientHasFirst.countDown();
        if (app != null) {
            app.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theFirstAnswerReachesTheClientWhileTheNextHandlerRuns(Engine engine) throws Exception {
        try (H2Conn c = start(engine, cfg -> {
            cfg.get("/first", ctx -> ctx.text("first"));
            // answers 200 only once the client has the first answer: held back, it would wait in vain
            cfg.get("/second", ctx -> ctx.status(clientHasFirst.await(5, TimeUnit.SECONDS) ? 200 : 504).text("second"));
        })) {
            c.gets(1, "/first", "/second"); // one write: both HEADERS are read together
            assertThat(c.statuses(1).get(1)).isEqualTo(200);
            clientHasFirst.countDown();
            assertThat(c.statuses(3).get(3)).as("the second handler saw the first answer arrive").isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theEnginesOwnAnswerToAHeadHasNoData(Engine engine) throws Exception {
        try (H2Conn c = start(engine, cfg -> cfg.get("/hello", ctx -> ctx.text("hello")))) {
            c.headers(1, true, H2Conn.request("HEAD", "/hello", "expect", "something"));
            H2Conn.Frame head = c.await(H2Conn.on(H2Conn.HEADERS, 1));
            assertThat(head.status()).isEqualTo(417);
            assertThat(head.has(H2Conn.END_STREAM)).as("no DATA may follow a HEAD's answer").isTrue();
            c.headers(3, true, H2Conn.request("GET", "/hello", "expect", "something"));
            H2Conn.Frame get = c.await(H2Conn.on(H2Conn.HEADERS, 3));
            assertThat(get.status()).isEqualTo(417);
            assertThat(get.has(H2Conn.END_STREAM)).as("a GET gets the reason").isFalse();
            assertThat(new String(c.await(H2Conn.on(H2Conn.DATA, 3)).payload(), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo("Only Expect: 100-continue is supported\n");
        }
    }

    /** A body that says 100 bytes (as a file does) and then gives fewer: a file that shrank while sent. */
    private static final class ShortBody extends dev.brisk.internal.files.SizedBody {
        private int left = 40;

        @Override
        public long length() {
            return 100;
        }

        @Override
        public int read() {
            return left-- > 0 ? 'x' : -1;
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSizedBodyThatEndsShortIsResetNotEnded(Engine engine) throws Exception {
        try (H2Conn c = start(engine, cfg -> {
            cfg.get("/short", ctx -> ctx.stream(new ShortBody()));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        })) {
            c.get(1, "/short");
            assertThat(c.statuses(1).get(1)).isEqualTo(200); // its head said content-length: 100
            H2Conn.Frame end = c.await(f -> f.stream() == 1
                    && (f.type() == H2Conn.RST_STREAM || f.type() == H2Conn.DATA && f.has(H2Conn.END_STREAM)));
            assertThat(end.type()).as("40 of 100 bytes must not end the stream as if whole").isEqualTo(H2Conn.RST_STREAM);
            c.get(3, "/hello");
            assertThat(c.statuses(3).get(3)).as("the connection serves on").isEqualTo(200);
        }
    }
}
