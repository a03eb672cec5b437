package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ConfigSource;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.testing.TestPostgres;
import dev.brisk.testing.BriskTestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole service on a real PostgreSQL (selected by {@code EVENTS_DB_URL}): a poll stored there and
 * searched, and {@code /search} refusing to answer from an index that the store has not filled yet.
 */
class PostgresServiceTest {
    private static final Event STORED = Event.of("322", "1642", "Pantomima Full",
            LocalDateTime.parse("2021-02-10T20:00:00"), LocalDateTime.parse("2021-02-10T21:30:00"), 55, 55);

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String dbUrl;
    private EventsService service;
    // a service starting on another thread: closed after the test even when an assertion stopped it early
    private CompletableFuture<EventsService> starting;

    @BeforeEach
    void database() {
        TestPostgres.assumeAvailable();
        dbUrl = TestPostgres.freshDatabase();
    }

    @AfterEach
    void stop() throws Exception {
        if (service == null && starting != null) {
            try {
                service = starting.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                // it never started: nothing to close
            }
        }
        if (service != null) {
            service.close();
        }
        client.close();
    }

    private HttpResponse<String> get(int port, String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPollIsStoredInPostgresAndSearchedWithTooLongIdsSkipped() throws Exception {
        String longest = "p".repeat(Event.MAX_ID_LENGTH);
        String feed = "<planList><output>"
                + "<base_plan base_plan_id=\"1\" sell_mode=\"online\" title=\"Kept\">"
                + plan(longest) + plan("q".repeat(Event.MAX_ID_LENGTH + 1)) + "</base_plan>"
                + "</output></planList>";
        try (BriskTestServer provider = BriskTestServer.start(cfg -> cfg.get("/feed",
                ctx -> ctx.contentType("application/xml").text(feed)))) {
            service = TestServices.startDriven(TestServices.config(provider.uri("/feed"), dir, Duration.ofSeconds(30))
                    .withDbUrl(dbUrl));

            assertThat(service.poller().pollOnce().ok()).isTrue();

            HttpResponse<String> r = get(service.port(), "/search?starts_at=2021-01-01T00:00:00");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"id\":\"" + Event.idOf("1", longest) + "\"", "\"title\":\"Kept\"")
                    .doesNotContain(Event.idOf("1", "q".repeat(Event.MAX_ID_LENGTH + 1)).toString());
            try (EventStore store = EventStore.open(dbUrl)) {
                assertThat(store.loadAll()).extracting(Event::planId).containsExactly(longest);
            }
        }
    }

    private static String plan(String id) {
        return "<plan plan_id=\"" + id + "\" plan_start_date=\"2021-03-01T20:00:00\" plan_end_date=\"2021-03-01T22:00:00\">"
                + "<zone zone_id=\"1\" price=\"10.00\"/></plan>";
    }

    @Test
    void searchIsUnavailableUntilTheStoredEventsAreLoaded() throws Exception {
        try (EventStore store = EventStore.open(dbUrl)) {
            store.upsert(List.of(STORED), Instant.now());
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        EventsConfig config = TestServices.config(URI.create("http://127.0.0.1:1/feed"), dir, Duration.ofSeconds(30))
                .withDbUrl(dbUrl);
        try (Connection blocker = DriverManager.getConnection(dbUrl)) {
            // the service listens first, then reads every stored event: hold that read back
            blocker.setAutoCommit(false);
            try (Statement st = blocker.createStatement()) {
                st.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
            }
            int p = port;
            starting = CompletableFuture.supplyAsync(() -> EventsService.startWithoutPolling(config,
                    cfg -> cfg.configSource(ConfigSource.empty()).host("127.0.0.1").port(p)));
            HttpResponse<String> ready = awaitAnswer(port, "/ready", starting);
            assertThat(ready.statusCode()).isEqualTo(503);

            HttpResponse<String> early = get(port, "/search");
            assertThat(early.statusCode()).isEqualTo(503);
            assertThat(early.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(early.body()).isEqualTo("{\"error\":{\"code\":\"unavailable\",\"message\":"
                    + "\"the stored events are still loading; retry shortly\"},\"data\":null}");
            assertThat(starting).isNotDone();
            blocker.commit();
        }
        service = starting.get(30, TimeUnit.SECONDS);
        assertThat(get(port, "/ready").statusCode()).isEqualTo(200);
        HttpResponse<String> r = get(port, "/search");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"id\":\"" + STORED.id() + "\"");
    }

    /** The first answer on {@code port} while {@code start} runs on another thread; its failure at once. */
    private HttpResponse<String> awaitAnswer(int port, String path, CompletableFuture<?> start) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return get(port, path);
            } catch (java.net.ConnectException e) {
                if (start.isCompletedExceptionally()) {
                    start.join(); // throws why it could not start (say, the port was taken meanwhile)
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
