package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Closing the app: idle connections are closed at once, an in-flight request is finished with Connection: close. */
@ParameterizedClass
@EnumSource(Engine.class)
class GracefulShutdownTest {
    @Parameter
    Engine engine;


    @Test
    void inFlightRequestFinishesWithConnectionCloseAndIdleConnectionIsClosed() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.get("/wait", ctx -> {
                entered.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ctx.text("done");
            });
        });
        int port = t.port();
        Thread closer = new Thread(t::close, "test-closer");
        try (RawConnection busy = t.raw(); RawConnection idle = t.raw()) {
            idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(idle.read().body()).isEqualTo("hello");

            busy.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            closer.start();

            assertThat(idle.closedWithin(1_000)).as("idle keep-alive connection closed at shutdown").isTrue();
            // the drain has begun for the whole server (its listener is closed), not only on the idle
            // connection's I/O loop, before the in-flight request is answered
            Wire.awaitRefused(port);
            release.countDown();
            RawConnection.Response r = busy.timeout(3_000).read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("done");
            assertThat(r.header("Connection")).isEqualTo("close");
            Wire.assertNothingMoreAndClosed(busy);
        } finally {
            release.countDown();
            closer.join(5_000);
            t.close();
        }
    }
}
