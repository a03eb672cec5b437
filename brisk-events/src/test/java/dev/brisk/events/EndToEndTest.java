package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.poll.PollOutcome;
import dev.brisk.events.search.SearchJson;
import dev.brisk.events.sim.Dialect;
import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop with real parts: the simulator over HTTP, the poller, SQLite, the search API over
 * HTTP. The expected answer is computed from the simulator's own truth, never from the service.
 */
class EndToEndTest {
    @TempDir
    Path dir;

    private ProviderSimulator sim;
    private EventsService service;
    private final HttpClient client = HttpClient.newHttpClient();
    /** Every online event the simulator has ever published, latest values per id. */
    private final Map<UUID, Event> everSeen = new LinkedHashMap<>();

    @BeforeEach
    void start() {
        sim = ProviderSimulator.start(SimulatorOptions.builder().events(400).zones(5).badRecordRate(0.02).build());
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
        sim.close();
        client.close();
    }

    private EventsService startService() {
        // the test drives polls itself with pollOnce(), so nothing races it
        return TestServices.startDriven(TestServices.config(URI.create(sim.feedUrl()), dir, Duration.ofHours(1)));
    }

    private void remember() {
        for (Event e : sim.onlineEvents()) {
            everSeen.put(e.id(), e);
        }
    }

    private String expected(LocalDateTime from, LocalDateTime to) {
        List<Event> want = new ArrayList<>(everSeen.values().stream()
                .filter(e -> from == null || !e.start().isBefore(from))
                .filter(e -> to == null || !e.end().isAfter(to))
                .toList());
        want.sort(Comparator.comparing(Event::start).thenComparing(e -> e.id().toString()));
        StringBuilder sb = new StringBuilder("{\"data\":{\"events\":[");
        for (int i = 0; i < want.size(); i++) {
            sb.append(i > 0 ? "," : "").append(new String(SearchJson.event(want.get(i)), StandardCharsets.UTF_8));
        }
        return sb.append("],\"next\":null},\"error\":null}").toString();
    }

    private HttpResponse<String> search(String query) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/search" + query))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private void assertSearchesMatch() throws Exception {
        assertThat(search("").body()).isEqualTo(expected(null, null));
        HttpResponse<byte[]> gz = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/search")).header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gz.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(expected(null, null));
        }
        // Accept-Encoding as two lines (RFC 9110 5.3: the list they make): gzip from the second
        HttpResponse<byte[]> split = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/search")).header("Accept-Encoding", "br;q=0").header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(split.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(search("?starts_at=2021-03-01T00:00:00Z&ends_at=2021-04-01T00:00:00Z").body())
                .isEqualTo(expected(LocalDateTime.parse("2021-03-01T00:00:00"), LocalDateTime.parse("2021-04-01T00:00:00")));
        assertThat(search("?starts_at=2022-06-15T12:00:00").body())
                .isEqualTo(expected(LocalDateTime.parse("2022-06-15T12:00:00"), null));
    }

    private PollOutcome pollUntilOk() {
        PollOutcome o = null;
        for (int i = 0; i < 20 && (o == null || !o.ok()); i++) {
            o = service.poller().pollOnce();
        }
        assertThat(o.ok()).as("a poll succeeded: %s", o).isTrue();
        return o;
    }

    @Test
    void pollStoreSearchAndEventsThatLeaveTheFeedStaySearchable() throws Exception {
        service = startService();
        remember();
        PollOutcome first = pollUntilOk();
        assertThat(first.skipped()).isEqualTo(sim.badRecordCount());
        assertThat(service.catalog().current().size()).isEqualTo(everSeen.size());
        assertSearchesMatch();

        for (int g = 0; g < 3; g++) {
            sim.advance();
            remember();
            assertThat(pollUntilOk().result()).isEqualTo(PollOutcome.Result.UPDATED);
            assertSearchesMatch();
        }
        // some events left the feed in those generations, and are still answered
        assertThat(everSeen.size()).isGreaterThan(sim.onlineEvents().size());

        // the other dialect carries the same catalogue: nothing changes
        sim.dialect(Dialect.B);
        assertThat(pollUntilOk().result()).isEqualTo(PollOutcome.Result.UNCHANGED);
        assertSearchesMatch();
    }

    @Test
    void searchesStayCorrectAndFastWhateverTheProviderDoes() throws Exception {
        service = startService();
        remember();
        pollUntilOk();
        String all = expected(null, null);

        Runnable[] faults = {
            () -> sim.down(true),
            () -> sim.down(false).failureRate(1.0),
            () -> sim.failureRate(0).malformedRate(1.0),
            () -> sim.malformedRate(0).latency(Duration.ofSeconds(3)), // longer than the 1 s read timeout
        };
        for (Runnable fault : faults) {
            fault.run();
            sim.advance(); // new content the service must not see half of
            Thread poll = Thread.ofVirtual().start(() -> service.poller().pollOnce());
            long[] latencies = new long[20];
            for (int i = 0; i < latencies.length; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = search("");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(all);
                // a search that waited for the poll would take the provider's fault: the 1 s read
                // timeout or more; the machine's own hiccups (a shared CI box) stay well below that
                assertThat(ms).as("search latency while the provider misbehaves").isLessThan(700);
                latencies[i] = ms;
                Thread.sleep(20);
            }
            java.util.Arrays.sort(latencies);
            assertThat(latencies[latencies.length / 2]).as("median search latency while the provider misbehaves")
                    .isLessThan(100);
            poll.join(10_000);
            assertThat(poll.isAlive()).isFalse();
        }
        assertThat(service.poller().lastSuccess()).isNotNull();
    }

    @Test
    void restartAnswersTheSameFromTheDatabaseAlone() throws Exception {
        service = startService();
        remember();
        pollUntilOk();
        sim.advance();
        remember();
        pollUntilOk();
        String all = search("").body();
        String window = search("?starts_at=2021-03-01T00:00:00Z&ends_at=2021-09-01T00:00:00Z").body();
        service.close();

        sim.down(true); // the provider is gone for good: only the database can answer
        service = startService();
        HttpResponse<String> ready = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + "/ready")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(search("").body()).isEqualTo(all).isEqualTo(expected(null, null));
        assertThat(search("?starts_at=2021-03-01T00:00:00Z&ends_at=2021-09-01T00:00:00Z").body()).isEqualTo(window);
        assertThat(service.poller().pollOnce().ok()).isFalse();
    }
}
