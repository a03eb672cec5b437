package dev.brisk.events.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.EventsService;
import dev.brisk.events.TestServices;
import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /dashboard/stream} pushes the dashboard's figures as Server-Sent Events, one about every
 * second, each the same JSON as {@code /dashboard/data}, with the events stored as the service holds
 * them.
 */
class DashboardStreamTest {
    @TempDir
    Path dir;

    @Test
    void theFiguresArePushedAsServerSentEvents() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(200).zones(2)
                .failureRate(0).malformedRate(0).badRecordRate(0).latency(Duration.ZERO).latencyJitter(Duration.ZERO).build());
             EventsService service = TestServices.start(TestServices.config(URI.create(sim.feedUrl()), dir, Duration.ofMillis(300)));
             HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<java.io.InputStream> r = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + service.port() + "/dashboard/stream")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
            List<String> events = new ArrayList<>();
            long t0 = System.nanoTime();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                for (String line; events.size() < 3 && (line = in.readLine()) != null; ) {
                    if (line.startsWith("data: ")) {
                        events.add(line.substring(6));
                    }
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(events).hasSize(3).allSatisfy(e -> assertThat(e).startsWith("{").contains("\"events_stored\":"));
            assertThat(ms).as("three pushes about a second apart").isBetween(1_500L, 8_000L);
            assertThat(events.get(2)).contains("\"events_stored\":" + service.catalog().current().size());
        }
    }
}
