package dev.brisk.events.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.events.Event;
import dev.brisk.events.EventsConfig;
import dev.brisk.events.EventsService;
import dev.brisk.events.TestServices;
import dev.brisk.events.poll.PollOutcome;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.testing.TestPostgres;
import dev.brisk.testing.BriskTestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three instances of the service in one JVM sharing a real PostgreSQL in cluster mode: one leads and
 * alone polls; a commit reaches the others within 1 s (measured); a leader whose database session
 * ends stops committing and another takes over, losing nothing; cluster mode on SQLite is refused.
 */
class ClusterTest {
    private static final Duration CHECK = Duration.ofMillis(200);

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<EventsService> services = new ArrayList<>();
    private final AtomicReference<String> feed = new AtomicReference<>(feed(1));
    private final AtomicInteger fetches = new AtomicInteger();
    private BriskTestServer provider;
    private String url;

    @BeforeEach
    void start() {
        TestPostgres.assumeAvailable();
        url = TestPostgres.freshDatabase();
        provider = BriskTestServer.start(cfg -> cfg.get("/feed", ctx -> {
            fetches.incrementAndGet();
            ctx.contentType("application/xml").text(feed.get());
        }));
    }

    @AfterEach
    void stop() {
        services.forEach(EventsService::close);
        if (provider != null) {
            provider.close();
        }
        client.close();
    }

    /** A feed of {@code n} events, plans p1..pn of base 1, each on its own day. */
    static String feed(int n) {
        StringBuilder b = new StringBuilder("<planList><output><base_plan base_plan_id=\"1\" sell_mode=\"online\" title=\"Show\">");
        for (int i = 1; i <= n; i++) {
            String day = String.format("2021-03-%02dT20:00:00", 1 + (i - 1) % 28);
            b.append("<plan plan_id=\"p").append(i).append("\" plan_start_date=\"").append(day)
                    .append("\" plan_end_date=\"").append(day.replace("T20", "T22")).append("\">")
                    .append("<zone zone_id=\"1\" price=\"").append(10 + i).append(".00\"/></plan>");
        }
        return b.append("</base_plan></output></planList>").toString();
    }

    private EventsService instance(String id, boolean poll) {
        EventsConfig c = TestServices.config(provider.uri("/feed"), dir.resolve(id), Duration.ofMillis(300))
                .withDbUrl(url).withCluster(true, id, CHECK);
        EventsService s = poll ? TestServices.start(c) : TestServices.startDriven(c);
        services.add(s);
        return s;
    }

    private static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within.toMillis() + " ms: " + what);
            }
            Thread.sleep(5);
        }
    }

    private EventsService leader() {
        List<EventsService> leaders = services.stream()
                .filter(s -> s.cluster().role() == ClusterNode.Role.LEADER).toList();
        assertThat(leaders).as("exactly one leader").hasSizeLessThanOrEqualTo(1);
        return leaders.isEmpty() ? null : leaders.get(0);
    }

    private HttpResponse<String> get(EventsService s, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void oneLeaderPollsAndEveryCommitReachesTheFollowersWithinASecond() throws Exception {
        EventsService a = instance("a", false);
        EventsService b = instance("b", false);
        EventsService c = instance("c", false);
        await(() -> leader() != null, Duration.ofSeconds(5), "a leader elected");
        // a commit a follower first reads in its start-up catch-up is not counted as its lag: start from there
        await(() -> services.stream().allMatch(s -> s.cluster().caughtUp()), Duration.ofSeconds(5),
                "every instance's first read of the changes");
        EventsService lead = leader();
        List<EventsService> followers = services.stream().filter(s -> s != lead).toList();

        // a follower's poll is refused by the store's fence: only the lock holder commits
        PollOutcome refused = followers.get(0).poller().pollOnce();
        assertThat(refused.ok()).isFalse();
        assertThat(refused.reason()).isEqualTo("not_leader");

        long worstMs = 0;
        for (int n = 2; n <= 6; n++) {
            feed.set(feed(n));
            PollOutcome o = lead.poller().pollOnce();
            assertThat(o.ok()).isTrue();
            assertThat(o.changed()).isPositive();
            long committed = System.nanoTime();
            long seq = lead.catalog().sequence();
            int expected = n;
            for (EventsService f : followers) {
                await(() -> f.catalog().sequence() >= seq && f.catalog().current().size() == expected,
                        Duration.ofSeconds(1), f.cluster().instanceId() + " at change " + seq);
            }
            worstMs = Math.max(worstMs, (System.nanoTime() - committed) / 1_000_000);
            for (EventsService f : followers) {
                // the catalog serves a change a moment before the follower records how late it came
                await(() -> f.cluster().lagMillis() >= 0, Duration.ofSeconds(1),
                        f.cluster().instanceId() + "'s lag figure after change " + seq);
                assertThat(f.cluster().lagMillis()).as("the follower's own lag figure").isBetween(0L, 1000L);
            }
        }
        System.out.println("ClusterTest: worst time from a commit to both followers serving it: " + worstMs + " ms; lag "
                + followers.get(0).cluster().instanceId() + " " + followers.get(0).cluster().maxLagMillis() + " ms, "
                + followers.get(1).cluster().instanceId() + " " + followers.get(1).cluster().maxLagMillis() + " ms (max)");
        for (EventsService s : List.of(a, b, c)) {
            HttpResponse<String> r = get(s, "/search?starts_at=2021-03-01T00:00:00");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"id\":\"" + Event.idOf("1", "p6") + "\"");
        }
        HttpResponse<String> ready = get(followers.get(0), "/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).startsWith("{\"status\":\"UP\",\"cluster\":{\"instance\":\"" + followers.get(0).cluster().instanceId()
                + "\",\"role\":\"follower\",\"sequence\":" + lead.catalog().sequence() + ",").contains("\"database\":\"up\"");
        assertThat(get(lead, "/ready").body()).contains("\"role\":\"leader\"");
        // the dashboard's figures carry the same
        String data = get(followers.get(0), "/dashboard/data").body();
        assertThat(data).contains("\"events_stored\":6,", "\"sequence\":" + lead.catalog().sequence() + ",",
                "\"role\":\"follower\"", "\"database\":\"up\"", "\"polls\":{\"ok\":0,\"failed\":1,");
        assertThat(get(lead, "/ready/engine").body()).isEqualTo("{\"status\":\"UP\"}");
        String metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + lead.metricsPort() + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("events_cluster_leader{instance=\"" + lead.cluster().instanceId() + "\"} 1.0",
                "events_cluster_sequence{instance=\"" + lead.cluster().instanceId() + "\"} " + lead.catalog().sequence() + ".0");
    }

    @Test
    void whenTheLeadersSessionEndsAnotherTakesOverWithinTheBoundAndNothingCommittedIsLost() throws Exception {
        instance("a", true);
        instance("b", true);
        instance("c", true);
        await(() -> leader() != null && services.stream().allMatch(s -> s.catalog().current().size() == 1),
                Duration.ofSeconds(10), "a leader polled and everyone serves its first feed");
        // only the leader fetches: over a few poll intervals, about one fetch each, not three
        int before = fetches.get();
        long t0 = System.nanoTime();
        Thread.sleep(1500); // a measuring window, not a wait for a condition
        double perInterval = (fetches.get() - before) / ((System.nanoTime() - t0) / 1e9 / 0.3);
        assertThat(perInterval).as("fetches per poll interval").isLessThan(1.5);

        EventsService old = leader();
        feed.set(feed(3));
        await(() -> services.stream().allMatch(s -> s.catalog().current().size() == 3), Duration.ofSeconds(5), "3 events everywhere");
        int pid = oldSession(old);
        long cut = System.nanoTime();
        try (Connection admin = DriverManager.getConnection(url); Statement st = admin.createStatement()) {
            st.execute("SELECT pg_terminate_backend(" + pid + ")");
        }
        feed.set(feed(5));
        // bound: the check interval after the lock is free, then a catch-up and a poll (300 ms apart at most)
        await(() -> services.stream().allMatch(s -> s.catalog().current().size() == 5), Duration.ofSeconds(3),
                "a leader (old or new) polled the new feed and everyone serves it");
        long takeoverMs = (System.nanoTime() - cut) / 1_000_000;
        System.out.println("ClusterTest: from the leader's session ending to all three serving the next feed: " + takeoverMs + " ms");
        assertThat(leader()).isNotNull();
        try (EventStore check = EventStore.open(url)) {
            assertThat(check.loadAll()).extracting(Event::planId).containsExactlyInAnyOrder("p1", "p2", "p3", "p4", "p5");
        }
    }

    private int oldSession(EventsService s) throws Exception {
        // the leader's store session: the one holding the advisory lock in this test's database
        try (Connection admin = DriverManager.getConnection(url); Statement st = admin.createStatement();
             var rs = st.executeQuery("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = 1 AND objsubid = 2"
                     + " AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
            assertThat(rs.next()).as("a session holds the lock").isTrue();
            return rs.getInt(1);
        }
    }

    @Test
    void aFollowerThatLosesTheDatabaseKeepsServingAndSaysSo() throws Exception {
        EventsService a = instance("a", false);
        await(() -> a.cluster().role() == ClusterNode.Role.LEADER, Duration.ofSeconds(5), "a leads");
        assertThat(a.poller().pollOnce().ok()).isTrue();
        EventsService b = instance("b", false);
        await(() -> b.catalog().current().size() == 1, Duration.ofSeconds(5), "b serves the feed");
        // the database refuses b's connections from now on and ends its sessions
        try (Connection admin = DriverManager.getConnection(TestPostgres.jdbcUrl()); Statement st = admin.createStatement()) {
            String db = url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
            st.execute("ALTER DATABASE " + db + " ALLOW_CONNECTIONS false");
            st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db
                    + "' AND pid <> pg_backend_pid()");
        }
        await(() -> !b.cluster().databaseUp(), Duration.ofSeconds(5), "b notices");
        HttpResponse<String> ready = get(b, "/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"database\":\"down\"", "\"serving\":\"the last snapshot");
        HttpResponse<String> r = get(b, "/search");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains(Event.idOf("1", "p1").toString());
    }

    @Test
    void clusterModeOnSqliteIsRefused() {
        EventsConfig single = TestServices.config(URI.create("http://127.0.0.1:1/feed"), dir, Duration.ofSeconds(30));
        assertThatThrownBy(() -> single.withCluster(true, "x", CHECK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EVENTS_CLUSTER=true needs PostgreSQL")
                .hasMessageContaining("SQLite serves one instance only");
    }
}
