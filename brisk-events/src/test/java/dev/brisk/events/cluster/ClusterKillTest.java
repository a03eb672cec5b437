package dev.brisk.events.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.ChildJvm;
import dev.brisk.events.Event;
import dev.brisk.events.EventsMain;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.testing.TestPostgres;
import dev.brisk.testing.BriskTestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three instances as separate processes ({@code ./brisk events} with {@code EVENTS_CLUSTER=true}) on a
 * real PostgreSQL: the leader is killed with SIGKILL; a survivor takes over within the bound (check
 * interval 200 ms, poll interval 300 ms: asserted within 3 s, the measured figure printed), polls the
 * next feed, and both survivors serve every event ever committed, at the same change number.
 */
class ClusterKillTest {
    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private record Instance(String id, int port, ChildJvm jvm) {
    }

    @Test
    void aSigkilledLeaderIsReplacedWithinTheBoundAndNothingCommittedIsLost() throws Exception {
        TestPostgres.assumeAvailable();
        String url = TestPostgres.freshDatabase();
        AtomicReference<String> feed = new AtomicReference<>(ClusterTest.feed(1));
        List<Instance> all = new ArrayList<>();
        try (BriskTestServer provider = BriskTestServer.start(cfg -> cfg.get("/feed",
                ctx -> ctx.contentType("application/xml").text(feed.get())))) {
            for (String id : List.of("a", "b", "c")) {
                int port = ChildJvm.freePort();
                all.add(new Instance(id, port, new ChildJvm(EventsMain.class.getName(), Map.of(
                        "EVENTS_PROVIDER_URL", provider.uri("/feed").toString(),
                        "EVENTS_DB_URL", url,
                        "EVENTS_CLUSTER", "true",
                        "EVENTS_INSTANCE_ID", id,
                        "EVENTS_CLUSTER_CHECK_INTERVAL", "PT0.2S",
                        "EVENTS_POLL_INTERVAL", "PT0.3S",
                        "EVENTS_DATA_DIR", dir.resolve(id).toString(),
                        "BRISK_PORT", Integer.toString(port),
                        "BRISK_METRICS_PORT", "off"), "-Xmx128m")));
            }
            try {
                for (Instance i : all) {
                    i.jvm().await(l -> l.contains("Brisk event search on"), 60);
                }
                await(() -> leaders(all).size() == 1 && all.stream().allMatch(i -> serves(i, "p1")), Duration.ofSeconds(20),
                        "one leader, the first feed everywhere");
                feed.set(ClusterTest.feed(3));
                await(() -> all.stream().allMatch(i -> serves(i, "p3")), Duration.ofSeconds(5), "the second feed everywhere");

                Instance old = leaders(all).get(0);
                old.jvm().process().destroyForcibly(); // SIGKILL: no hook runs, the database sees the socket close
                long killed = System.nanoTime();
                assertThat(old.jvm().process().waitFor(10, TimeUnit.SECONDS)).isTrue();
                List<Instance> rest = all.stream().filter(i -> i != old).toList();
                feed.set(ClusterTest.feed(5));
                await(() -> leaders(rest).size() == 1, Duration.ofSeconds(3), "a survivor leads");
                long leadMs = (System.nanoTime() - killed) / 1_000_000;
                await(() -> rest.stream().allMatch(i -> serves(i, "p5")), Duration.ofSeconds(3), "the new leader's poll everywhere");
                long servedMs = (System.nanoTime() - killed) / 1_000_000;
                System.out.println("ClusterKillTest: SIGKILL of the leader -> a new leader in " + leadMs
                        + " ms, its first feed served by both survivors in " + servedMs + " ms");

                try (EventStore store = EventStore.open(url)) {
                    EventStore.Snapshot s = store.snapshot();
                    assertThat(s.events()).extracting(Event::planId).containsExactlyInAnyOrder("p1", "p2", "p3", "p4", "p5");
                    await(() -> rest.stream().allMatch(i -> ready(i).contains("\"sequence\":" + s.sequence() + ",")),
                            Duration.ofSeconds(2), "both survivors at change " + s.sequence());
                }
            } finally {
                for (Instance i : all) {
                    i.jvm().close();
                }
            }
        } finally {
            client.close();
        }
    }

    private String ready(Instance i) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + i.port() + "/ready"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    private List<Instance> leaders(List<Instance> among) {
        return among.stream().filter(i -> ready(i).contains("\"role\":\"leader\"")).toList();
    }

    private boolean serves(Instance i, String plan) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + i.port() + "/search"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString())
                    .body().contains(Event.idOf("1", plan).toString());
        } catch (Exception e) {
            return false;
        }
    }

    private static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within.toMillis() + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }
}
