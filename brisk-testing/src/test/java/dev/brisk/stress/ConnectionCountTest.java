package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code Brisk.connectionCount()}: "open connections right now". */
@Timeout(20)
@ParameterizedClass
@EnumSource(Engine.class)
class ConnectionCountTest {
    @Parameter
    Engine engine;


    @Test
    void countsTheConnectionsThatAreOpen() {
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/", ctx -> ctx.text("ok")))) {
            try (HttpConn a = HttpConn.open(t.port()); HttpConn b = HttpConn.open(t.port())) {
                assertThat(a.get1("/").status()).isEqualTo(200);
                assertThat(b.get1("/").status()).isEqualTo(200);
                assertThat(Stress.await(Duration.ofSeconds(2), () -> t.app().connectionCount() == 2))
                        .as("two open connections, count %d", t.app().connectionCount()).isTrue();
            }
            Stress.awaitNoConnections(t.app(), Duration.ofSeconds(3));
        }
    }

    /**
     * An idle server reports 0, and one client 1. Regression: the acceptor used to count the slot it
     * took before waiting in accept(), so every count was one too high.
     */
    @Test
    void isZeroWithoutConnections() {
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> cfg.get("/", ctx -> ctx.text("ok")))) {
            try (HttpConn a = HttpConn.open(t.port())) {
                assertThat(a.get1("/").status()).isEqualTo(200);
                assertThat(Stress.await(Duration.ofSeconds(2), () -> t.app().connectionCount() == 1))
                        .as("one open connection, count %d", t.app().connectionCount()).isTrue();
            }
            assertThat(Stress.await(Duration.ofSeconds(3), () -> t.app().connectionCount() == 0))
                    .as("no open connection, count %d", t.app().connectionCount()).isTrue();
        }
    }
}
