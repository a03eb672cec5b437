package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import dev.brisk.events.store.EventStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Killing the service (SIGKILL) at random moments while it polls and writes never loses a committed
 * poll and never corrupts the SQLite store.
 */
class CrashRecoveryTest {
    private static final Pattern STORED = Pattern.compile("changed events stored in .* ([0-9,]+) searchable");

    @TempDir
    Path dir;

    @Test
    void killedMidPollLosesNothingCommitted() throws Exception {
        Random random = new Random();
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(3_000).zones(20)
                .churnInterval(Duration.ofMillis(150)).churnFraction(0.3).build())) {
            String url = EventStore.sqliteUrl(dir);
            long lastCommitted = 0;
            for (int round = 0; round < 4; round++) {
                try (ChildJvm child = new ChildJvm(EventsMain.class.getName(), Map.of(
                        "EVENTS_PROVIDER_URL", sim.feedUrl(),
                        "EVENTS_POLL_INTERVAL", "PT0.05S",
                        "EVENTS_DATA_DIR", dir.toString(),
                        "BRISK_PORT", "0",
                        "BRISK_METRICS_PORT", "off"))) {
                    long seen = 0;
                    for (int polls = 0; polls < 2 + round; polls++) {
                        Matcher m = STORED.matcher(child.await(l -> STORED.matcher(l).find(), 60));
                        assertThat(m.find()).isTrue();
                        seen = Long.parseLong(m.group(1).replace(",", ""));
                    }
                    assertThat(seen).isGreaterThanOrEqualTo(lastCommitted);
                    lastCommitted = seen;
                    // somewhere inside the next poll: fetching, parsing or in the middle of its transaction
                    Thread.sleep(random.nextInt(200));
                    child.process().destroyForcibly(); // SIGKILL: no shutdown hook runs
                    child.process().waitFor();
                }
                try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                    try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                        rs.next();
                        assertThat(rs.getString(1)).isEqualTo("ok");
                    }
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM events")) {
                        rs.next();
                        long stored = rs.getLong(1);
                        assertThat(stored).as("round %d: events stored after the kill", round).isGreaterThanOrEqualTo(lastCommitted);
                        lastCommitted = stored;
                    }
                }
            }
        }
    }
}
