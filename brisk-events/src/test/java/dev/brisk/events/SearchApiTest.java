package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.store.EventStore;
import dev.brisk.testing.RawConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The HTTP API over real sockets: exact JSON, range boundaries, 400s. The service starts on a store
 * that already holds the events and a provider that is down, so every answer comes from the database.
 */
class SearchApiTest {
    @TempDir
    static Path dir;

    private static final Event A = Event.of("291", "291", "Camela en concierto",
            LocalDateTime.parse("2021-06-30T21:00:00"), LocalDateTime.parse("2021-06-30T22:00:00"), 15, 30);
    private static final Event B = Event.of("322", "1642", "Pantomima Full",
            LocalDateTime.parse("2021-02-10T20:00:00"), LocalDateTime.parse("2021-02-10T21:30:00"), 55, 55);
    private static final Event C = Event.of("1591", "1642", "Los Morancos",
            LocalDateTime.parse("2021-07-31T20:00:00"), LocalDateTime.parse("2021-07-31T21:00:00"), 65, 75);

    private static EventsService service;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        EventsConfig config = TestServices.config(URI.create("http://127.0.0.1:1/feed"), dir, Duration.ofSeconds(30));
        try (EventStore store = EventStore.open(config.effectiveDbUrl())) {
            store.upsert(List.of(A, B, C), Instant.now());
        }
        service = TestServices.start(config);
        client = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stop() {
        service.close();
        client.close();
    }

    private static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String json(Event... events) {
        StringBuilder sb = new StringBuilder("{\"data\":{\"events\":[");
        for (int i = 0; i < events.length; i++) {
            Event e = events[i];
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"id\":\"").append(e.id()).append("\",\"title\":\"").append(e.title())
                    .append("\",\"start_date\":\"").append(e.start().toLocalDate())
                    .append("\",\"start_time\":\"").append(e.start().toLocalTime()).append(":00")
                    .append("\",\"end_date\":\"").append(e.end().toLocalDate())
                    .append("\",\"end_time\":\"").append(e.end().toLocalTime()).append(":00")
                    .append("\",\"min_price\":").append(e.minPrice()).append(",\"max_price\":").append(e.maxPrice())
                    .append('}');
        }
        return sb.append("],\"next\":null},\"error\":null}").toString();
    }

    @Test
    void searchAnswersTheExactShapeSortedByStart() throws Exception {
        HttpResponse<String> r = get("/search?starts_at=2021-01-01T00:00:00Z&ends_at=2021-12-31T23:59:59Z");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo(json(B, A, C));
        assertThat(get("/search").body()).isEqualTo(json(B, A, C));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // starts_at is inclusive on start, ends_at inclusive on end
        "starts_at=2021-06-30T21:00:00&ends_at=2021-06-30T22:00:00 | A",
        "starts_at=2021-06-30T21:00:01&ends_at=2021-06-30T22:00:00 | ",
        "starts_at=2021-06-30T21:00:00&ends_at=2021-06-30T21:59:59 | ",
        "starts_at=2021-06-30T21:00:00Z | A,C",
        "starts_at=2021-06-30T23:00:00%2B02:00 | A,C",
        "starts_at=2021-06-30T23:00:01%2B02:00 | C",
        "starts_at=2021-06-30T23:00:00+02:00 | A,C",
        "ends_at=2021-02-10T21:30:00 | B",
        "ends_at=2021-02-10T21:29:59.999 | ",
        "starts_at=2021-02-10T20:00:00.000000001 | A,C",
        "starts_at=2022-01-01T00:00:00 | ",
        "starts_at=2021-02-10T20:00:00&ends_at=2021-02-10T20:00:00 | "})
    void rangeBoundaries(String query, String expected) throws Exception {
        List<Event> want = expected == null ? List.of()
                : java.util.Arrays.stream(expected.split(",")).map(n -> switch (n) {
                    case "A" -> A;
                    case "B" -> B;
                    default -> C;
                }).toList();
        HttpResponse<String> r = get("/search?" + query);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(json(want.toArray(Event[]::new)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "starts_at=not-a-date | starts_at 'not-a-date' is not an ISO-8601 date-time",
        "ends_at=2021-09-31T10:00:00 | ends_at '2021-09-31T10:00:00' is not an ISO-8601 date-time",
        "starts_at=2021-02-01 | starts_at '2021-02-01' is not an ISO-8601 date-time",
        "starts_at= | starts_at is empty",
        "starts_at=2021-03-01T00:00:00&ends_at=2021-02-01T00:00:00 | starts_at '2021-03-01T00:00:00' is after ends_at '2021-02-01T00:00:00'",
        "starts_at=2021-03-01T00:00:00Z&ends_at=2021-03-01T00:59:59%2B01:00 | starts_at '2021-03-01T00:00:00Z' is after ends_at '2021-03-01T00:59:59+01:00'",
        // the message quotes what was sent, not the '+' a space is read as
        "starts_at=2021-01-01%2010:00:00 | starts_at '2021-01-01 10:00:00' is not an ISO-8601 date-time",
        // a misspelt parameter would widen the answer unnoticed
        "start_at=2021-01-01T00:00:00 | unknown parameter 'start_at'; /search takes starts_at, ends_at, limit and cursor",
        "LIMIT=5 | unknown parameter 'LIMIT'",
        "starts_at=2021-01-01T00:00:00&starts_at=2021-01-02T00:00:00 | starts_at is given 2 times",
        // parsed, but outside the date-times that exist once moved to the events' zone
        "starts_at=-999999999-01-01T00:00:00%2B01:00 | starts_at '-999999999-01-01T00:00:00+01:00' is out of the supported range",
        "ends_at=%2B999999999-12-31T23:00:00-02:00 | ends_at '+999999999-12-31T23:00:00-02:00' is out of the supported range",
        "limit=abc | limit 'abc' is not a whole number; expected a whole number from 1 to 10000",
        "limit=-3 | limit -3 is below 1; expected a whole number from 1 to 10000",
        "limit=-x | limit '-x' is not a whole number",
        "limit=2.5 | limit '2.5' is not a whole number",
        "limit= | limit is empty; expected a whole number from 1 to 10000",
        "limit=0 | limit 0 is below 1; expected a whole number from 1 to 10000",
        "limit=000 | limit 000 is below 1",
        "limit=10001 | limit 10001 is above the maximum of 10000; read a wider result page by page, following each answer's next link",
        "limit=99999999999999999999999 | limit 99999999999999999999999 is above the maximum of 10000",
        "limit=5&limit=6 | limit is given 2 times; give it once",
        "cursor=abc | cursor 'abc' is not a cursor of this service; use the next link of an earlier answer as it is",
        // the right length, but a format this service never issued (first byte 2)
        "cursor=AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA | cursor 'AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' is not a cursor of this service",
        "cursor=AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA* | cursor 'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA*' is not a cursor of this service",
        // the right length with padding inside: fewer bytes than a cursor holds
        "cursor=AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D%3D | cursor 'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==' is not a cursor of this service",
        "cursor= | cursor '' is not a cursor of this service"})
    void badParametersAre400WithTheErrorShape(String query, String message) throws Exception {
        HttpResponse<String> r = get("/search?" + query);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).startsWith("{\"error\":{\"code\":\"invalid_parameter\",\"message\":\"" + message)
                .endsWith("\"},\"data\":null}");
    }

    @Test
    void aLimitPagesTheAnswerAndNextLeadsToTheRest() throws Exception {
        HttpResponse<String> first = get("/search?starts_at=2021-01-01T00:00:00Z&limit=2");
        assertThat(first.statusCode()).isEqualTo(200);
        String next = nextLink(first.body());
        assertThat(next).startsWith("/search?starts_at=2021-01-01T00:00:00&limit=2&cursor=");
        assertThat(first.body()).isEqualTo(json(B, A).replace("\"next\":null", "\"next\":\"" + next + "\""));

        HttpResponse<String> second = get(next);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(json(C));
        // a limit of exactly what is left: nothing after, so no next
        assertThat(get("/search?limit=3").body()).isEqualTo(json(B, A, C));
        assertThat(get("/search?limit=10000").body()).isEqualTo(json(B, A, C));
        assertThat(get("/search?limit=0001").body()).isEqualTo(json(B).replace("\"next\":null",
                "\"next\":\"" + nextLink(get("/search?limit=1").body()) + "\""));
    }

    /** The next link of a page, or null. */
    static String nextLink(String body) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"next\":(null|\"([^\"]*)\")").matcher(body);
        assertThat(m.find()).as("a next field in %s", body).isTrue();
        return m.group(2);
    }

    @Test
    void aMalformedEscapeIsAnInvalidParameter() {
        // sent raw: the JDK's client refuses to build such a URI
        try (RawConnection c = RawConnection.open("127.0.0.1", service.port())) {
            RawConnection.Response r = c.send("GET /search?starts_at=%zz HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).startsWith("{\"error\":{\"code\":\"invalid_parameter\",\"message\":\"the query string is malformed")
                    .endsWith("\"},\"data\":null}");
        }
    }

    @Test
    void aPathThatDoesNotDecodeIsA400InTheErrorShape() {
        // it was a 500 in plain text: the 404 answer's message decoded the path and failed
        for (String path : new String[] {"/sea%ZZrch", "/search%", "/%FF", "/%C0%AF?limit=1"}) {
            try (RawConnection c = RawConnection.open("127.0.0.1", service.port())) {
                RawConnection.Response r = c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
                assertThat(r.status()).as(path).isEqualTo(400);
                assertThat(r.header("Content-Type")).as(path).startsWith("application/json");
                assertThat(r.body()).as(path).startsWith("{\"error\":{\"code\":\"bad_request\",\"message\":\"Malformed ")
                        .endsWith("\"},\"data\":null}");
            }
        }
    }

    @Test
    void theRootListsTheRoutes() throws Exception {
        HttpResponse<String> r = get("/");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).startsWith("{\"service\":\"Brisk event search\",\"routes\":[")
                .contains("{\"method\":\"GET\",\"path\":\"/\",\"description\":\"this list of routes\"}")
                .contains("{\"method\":\"GET\",\"path\":\"/search\",\"description\":\"events within starts_at..ends_at")
                .contains("\"path\":\"/health\"", "\"path\":\"/ready\"").endsWith("}]}");
        // every route listed answers (HEAD: the event stream's would never end), and nothing but a route is listed
        for (String path : r.body().split("\"path\":\"")) {
            if (path.startsWith("/")) {
                HttpResponse<Void> head = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                        + path.substring(0, path.indexOf('"')))).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.discarding());
                assertThat(head.statusCode()).as(path).isEqualTo(200);
            }
        }
        assertThat(r.body()).contains("\"path\":\"/dashboard/stream\"");
        assertThat(r.body().split("\"path\":").length - 1).isEqualTo(7);
    }

    @Test
    void unknownPathsAndMethodsKeepTheErrorShape() throws Exception {
        HttpResponse<String> r = get("/nothing-here");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).isEqualTo("{\"error\":{\"code\":\"not_found\",\"message\":\"no such resource: /nothing-here\"},\"data\":null}");
        HttpResponse<String> post = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + "/search")).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValueSatisfying(v -> assertThat(v).contains("GET"));
    }

    @Test
    void healthReadyAndMetrics() throws Exception {
        assertThat(get("/health").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get("/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"status\":\"UP\"}");
        get("/search?starts_at=2021-01-01T00:00:00");
        get("/search?starts_at=2021-01-01T00:00:00");
        get("/search?starts_at=bad");
        // any token is a method to the parser: one made up per request must not grow the series
        for (String made : List.of("BREW", "BREW2")) {
            int status = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/search"))
                    .method(made, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            assertThat(status).isEqualTo(501);
        }
        HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/search\",status=\"200\"}")
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/search\",status=\"400\"}")
                .contains("events_stored 3.0")
                .contains("events_search_cache_total{result=\"hit\"}")
                .contains("events_poll_failures_total{reason=\"io\"}")
                .contains("brisk_route_requests_total{method=\"GET\",route=\"/search\",status_class=\"2xx\"}")
                .containsPattern("http_server_requests_seconds_count\\{method=\"OTHER\",route=\"[^\"]+\",status=\"501\"} 2(\\.0)?\n")
                .doesNotContain("BREW")
                .contains("events_search_cache_total{result=\"miss\"}")
                .contains("events_feed_records_skipped_total 0.0")
                // the provider has never answered: the age counts from the start, never NaN (an alert on it fires)
                .containsPattern("events_poll_last_success_age_seconds \\d+(\\.\\d+)?(E\\d+)?\n")
                .doesNotContain("route=\"/search?");
        HttpResponse<String> brew = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/search"))
                .method("BREW", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(brew.statusCode()).isEqualTo(501);
        assertThat(brew.body()).contains("\"code\":\"not_implemented\""); // not an internal_error of ours
    }
}
