package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brisk demo} as a user runs it: simulator and service in their own JVM, ports from the
 * environment, searches answered once the first poll lands, metrics served, SIGTERM stops it.
 */
class DemoProcessTest {
    @TempDir
    Path dir;

    @Test
    void demoServesSearchesAndMetricsThenStopsOnSigterm() throws Exception {
        int port = ChildJvm.freePort();
        int simPort = ChildJvm.freePort();
        int metricsPort = ChildJvm.freePort();
        try (ChildJvm demo = new ChildJvm(DemoMain.class.getName(), Map.of(
                "BRISK_PORT", Integer.toString(port),
                "SIM_PORT", Integer.toString(simPort),
                "BRISK_METRICS_PORT", Integer.toString(metricsPort),
                "EVENTS_DATA_DIR", dir.toString(),
                "EVENTS_POLL_INTERVAL", "PT0.2S",
                "SIM_FAILURE_RATE", "0",
                "SIM_LATENCY", "PT0S"));
             HttpClient client = HttpClient.newHttpClient()) {
            demo.await(l -> l.contains("Brisk event search demo on http://localhost:" + port), 60);
            String body = "";
            for (int i = 0; i < 100 && !body.contains("\"id\""); i++) {
                Thread.sleep(100);
                body = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/search?starts_at=2021-01-01T00:00:00Z&ends_at=2021-03-01T00:00:00Z")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
            }
            assertThat(body).startsWith("{\"data\":{\"events\":[{\"id\":\"").endsWith("],\"next\":null},\"error\":null}");
            HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body()).contains("events_stored").contains("events_poll_seconds_count{result=\"updated\"}");
            HttpResponse<String> feed = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + simPort + "/feed")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(feed.body()).contains("<planList");

            demo.process().destroy(); // SIGTERM
            assertThat(demo.process().waitFor(20, TimeUnit.SECONDS)).as("stopped after SIGTERM:\n%s", demo.output()).isTrue();
        }
    }

    /** The service's port or its metrics port taken: one line and status 1, not a trace and a JVM kept up by the simulator. */
    @Test
    void aTakenPortEndsTheDemoWithOneLineAndStatus1() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            String port = Integer.toString(taken.getLocalPort());
            for (String which : new String[] {"BRISK_PORT", "BRISK_METRICS_PORT"}) {
                Map<String, String> env = new java.util.HashMap<>(Map.of(
                        "BRISK_HOST", "127.0.0.1",
                        "BRISK_PORT", Integer.toString(ChildJvm.freePort()),
                        "SIM_PORT", Integer.toString(ChildJvm.freePort()),
                        "BRISK_METRICS_PORT", Integer.toString(ChildJvm.freePort()),
                        "EVENTS_DATA_DIR", dir.toString()));
                env.put(which, port);
                try (ChildJvm demo = new ChildJvm(DemoMain.class.getName(), env, "-Xmx128m")) {
                    String line = demo.await(l -> l.startsWith("brisk demo: "), 60);
                    assertThat(line).as(which).containsIgnoringCase("address already in use");
                    assertThat(demo.process().waitFor(20, TimeUnit.SECONDS)).as("ended:\n%s", demo.output()).isTrue();
                    assertThat(demo.process().exitValue()).as(demo.output()).isEqualTo(1);
                    assertThat(demo.output()).as("no stack trace").doesNotContain("\tat ");
                }
            }
        }
    }

    @Test
    void aBadSettingStopsTheSimulatorWithOneLineAndStatus2() throws Exception {
        // it ended in a stack trace and status 1
        try (ChildJvm sim = new ChildJvm(dev.brisk.events.sim.SimulatorMain.class.getName(), Map.of(
                "SIM_PORT", "0", "SIM_FAILURE_RATE", "1.5"), "-Xmx64m")) {
            String line = sim.await(l -> l.startsWith("brisk simulator: "), 60);
            assertThat(line).isEqualTo("brisk simulator: simulator environment: SIM_FAILURE_RATE must be between 0 and 1: 1.5");
            assertThat(sim.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(sim.process().exitValue()).as(sim.output()).isEqualTo(2);
            assertThat(sim.output()).as("no stack trace").doesNotContain("\tat ");
        }
    }

    @Test
    void aBadSettingStopsTheServiceWithItsNameAndStatus2() throws Exception {
        // the last two are found only as the service starts: a host that does not resolve, a database URL
        // no driver takes (they ended in a stack trace and status 1)
        for (Map.Entry<String, String> bad : Map.of("EVENTS_CACHE_ENTRIES", "lots", "BRISK_PORT", "eighty",
                "BRISK_HOST", "999.1.1.1", "EVENTS_DB_URL", "garbage").entrySet()) {
            try (ChildJvm events = new ChildJvm(EventsMain.class.getName(), Map.of(
                    "EVENTS_PROVIDER_URL", "http://127.0.0.1:1/feed",
                    "EVENTS_DATA_DIR", dir.toString(),
                    "BRISK_METRICS_PORT", "off",
                    bad.getKey(), bad.getValue()), "-Xmx128m")) {
                String line = events.await(l -> l.startsWith("brisk events: "), 60);
                assertThat(line).contains(bad.getKey());
                if (!bad.getKey().equals("EVENTS_DB_URL")) { // a database URL may hold a password: not repeated
                    assertThat(line).contains(bad.getValue());
                }
                assertThat(events.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
                assertThat(events.process().exitValue()).as(events.output()).isEqualTo(2);
                assertThat(events.output()).as("no stack trace").doesNotContain("\tat ");
            }
        }
    }
}
