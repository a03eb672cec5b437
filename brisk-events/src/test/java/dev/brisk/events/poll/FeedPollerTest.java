package dev.brisk.events.poll;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import dev.brisk.events.feed.FeedParser;
import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.store.EventStore;
import dev.brisk.testing.BriskTestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One poll at a time against a scripted provider over real HTTP, with a real SQLite store. */
class FeedPollerTest {
    private static final String FEED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <planList version="1.0"><output>
              <base_plan base_plan_id="291" sell_mode="online" title="Camela en concierto">
                <plan plan_start_date="2021-06-30T21:00:00" plan_end_date="2021-06-30T22:00:00" plan_id="291"
                      sell_from="2020-07-01T00:00:00" sell_to="2021-06-30T20:00:00" sold_out="false">
                  <zone zone_id="40" capacity="243" price="20.00" name="Platea" numbered="true"/>
                  <zone zone_id="38" capacity="100" price="15.00" name="Grada 2" numbered="false"/>
                  <zone zone_id="30" capacity="90" price="30.00" name="A28" numbered="true"/>
                </plan>
              </base_plan>
              <base_plan base_plan_id="444" sell_mode="offline" title="Tributo a Juanito Valderrama">
                <plan plan_start_date="2021-09-31T20:00:00" plan_end_date="2021-09-31T21:00:00" plan_id="1642"
                      sell_from="2021-02-10T00:00:00" sell_to="2021-09-31T19:50:00" sold_out="false">
                  <zone zone_id="7" capacity="22" price="65.00" name="Amfiteatre" numbered="false"/>
                </plan>
              </base_plan>
            </output></planList>
            """;
    private static final Event CAMELA = Event.of("291", "291", "Camela en concierto",
            LocalDateTime.parse("2021-06-30T21:00:00"), LocalDateTime.parse("2021-06-30T22:00:00"), 15, 30);

    @TempDir
    Path dir;

    private final AtomicReference<Script> script = new AtomicReference<>(Script.OK);
    private final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
    private final List<String> ifModifiedSince = new CopyOnWriteArrayList<>();
    private BriskTestServer provider;
    private EventStore store;
    private EventCatalog catalog;
    private FeedPoller poller;

    enum Script { OK, BAD_RECORDS, NOW_OFFLINE, LAST_MODIFIED_ONLY, GZIP, NOT_GZIP, CUT, ERROR_500, GARBAGE, TRUNCATED, STALL_BODY, DUPLICATES }

    /**
     * Plan 291 three times with three prices (two conflicts; the last, 5.00, is kept), and plan 292 twice
     * with the same values (a repeat, not a conflict).
     */
    private static final String DUPLICATES = """
            <planList><output>
              <base_plan base_plan_id="291" sell_mode="online" title="Camela en concierto">
                <plan plan_id="291" plan_start_date="2021-06-30T21:00:00" plan_end_date="2021-06-30T22:00:00"><zone price="20.00"/></plan>
                <plan plan_id="292" plan_start_date="2021-07-01T21:00:00" plan_end_date="2021-07-01T22:00:00"><zone price="10.00"/></plan>
                <plan plan_id="291" plan_start_date="2021-06-30T21:00:00" plan_end_date="2021-06-30T22:00:00"><zone price="99.00"/></plan>
                <plan plan_id="292" plan_start_date="2021-07-01T21:00:00" plan_end_date="2021-07-01T22:00:00"><zone price="10.00"/></plan>
                <plan plan_id="291" plan_start_date="2021-06-30T21:00:00" plan_end_date="2021-06-30T22:00:00"><zone price="5.00"/></plan>
              </base_plan>
            </output></planList>
            """;

    /** Where {@code /away} redirects to (set by the test that uses it). */
    private final AtomicReference<String> awayLocation = new AtomicReference<>("http://localhost:1/feed");

    /** Four bad records of three kinds: two impossible dates, a missing plan_id, a price that is no number. */
    private static final String BAD_RECORDS = """
            <base_plan base_plan_id="500" sell_mode="online" title="Bad records">
              <plan plan_id="1" plan_start_date="2021-02-30T21:00:00" plan_end_date="2021-03-01T22:00:00"><zone price="1"/></plan>
              <plan plan_id="2" plan_start_date="2021-13-01T21:00:00" plan_end_date="2021-03-01T22:00:00"><zone price="1"/></plan>
              <plan plan_start_date="2021-03-01T21:00:00" plan_end_date="2021-03-01T22:00:00"><zone price="1"/></plan>
              <plan plan_id="4" plan_start_date="2021-03-01T21:00:00" plan_end_date="2021-03-01T22:00:00"><zone price="abc"/></plan>
            </base_plan>
            """;

    private static final String LAST_MODIFIED = "Tue, 01 Jun 2021 10:00:00 GMT";

    @BeforeEach
    void start() {
        provider = BriskTestServer.start(cfg -> {
            cfg.get("/moved", ctx -> ctx.redirect("/feed", 302));
            cfg.get("/moved-twice", ctx -> ctx.redirect("http://127.0.0.1:" + provider.port() + "/moved", 308));
            cfg.get("/away", ctx -> ctx.redirect(awayLocation.get(), 302));
            cfg.get("/loop", ctx -> ctx.redirect("/loop", 307));
            cfg.get("/feed", ctx -> {
            String inm = ctx.header("If-None-Match");
            if (inm != null) {
                ifNoneMatch.add(inm);
            }
            String ims = ctx.header("If-Modified-Since");
            if (ims != null) {
                ifModifiedSince.add(ims);
            }
            switch (script.get()) {
                case LAST_MODIFIED_ONLY -> {
                    if (LAST_MODIFIED.equals(ims)) {
                        ctx.status(304);
                        return;
                    }
                    ctx.header("Last-Modified", LAST_MODIFIED).contentType("application/xml").text(FEED);
                }
                case OK -> {
                    if ("\"v1\"".equals(inm)) {
                        ctx.status(304);
                        return;
                    }
                    ctx.header("ETag", "\"v1\"").contentType("application/xml").text(FEED);
                }
                case BAD_RECORDS -> ctx.contentType("application/xml").text(FEED.replace("</output>", BAD_RECORDS + "</output>"));
                case NOW_OFFLINE -> ctx.contentType("application/xml").text(FEED
                        .replace("base_plan_id=\"291\" sell_mode=\"online\" title=\"Camela en concierto\"",
                                "base_plan_id=\"291\" sell_mode=\"offline\" title=\"Camela (box office only)\"")
                        .replace("price=\"15.00\"", "price=\"1.00\""));
                case GZIP -> ctx.header("Content-Encoding", "gzip").contentType("application/xml").bytes(gzip(FEED));
                case NOT_GZIP -> ctx.header("Content-Encoding", "gzip").contentType("application/xml").text(FEED);
                case CUT -> ctx.contentType("application/xml").stream(firstThen(FEED.substring(0, FEED.length() / 2), () -> {
                    throw new IOException("the provider's connection broke"); // half, then the connection fails
                }));
                case ERROR_500 -> ctx.status(500).text("provider broke");
                case GARBAGE -> ctx.contentType("application/xml").text("<<<this is not xml");
                case TRUNCATED -> ctx.contentType("application/xml").text(FEED.substring(0, FEED.length() / 2));
                case DUPLICATES -> ctx.contentType("application/xml").text(DUPLICATES);
                // the head and a first piece of the body go out at once, then nothing, far longer than the read timeout
                case STALL_BODY -> ctx.contentType("application/xml").stream(firstThen(FEED.substring(0, 100), () -> {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }));
            }
        });
        });
        store = EventStore.open("jdbc:sqlite:" + dir.resolve("p.db"));
        catalog = new EventCatalog();
        catalog.load(store.loadAll());
        poller = new FeedPoller(new FeedPoller.Options(provider.uri("/feed"), Duration.ofSeconds(10),
                Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofSeconds(20)),
                new FeedParser(), store, catalog, PollListener.NONE);
    }

    @AfterEach
    void stop() {
        poller.close();
        store.close();
        provider.close();
    }

    /** What a provider's body stream does after its first piece: fail, or wait (then the body ends). */
    private interface After {
        void run() throws IOException;
    }

    /** A body whose first read gives {@code first}; the next runs {@code after}, then ends. */
    private static InputStream firstThen(String first, After after) {
        return new InputStream() {
            private boolean sent;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (!sent) {
                    sent = true;
                    byte[] piece = first.getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(piece, 0, b, off, piece.length);
                    return piece.length;
                }
                after.run();
                return -1;
            }
        };
    }

    private static byte[] gzip(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(s.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void storesOnlineEventsThenAsksConditionally() {
        PollOutcome first = poller.pollOnce();
        assertThat(first.result()).isEqualTo(PollOutcome.Result.UPDATED);
        assertThat(first.records()).isEqualTo(2);
        assertThat(first.notOnline()).isEqualTo(1);
        assertThat(first.changed()).isEqualTo(1);
        assertThat(store.loadAll()).containsExactly(CAMELA);
        assertThat(catalog.current().search(null, null)).containsExactly(CAMELA);
        long version = catalog.current().version();

        PollOutcome second = poller.pollOnce();
        assertThat(second.result()).isEqualTo(PollOutcome.Result.NOT_MODIFIED);
        assertThat(ifNoneMatch).containsExactly("\"v1\"");
        assertThat(catalog.current().version()).isEqualTo(version);
        assertThat(poller.lastSuccess()).isNotNull();
    }

    @Test
    void anEventNoLongerSoldOnlineKeepsItsLatestOnlineValues() {
        assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UPDATED);
        script.set(Script.NOW_OFFLINE);

        PollOutcome offline = poller.pollOnce();

        assertThat(offline.result()).isEqualTo(PollOutcome.Result.UNCHANGED);
        assertThat(offline.notOnline()).isEqualTo(2);
        assertThat(store.loadAll()).containsExactly(CAMELA);
        assertThat(catalog.current().search(null, null)).containsExactly(CAMELA);
    }

    @Test
    void asksWithIfModifiedSinceWhenTheProviderSendsNoETag() {
        script.set(Script.LAST_MODIFIED_ONLY);
        assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UPDATED);
        assertThat(ifModifiedSince).isEmpty();

        PollOutcome second = poller.pollOnce();
        assertThat(second.result()).isEqualTo(PollOutcome.Result.NOT_MODIFIED);
        assertThat(ifModifiedSince).containsExactly(LAST_MODIFIED);
        assertThat(ifNoneMatch).isEmpty();
        assertThat(store.loadAll()).containsExactly(CAMELA);
    }

    @Test
    void gzipFeedsAreRead() {
        script.set(Script.GZIP);
        assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UPDATED);
        assertThat(store.loadAll()).containsExactly(CAMELA);
        // the same feed again: read, nothing to store
        assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UNCHANGED);
    }

    /**
     * A body that says gzip and is not: each poll fails as {@code io}, and gives its connection back
     * (it was left open, one more per poll, and the client's close then waited for them all).
     */
    @Test
    void aBodyThatIsNotTheGzipItSaysLeavesNoConnectionOpen() throws InterruptedException {
        script.set(Script.NOT_GZIP);
        for (int i = 0; i < 5; i++) {
            PollOutcome o = poller.pollOnce();
            assertThat(o.result()).isEqualTo(PollOutcome.Result.FAILED);
            assertThat(o.reason()).isEqualTo("io");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (provider.app().metrics().connectionsActive() > 1 && System.nanoTime() - deadline < 0) {
            Thread.sleep(20); // the provider notices each close a moment after the poller's
        }
        assertThat(provider.app().metrics().connectionsActive()).as("connections left open").isLessThanOrEqualTo(1);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> poller.close());
    }

    @Test
    void aConnectionThatBreaksMidFeedIsAnIoFailureNotAMalformedFeed() {
        script.set(Script.CUT);
        PollOutcome o = poller.pollOnce();
        assertThat(o.result()).isEqualTo(PollOutcome.Result.FAILED);
        assertThat(o.reason()).isEqualTo("io");
        // a whole document cut short by the provider itself is still the feed's fault
        script.set(Script.TRUNCATED);
        assertThat(poller.pollOnce().reason()).isEqualTo("malformed");
    }

    @Test
    void failuresChangeNothing() {
        assertThat(poller.pollOnce().ok()).isTrue();
        long version = catalog.current().version();
        for (Script bad : List.of(Script.ERROR_500, Script.GARBAGE, Script.TRUNCATED)) {
            script.set(bad);
            PollOutcome o = poller.pollOnce();
            assertThat(o.result()).as(bad.name()).isEqualTo(PollOutcome.Result.FAILED);
            assertThat(o.reason()).as(bad.name()).isEqualTo(bad == Script.ERROR_500 ? "status" : "malformed");
            assertThat(catalog.current().version()).isEqualTo(version);
            assertThat(store.loadAll()).containsExactly(CAMELA);
        }
    }

    @Test
    void aStalledBodyTimesOut() {
        script.set(Script.STALL_BODY);
        long t0 = System.nanoTime();
        PollOutcome o = poller.pollOnce();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(o.reason()).isEqualTo("timeout");
        assertThat(ms).isLessThan(5_000);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        // the next poll works normally
        script.set(Script.OK);
        assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UPDATED);
    }

    @Test
    void unreachableProviderIsAnIoFailure() {
        FeedPoller dead = new FeedPoller(new FeedPoller.Options(URI.create("http://127.0.0.1:1/feed"), Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(2)), new FeedParser(), store, catalog,
                PollListener.NONE);
        try {
            PollOutcome o = dead.pollOnce();
            assertThat(o.reason()).isEqualTo("io");
            // with a reason: the JDK client's ConnectException (and its causes) carry no message
            assertThat(o.error()).contains("ConnectException: could not connect (refused or unreachable)");
        } finally {
            dead.close();
        }
    }

    @Test
    void logsOneSummaryLinePerPollWithTheSkippedRecordsByKind() {
        // the service's loggers as the demo has them (System.Logger over java.util.logging), every level kept
        Logger events = Logger.getLogger("dev.brisk.events");
        Level before = events.getLevel();
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        events.setLevel(Level.ALL);
        events.addHandler(capture);
        try {
            script.set(Script.BAD_RECORDS);
            assertThat(poller.pollOnce().skipped()).isEqualTo(4);
            assertThat(poller.pollOnce().result()).isEqualTo(PollOutcome.Result.UNCHANGED);
            script.set(Script.ERROR_500);
            assertThat(poller.pollOnce().ok()).isFalse();
        } finally {
            events.removeHandler(capture);
            events.setLevel(before);
        }

        List<String> lines = records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .map(r -> r.getLevel() + " " + r.getMessage()).toList();
        assertThat(lines).containsExactly(
                "INFO poll 1: 6 records, 4 skipped (missing attribute 1, bad date 2, bad price 1), 1 not online;"
                        + " 1 changed events stored in " + millis(records, 0) + " ms; 1 searchable",
                "INFO poll 2: 6 records, 4 skipped (missing attribute 1, bad date 2, bad price 1), 1 not online;"
                        + " nothing changed in " + millis(records, 1) + " ms; 1 searchable",
                "WARNING poll 3: failed (1 in a row) after " + millis(records, 2) + " ms: status: provider answered 500 ("
                        + provider.uri("/feed") + ")");
        // each bad record is still described, at a level below the console's default INFO
        assertThat(records).filteredOn(r -> r.getMessage().startsWith("feed record skipped"))
                .hasSize(8).allMatch(r -> r.getLevel() == Level.FINE);
    }

    /** The ms figure of the n-th INFO-or-above line: the one part of the summary that varies run to run. */
    private static String millis(List<LogRecord> records, int n) {
        String line = records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .map(LogRecord::getMessage).toList().get(n);
        return line.replaceAll(".* (\\d+) ms[;:].*", "$1");
    }

    /**
     * What escapes a poll (an Error: an OutOfMemoryError in a parser, or here one from the listener) is
     * logged, and polling goes on: a poller thread that died left the service serving stale data for good,
     * with every health signal green.
     */
    @Test
    void pollingGoesOnAfterAnErrorEscapesAPoll() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        FeedPoller hurt = new FeedPoller(new FeedPoller.Options(provider.uri("/feed"), Duration.ofMillis(100),
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1)),
                new FeedParser(), store, catalog, outcome -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new StackOverflowError("thrown by the test's listener");
                    }
                });
        try {
            hurt.start();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (calls.get() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polls the condition; bounded by the deadline
            }
            assertThat(calls.get()).as("polls after the one whose listener threw").isGreaterThanOrEqualTo(2);
        } finally {
            hurt.close();
        }
    }

    /** A failed poll's text is one log line of bounded length, whatever a provider or a driver put in it. */
    @Test
    void aFailureTextIsOneBoundedLine() {
        assertThat(FeedPoller.oneLine("a\nb\r\u0000c\u2028d")).isEqualTo("a\\nb\\u000d\\u0000c\\u2028d");
        String longText = "x".repeat(FeedPoller.ERROR_MAX + 50);
        assertThat(FeedPoller.oneLine(longText)).isEqualTo("x".repeat(FeedPoller.ERROR_MAX) + "...");
        assertThat(FeedPoller.oneLine("x".repeat(FeedPoller.ERROR_MAX))).isEqualTo("x".repeat(FeedPoller.ERROR_MAX));
        assertThat(FeedPoller.oneLine("x".repeat(FeedPoller.ERROR_MAX - 1) + "\uD83D\uDE00"))
                .isEqualTo("x".repeat(FeedPoller.ERROR_MAX - 1) + "..."); // not cut inside the pair
    }

    private FeedPoller pollerOf(String path) {
        return new FeedPoller(new FeedPoller.Options(provider.uri(path), Duration.ofSeconds(10),
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(20)),
                new FeedParser(), store, catalog, PollListener.NONE);
    }

    @Test
    void followsRedirectsOnTheSameHost() {
        for (String path : List.of("/moved", "/moved-twice")) {
            FeedPoller moved = pollerOf(path);
            try {
                PollOutcome o = moved.pollOnce();
                assertThat(o.ok()).as("%s: %s", path, o).isTrue();
                assertThat(store.loadAll()).containsExactly(CAMELA);
            } finally {
                moved.close();
            }
        }
    }

    @Test
    void refusesARedirectToAnotherHost() throws Exception {
        java.util.concurrent.atomic.AtomicInteger reached = new java.util.concurrent.atomic.AtomicInteger();
        // the same machine under another name: a different host to the poller
        try (BriskTestServer elsewhere = BriskTestServer.start(cfg -> cfg.get("/feed", ctx -> {
            reached.incrementAndGet();
            ctx.contentType("application/xml").text(FEED);
        }))) {
            awayLocation.set("http://localhost:" + elsewhere.port() + "/feed");
            // control: a client that follows every redirect does get there
            try (java.net.http.HttpClient follower = java.net.http.HttpClient.newBuilder()
                    .followRedirects(java.net.http.HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(5)).build()) {
                java.net.http.HttpResponse<String> r = follower.send(java.net.http.HttpRequest.newBuilder(provider.uri("/away"))
                        .timeout(Duration.ofSeconds(10)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(FEED);
            }
            assertThat(reached).hasValue(1);

            FeedPoller away = pollerOf("/away");
            try {
                PollOutcome o = away.pollOnce();
                assertThat(o.result()).isEqualTo(PollOutcome.Result.FAILED);
                assertThat(o.reason()).isEqualTo("redirect");
                assertThat(o.error()).isEqualTo("the provider redirected to another host: http://localhost:" + elsewhere.port()
                        + "/feed (only redirects to 127.0.0.1 are followed)");
            } finally {
                away.close();
            }
            assertThat(reached).as("the poller never asked the other host").hasValue(1);
            assertThat(store.loadAll()).isEmpty();
        }
    }

    @Test
    void aRedirectLoopEndsThePoll() {
        FeedPoller looping = pollerOf("/loop");
        try {
            PollOutcome o = looping.pollOnce();
            assertThat(o.reason()).isEqualTo("redirect");
            assertThat(o.error()).isEqualTo("the provider redirected more than " + FeedPoller.MAX_REDIRECTS + " times in a row");
        } finally {
            looping.close();
        }
    }

    @Test
    void conflictingDuplicateIdsAreCountedAndLoggedOncePerPoll() {
        Logger events = Logger.getLogger("dev.brisk.events");
        Level before = events.getLevel();
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        events.setLevel(Level.ALL);
        events.addHandler(capture);
        PollOutcome first;
        PollOutcome second;
        try {
            script.set(Script.DUPLICATES);
            first = poller.pollOnce();
            second = poller.pollOnce();
        } finally {
            events.removeHandler(capture);
            events.setLevel(before);
        }
        assertThat(first.records()).isEqualTo(5);
        assertThat(first.conflicts()).isEqualTo(2);
        assertThat(second.conflicts()).isEqualTo(2);
        // the last record of an id wins, in the store and in searches
        Event last = Event.of("291", "291", "Camela en concierto",
                LocalDateTime.parse("2021-06-30T21:00:00"), LocalDateTime.parse("2021-06-30T22:00:00"), 5, 5);
        assertThat(store.loadAll()).contains(last).hasSize(2);
        assertThat(catalog.current().get(last.id())).isEqualTo(last);

        // one line per poll, whatever the number of conflicts, naming the first; nothing per record
        List<LogRecord> lines = records.stream().filter(r -> r.getMessage().contains("conflict")).toList();
        assertThat(lines).hasSize(2).allMatch(r -> r.getLevel() == Level.WARNING);
        assertThat(lines.get(0).getMessage()).startsWith("poll 1: 5 records, 0 skipped, 0 not online, 2 conflicting duplicates"
                + " (the last of each id kept; first: base_plan_id='291' plan_id='291' at line 5); 2 changed events stored in ");
        assertThat(lines.get(1).getMessage()).startsWith("poll 2: ").contains("2 conflicting duplicates", "nothing changed");
    }
}
