package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import org.junit.jupiter.api.Test;

/**
 * Guards the allocation budget: fast-static routes allocate nothing per request in steady state (the
 * Date line is rebuilt once a second, which rounds to zero per request); normal routes stay small.
 */
class AllocationTest {

    private static Brisk start(Dispatch dispatch) {
        return Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.host("127.0.0.1").port(0).dispatch(dispatch);
            ExampleApp.routes(cfg);
        }).start();
    }

    @Test
    void fastStaticAllocatesNothingPerRequest() throws Exception {
        try (Brisk app = start(Dispatch.EVENT_LOOP)) {
            double perRequest = AllocationProbe.bytesPerRequest(app.port(),
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n", 5_000, 20_000);
            assertThat(perRequest).as("bytes allocated per fast-static request").isLessThan(2.0);
        }
    }

    @Test
    void normalRouteStaysWithinBudget() throws Exception {
        try (Brisk app = start(Dispatch.EVENT_LOOP)) {
            double perRequest = AllocationProbe.bytesPerRequest(app.port(),
                    "GET /users/42?active=true HTTP/1.1\r\nHost: localhost\r\n\r\n", 5_000, 20_000);
            assertThat(perRequest).as("bytes allocated per normal request").isBetween(1.0, 1024.0);
        }
    }
}
