package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.ConfigSource;
import dev.brisk.events.store.EventStore;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping the service behind a load balancer: readiness turns 503 at once, while {@code /search} is
 * still answered on new connections for the shutdown delay; then the port closes.
 */
class GracefulStopTest {
    @TempDir
    Path dir;

    /** Each call on a client of its own: a new connection, as a new client of the balancer would open. */
    private static HttpResponse<String> get(int port, String pathAndQuery) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void readinessGoesDownFirstAndSearchIsServedThroughTheShutdownDelay() throws Exception {
        EventsConfig config = TestServices.config(URI.create("http://127.0.0.1:1/feed"), dir, Duration.ofSeconds(30));
        try (EventStore store = EventStore.open(config.effectiveDbUrl())) {
            store.upsert(List.of(Event.of("1", "1", "Concert", LocalDateTime.parse("2021-06-30T21:00:00"),
                    LocalDateTime.parse("2021-06-30T22:00:00"), 10, 20)), Instant.now());
        }
        EventsService service = EventsService.startWithoutPolling(config, cfg -> cfg.configSource(ConfigSource.empty())
                .host("127.0.0.1").port(0).options().shutdownDelay(Duration.ofSeconds(1)));
        int port = service.port();
        Thread closer = Thread.ofPlatform().name("test-closer").unstarted(service::close);
        try {
            assertThat(get(port, "/ready").body()).isEqualTo("{\"status\":\"UP\"}");
            closer.start();
            HttpResponse<String> ready = get(port, "/ready");
            for (int i = 0; i < 100 && ready.statusCode() == 200; i++) {
                Thread.sleep(5);
                ready = get(port, "/ready");
            }
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"shutting_down\"}");
            HttpResponse<String> search = get(port, "/search");
            assertThat(search.statusCode()).isEqualTo(200);
            assertThat(search.body()).contains("Concert");
            assertThat(get(port, "/health").statusCode()).isEqualTo(200);
            assertThat(closer.isAlive()).as("still inside the shutdown delay").isTrue();

            closer.join(10_000);
            assertThat(closer.isAlive()).isFalse();
            assertThatThrownBy(() -> get(port, "/search")).isInstanceOf(ConnectException.class);
        } finally {
            closer.join(10_000);
            service.close();
        }
    }
}
