package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.ConfigSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fixed setting names (deployments depend on them), their defaults, precedence and bad values. */
class EventsConfigTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void defaults() {
        EventsConfig c = EventsConfig.from(Map.of(), new Properties(), ConfigSource.empty());
        assertThat(c.providerUrl()).isNull();
        assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.dbUrl()).isNull();
        assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
        assertThat(c.metricsPort()).isEqualTo(9090);
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.readTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.maxBackoff()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.maxFeedBytes()).isEqualTo(256L << 20);
        assertThat(c.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(c.cacheEntries()).isEqualTo(1024);
        assertThat(c.cacheBytes()).isEqualTo(64L << 20);
        assertThat(c.wideSearches()).isEqualTo(16);
        assertThat(c.wideRenderThreads()).isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    @Test
    void clusterSettings() {
        EventsConfig off = EventsConfig.from(Map.of(), new Properties(), ConfigSource.empty());
        assertThat(off.cluster()).isFalse();
        assertThat(off.instanceId()).endsWith("-" + ProcessHandle.current().pid());
        assertThat(off.clusterCheckInterval()).isEqualTo(Duration.ofSeconds(1));

        EventsConfig on = EventsConfig.from(Map.of("EVENTS_CLUSTER", "TRUE", "EVENTS_DB_URL", "jdbc:postgresql://db/events",
                "EVENTS_INSTANCE_ID", "web-2", "EVENTS_CLUSTER_CHECK_INTERVAL", "PT0.5S"), new Properties(), ConfigSource.empty());
        assertThat(on.cluster()).isTrue();
        assertThat(on.instanceId()).isEqualTo("web-2");
        assertThat(on.clusterCheckInterval()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void clusterOnSqliteOrWithABadValueIsRefused() {
        assertThatThrownBy(() -> EventsConfig.from(Map.of("EVENTS_CLUSTER", "true"), new Properties(), ConfigSource.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("EVENTS_CLUSTER=true needs PostgreSQL: set EVENTS_DB_URL=jdbc:postgresql://... "
                        + "(got the default SQLite file; SQLite serves one instance only)");
        assertThatThrownBy(() -> EventsConfig.from(Map.of("EVENTS_CLUSTER", "true", "EVENTS_DB_URL", "jdbc:sqlite:/tmp/x.db"),
                new Properties(), ConfigSource.empty()))
                .hasMessageContaining("(got jdbc:sqlite:/tmp/x.db;");
        assertThatThrownBy(() -> EventsConfig.from(Map.of("EVENTS_CLUSTER", "yes"), new Properties(), ConfigSource.empty()))
                .hasMessage("EVENTS_CLUSTER must be true or false, got yes");
        assertThatThrownBy(() -> EventsConfig.from(Map.of("EVENTS_CLUSTER_CHECK_INTERVAL", "PT0S"), new Properties(),
                ConfigSource.empty())).hasMessageContaining("EVENTS_CLUSTER_CHECK_INTERVAL must be positive");
    }

    @Test
    void wideSearchSettings() {
        Map<String, String> env = Map.of("EVENTS_WIDE_SEARCHES", "4", "EVENTS_WIDE_RENDER_THREADS", "3");
        EventsConfig c = EventsConfig.from(env, new Properties(), ConfigSource.empty());
        assertThat(c.wideSearches()).isEqualTo(4);
        assertThat(c.wideRenderThreads()).isEqualTo(3);
    }

    @Test
    void environmentNames() {
        Map<String, String> env = Map.of(
                "EVENTS_PROVIDER_URL", "http://provider.example:8081/feed",
                "EVENTS_POLL_INTERVAL", "PT2M",
                "EVENTS_DB_URL", "jdbc:postgresql://db/events?user=u",
                "EVENTS_DATA_DIR", "/var/lib/events",
                "BRISK_METRICS_PORT", "9191");
        EventsConfig c = EventsConfig.from(env, new Properties(), ConfigSource.of(env, new Properties(), new Properties()));
        assertThat(c.providerUrl()).isEqualTo(URI.create("http://provider.example:8081/feed"));
        assertThat(c.pollInterval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.effectiveDbUrl()).isEqualTo("jdbc:postgresql://db/events?user=u");
        assertThat(c.dataDir()).isEqualTo(Path.of("/var/lib/events"));
        assertThat(c.metricsPort()).isEqualTo(9191);
    }

    @Test
    void propertiesOverTheEnvironment() {
        Map<String, String> env = Map.of("EVENTS_PROVIDER_URL", "http://env/feed", "EVENTS_POLL_INTERVAL", "PT2M",
                "EVENTS_DATA_DIR", "/env", "BRISK_METRICS_PORT", "9191");
        Properties sys = props("events.provider-url", "http://sys/feed", "events.poll-interval", "PT3S",
                "events.data-dir", "/sys", "events.db-url", "jdbc:sqlite:/tmp/x.db", "brisk.metrics-port", "off");
        EventsConfig c = EventsConfig.from(env, sys, ConfigSource.of(env, sys, new Properties()));
        assertThat(c.providerUrl()).isEqualTo(URI.create("http://sys/feed"));
        assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.dataDir()).isEqualTo(Path.of("/sys"));
        assertThat(c.effectiveDbUrl()).isEqualTo("jdbc:sqlite:/tmp/x.db");
        assertThat(c.metricsPort()).isEqualTo(EventsConfig.METRICS_OFF);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "EVENTS_PROVIDER_URL | ftp://x/feed | EVENTS_PROVIDER_URL must be an http(s) URL",
        "EVENTS_POLL_INTERVAL | 10s | EVENTS_POLL_INTERVAL must be an ISO-8601 duration such as PT10S, got 10s",
        "EVENTS_POLL_INTERVAL | PT0S | EVENTS_POLL_INTERVAL must be positive",
        "EVENTS_READ_TIMEOUT | -PT1S | EVENTS_READ_TIMEOUT must be positive",
        "EVENTS_POLL_INTERVAL | PT0.0005S | EVENTS_POLL_INTERVAL must be from 1 ms (PT0.001S) to 365 days",
        "EVENTS_POLL_INTERVAL | PT2600000H | EVENTS_POLL_INTERVAL must be from 1 ms (PT0.001S) to 365 days",
        "EVENTS_READ_TIMEOUT | PT8761H | EVENTS_READ_TIMEOUT must be from 1 ms (PT0.001S) to 365 days",
        "EVENTS_MAX_FEED_SIZE | 0 | EVENTS_MAX_FEED_SIZE must be at least 1024 bytes, got 0",
        "EVENTS_PROVIDER_URL | http:/feed | EVENTS_PROVIDER_URL must be an http(s) URL with a host",
        "EVENTS_PROVIDER_URL | http://127.0.0.1:99999/feed | EVENTS_PROVIDER_URL must be an http(s) URL with a host",
        "EVENTS_CACHE_ENTRIES | lots | EVENTS_CACHE_ENTRIES must be a whole number, 0 or more, got lots",
        "EVENTS_CACHE_ENTRIES | -1 | EVENTS_CACHE_ENTRIES must be a whole number, 0 or more, got -1",
        "EVENTS_CACHE_ENTRIES | +5 | EVENTS_CACHE_ENTRIES must be a whole number, 0 or more, got +5",
        "EVENTS_CACHE_ENTRIES | \u0665 | EVENTS_CACHE_ENTRIES must be a whole number, 0 or more, got \u0665",
        "BRISK_METRICS_PORT | \uFF19\uFF10\uFF19\uFF10 | BRISK_METRICS_PORT (brisk.metrics-port) must be a port (0-65535) or off, got \uFF19\uFF10\uFF19\uFF10",
        "EVENTS_CACHE_SIZE | big | EVENTS_CACHE_SIZE must be a size such as 512, 8KiB or 256MiB, got big",
        "EVENTS_WIDE_SEARCHES | 0 | EVENTS_WIDE_SEARCHES must be a whole number, 1 or more, got 0",
        "EVENTS_WIDE_RENDER_THREADS | many | EVENTS_WIDE_RENDER_THREADS must be a whole number, 1 or more, got many",
        "EVENTS_MAX_FEED_SIZE | 12XB | EVENTS_MAX_FEED_SIZE must be a size",
        "EVENTS_TIME_ZONE | Mars/Olympus | EVENTS_TIME_ZONE must be a time-zone id such as UTC or Europe/Madrid, got Mars/Olympus",
        "EVENTS_PROVIDER_URL | http://a b/feed | EVENTS_PROVIDER_URL is not a valid URL",
        "BRISK_METRICS_PORT | 70000 | BRISK_METRICS_PORT (brisk.metrics-port) must be a port (0-65535) or off, got 70000",
        "BRISK_METRICS_PORT | nine | BRISK_METRICS_PORT (brisk.metrics-port) must be a port (0-65535) or off, got nine"})
    void badValuesNameTheSetting(String name, String value, String message) {
        Map<String, String> env = Map.of(name, value);
        assertThatThrownBy(() -> EventsConfig.from(env, new Properties(), ConfigSource.of(env, new Properties(), new Properties())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}
