package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.poll.PollOutcome;
import dev.brisk.events.testing.TestPostgres;
import dev.brisk.testing.BriskTestServer;
import java.io.ByteArrayInputStream;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /search} pages over the whole service on a real PostgreSQL, fed by a scripted provider over
 * HTTP and read with the JDK's client: the default and largest limit, paging by cursor while the
 * provider adds events between pages, wide pages streamed from the render threads, and conflicting
 * duplicate ids counted in the metrics.
 */
class SearchPagingTest {
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern NEXT = Pattern.compile("\"next\":(null|\"([^\"]*)\")");
    private static final LocalDateTime T0 = LocalDateTime.of(2021, 3, 1, 0, 0);
    /** Events first in the feed: enough that the widest page (the whole window) is a wide one. */
    private static final int EVENTS = 2_500;

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The provider's feed: base id -> (plan element), in feed order. */
    private final Map<String, Event> feed = new LinkedHashMap<>();
    private final AtomicReference<String> extraXml = new AtomicReference<>("");
    private BriskTestServer provider;
    private EventsService service;

    @BeforeEach
    void start() {
        TestPostgres.assumeAvailable();
        String dbUrl = TestPostgres.freshDatabase();
        for (int i = 0; i < EVENTS; i++) {
            // 300 distinct starts: pages often end inside a run of events with the same start
            LocalDateTime s = T0.plusHours(i % 300);
            add(Event.of("b" + i, "p" + i, "Event " + i, s, s.plusHours(1), 10 + i % 7, 20 + i % 7));
        }
        // and some outside the window the paging test reads
        for (int i = 0; i < 20; i++) {
            add(Event.of("early" + i, "p", "Early " + i, T0.minusDays(2), T0.minusDays(2).plusHours(1), 1, 1));
        }
        provider = BriskTestServer.start(cfg -> cfg.get("/feed", ctx -> ctx.contentType("application/xml").text(xml())));
        service = TestServices.startDriven(TestServices.config(provider.uri("/feed"), dir, Duration.ofHours(1))
                .withDbUrl(dbUrl));
        assertThat(service.poller().pollOnce().changed()).isEqualTo(EVENTS + 20);
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
        if (provider != null) {
            provider.close();
        }
        client.close();
    }

    private void add(Event e) {
        feed.put(e.baseId(), e);
    }

    private synchronized String xml() {
        StringBuilder b = new StringBuilder("<planList><output>");
        for (Event e : feed.values()) {
            b.append("<base_plan base_plan_id=\"").append(e.baseId()).append("\" sell_mode=\"online\" title=\"")
                    .append(e.title()).append("\"><plan plan_id=\"").append(e.planId())
                    .append("\" plan_start_date=\"").append(e.start()).append(":00\" plan_end_date=\"").append(e.end())
                    .append(":00\"><zone price=\"").append(e.minPrice()).append("\"/><zone price=\"").append(e.maxPrice())
                    .append("\"/></plan></base_plan>");
        }
        return b.append(extraXml.get()).append("</output></planList>").toString();
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<UUID> ids(String body) {
        return ID.matcher(body).results().map(m -> UUID.fromString(m.group(1))).toList();
    }

    private static String next(String body) {
        Matcher m = NEXT.matcher(body);
        assertThat(m.find()).as("a next field").isTrue();
        return m.group(2);
    }

    /** The order the API promises: start, then id as text. */
    private static final Comparator<Event> ORDER = Comparator.comparing(Event::start)
            .thenComparing(e -> e.id().toString());

    @Test
    void theLimitDefaultsToAThousandAndGoesUpToTenThousand() throws Exception {
        List<Event> all = new ArrayList<>(feed.values());
        all.sort(ORDER);

        HttpResponse<String> first = get("/search");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(ids(first.body())).containsExactlyElementsOf(all.subList(0, 1_000).stream().map(Event::id).toList());
        assertThat(next(first.body())).startsWith("/search?limit=1000&cursor=");

        HttpResponse<String> widest = get("/search?limit=10000");
        assertThat(ids(widest.body())).containsExactlyElementsOf(all.stream().map(Event::id).toList());
        assertThat(next(widest.body())).isNull();

        HttpResponse<String> tooMany = get("/search?limit=10001");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).isEqualTo("{\"error\":{\"code\":\"invalid_parameter\",\"message\":\"limit 10001 is above"
                + " the maximum of 10000; read a wider result page by page, following each answer's next link\"},\"data\":null}");
    }

    @Test
    void aWideAnswerIsStreamedAPieceAtATimeAndRenderedOnce() throws Exception {
        String widest = "/search?limit=10000";
        HttpResponse<String> streamed = get(widest);
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.body().length()).as("a wide page").isGreaterThan(256 * 1024);
        // made on a render thread and sent as a stream: chunked, no length known when the head went out
        assertThat(streamed.headers().firstValue("Content-Length")).isEmpty();
        assertThat(streamed.headers().firstValue("Content-Type")).hasValue("application/json");
        String metrics = service.metricsRegistry().scrape();
        assertThat(metrics).contains("events_search_cache_total{result=\"miss\"} 1.0");

        // cached now, but still wide: streamed again, from the cache, not rendered again
        HttpResponse<String> cached = get(widest);
        assertThat(cached.headers().firstValue("Content-Length")).isEmpty();
        assertThat(cached.body()).isEqualTo(streamed.body());
        assertThat(service.metricsRegistry().scrape()).contains("events_search_cache_total{result=\"hit\"} 1.0")
                .contains("events_search_cache_total{result=\"miss\"} 1.0");

        // a client taking gzip: the cached page's gzip form is made off the loop, once; it is narrow
        // (about a fifth of the page), so from then on it is answered at once, with its length
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> gz = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + widest))
                    .header("Accept-Encoding", "gzip").timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(gz.headers().firstValue("Content-Length").isPresent()).as("request %d", i).isEqualTo(i == 1);
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.body()))) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(streamed.body());
            }
        }
        // a narrow page has its length, and is no wide answer
        HttpResponse<String> narrow = get("/search?limit=100");
        assertThat(narrow.headers().firstValue("Content-Length")).hasValue(Integer.toString(narrow.body().length()));
        assertThat(service.metricsRegistry().scrape()).contains("events_search_wide_total{result=\"admitted\"} 3.0")
                .contains("events_search_wide_total{result=\"refused\"} 0.0")
                .contains("events_search_wide_in_flight 0.0");
    }

    @Test
    void aCursorWalkSeesEveryEventOnceWhileEventsArriveBetweenPages() throws Exception {
        String window = "starts_at=2021-03-01T00:00:00Z&ends_at=2021-04-01T00:00:00Z";
        Set<UUID> originals = new HashSet<>();
        for (Event e : feed.values()) {
            if (!e.start().isBefore(T0)) {
                originals.add(e.id());
            }
        }
        Map<UUID, Event> known = new LinkedHashMap<>(feed.values().stream().collect(
                java.util.stream.Collectors.toMap(Event::id, e -> e)));
        // each inserted event and whether it lies after the walk's position when it arrives
        Map<UUID, Boolean> inserted = new LinkedHashMap<>();
        List<UUID> walked = new ArrayList<>();
        String link = "/search?" + window + "&limit=97";
        int pages = 0;
        while (link != null) {
            assertThat(pages++).as("pages").isLessThan(100);
            HttpResponse<String> r = get(link);
            assertThat(r.statusCode()).as(link).isEqualTo(200);
            List<UUID> ids = ids(r.body());
            walked.addAll(ids);
            link = next(r.body());
            if (link == null) {
                break;
            }
            assertThat(ids).hasSize(97);
            Event last = known.get(ids.getLast());
            // new events between pages: at the position's start (either side of it by id), before it, after it
            int k = pages;
            List<Event> arriving = List.of(
                    Event.of("new-same-" + k, "p", "Same start " + k, last.start(), last.start().plusHours(1), 5, 5),
                    Event.of("new-early-" + k, "p", "Early " + k, T0.plusMinutes(k), T0.plusMinutes(k).plusHours(1), 5, 5),
                    Event.of("new-late-" + k, "p", "Late " + k, T0.plusHours(400 + k), T0.plusHours(401 + k), 5, 5));
            synchronized (this) {
                for (Event e : arriving) {
                    add(e);
                    known.put(e.id(), e);
                    inserted.put(e.id(), ORDER.compare(e, last) > 0);
                }
            }
            PollOutcome o = service.poller().pollOnce();
            assertThat(o.changed()).as("poll after page %d: %s", pages, o).isEqualTo(3);
        }
        // exactly once, in order
        assertThat(new HashSet<>(walked)).hasSameSizeAs(walked);
        List<Event> walkedEvents = walked.stream().map(known::get).toList();
        assertThat(walkedEvents).doesNotContainNull().isSortedAccordingTo(ORDER);
        // no gaps: every event there at the start, and every arrival after the position, and nothing else
        Set<UUID> expected = new HashSet<>(originals);
        inserted.forEach((id, after) -> {
            if (after) {
                expected.add(id);
            }
        });
        assertThat(new HashSet<>(walked)).isEqualTo(expected);
        assertThat(inserted.values()).as("arrivals on both sides of the position").contains(true, false);
        assertThat(walked.size()).isGreaterThan(EVENTS);
    }

    @Test
    void conflictingDuplicateIdsAreCountedInTheMetrics() throws Exception {
        Event first = feed.values().iterator().next();
        // the same base and plan again, later in the feed, at another price: a conflict; then an exact repeat
        extraXml.set("<base_plan base_plan_id=\"" + first.baseId() + "\" sell_mode=\"online\" title=\"" + first.title()
                + "\"><plan plan_id=\"" + first.planId() + "\" plan_start_date=\"" + first.start() + ":00\" plan_end_date=\""
                + first.end() + ":00\"><zone price=\"77.00\"/></plan></base_plan>"
                + "<base_plan base_plan_id=\"b1\" sell_mode=\"online\" title=\"Event 1\"><plan plan_id=\"p1\""
                + " plan_start_date=\"" + T0.plusHours(1) + ":00\" plan_end_date=\"" + T0.plusHours(2)
                + ":00\"><zone price=\"11.0\"/><zone price=\"21.0\"/></plan></base_plan>");
        PollOutcome o = service.poller().pollOnce();
        assertThat(o.conflicts()).isEqualTo(1);
        assertThat(o.changed()).isEqualTo(1);
        HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.body()).contains("events_feed_records_conflicting_total 1.0");
        HttpResponse<String> r = get("/search?starts_at=" + first.start() + ":00&ends_at=" + first.end() + ":00");
        assertThat(r.body()).contains("\"id\":\"" + first.id() + "\"").contains("\"min_price\":77.0,\"max_price\":77.0");
    }
}
