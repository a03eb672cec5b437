package dev.brisk.events;

import dev.brisk.ConfigSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The event service's settings. Each {@code events} setting {@code x-y} is read from the system
 * property {@code events.x-y}, else the environment variable {@code EVENTS_X_Y}, else its default;
 * the servers' own options ({@code BRISK_PORT}, {@code BRISK_METRICS_PORT}, ...) follow Brisk's
 * {@link ConfigSource} convention.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>Environment</th><th>Default</th><th>Meaning</th></tr>
 *   <tr><td>EVENTS_PROVIDER_URL</td><td>(required)</td><td>the provider's XML feed</td></tr>
 *   <tr><td>EVENTS_POLL_INTERVAL</td><td>PT10S</td><td>ISO-8601 duration between polls</td></tr>
 *   <tr><td>EVENTS_DB_URL</td><td>SQLite under the data dir</td><td>JDBC URL (jdbc:sqlite:... or jdbc:postgresql://...)</td></tr>
 *   <tr><td>EVENTS_DATA_DIR</td><td>./data</td><td>where the default SQLite file lives</td></tr>
 *   <tr><td>EVENTS_CONNECT_TIMEOUT</td><td>PT5S</td><td>opening a connection to the provider</td></tr>
 *   <tr><td>EVENTS_READ_TIMEOUT</td><td>PT30S</td><td>waiting for the head, then for each piece of the body (the
 *   whole body: at most the longest of 20 of them, 10 minutes, and the feed size at 256 KiB/s)</td></tr>
 *   <tr><td>EVENTS_MAX_BACKOFF</td><td>PT5M</td><td>longest wait between failing polls</td></tr>
 *   <tr><td>EVENTS_MAX_FEED_SIZE</td><td>256MiB</td><td>bound on one feed document</td></tr>
 *   <tr><td>EVENTS_TIME_ZONE</td><td>UTC</td><td>the zone the provider's local times are in</td></tr>
 *   <tr><td>EVENTS_CACHE_ENTRIES</td><td>1024</td><td>cached /search bodies (0 disables)</td></tr>
 *   <tr><td>EVENTS_CACHE_SIZE</td><td>64MiB</td><td>bound on cached bytes</td></tr>
 *   <tr><td>EVENTS_WIDE_SEARCHES</td><td>16</td><td>wide /search answers (over 256 KiB) in flight at once (more: 503)</td></tr>
 *   <tr><td>EVENTS_WIDE_RENDER_THREADS</td><td>half the cores, at least 1</td><td>threads rendering wide /search pages</td></tr>
 *   <tr><td>EVENTS_CLUSTER</td><td>false</td><td>true: one of several instances sharing EVENTS_DB_URL (PostgreSQL only):
 *       one leader polls, the others follow its commits</td></tr>
 *   <tr><td>EVENTS_INSTANCE_ID</td><td>host name and process id</td><td>this instance's name in metrics, logs and /ready</td></tr>
 *   <tr><td>EVENTS_CLUSTER_CHECK_INTERVAL</td><td>PT1S</td><td>cluster mode: how often a follower tries the leader
 *       lock and the leader checks it holds it; the longest wait for a change notification</td></tr>
 * </table>
 */
public record EventsConfig(URI providerUrl, Duration pollInterval, String dbUrl, Path dataDir,
                           Duration connectTimeout, Duration readTimeout, Duration maxBackoff, long maxFeedBytes,
                           ZoneId zone, int cacheEntries, long cacheBytes, int metricsPort, int wideSearches,
                           int wideRenderThreads, boolean cluster, String instanceId, Duration clusterCheckInterval) {

    /** Metrics port value that turns the metrics server off. */
    public static final int METRICS_OFF = -1;

    /** Reads the process environment and system properties. */
    public static EventsConfig load() {
        return from(System.getenv(), System.getProperties(), ConfigSource.load());
    }

    /** Reads the given maps; {@code brisk} supplies the servers' options (metrics-port). */
    public static EventsConfig from(Map<String, String> env, Properties sys, ConfigSource brisk) {
        Reader r = new Reader(env, sys);
        String provider = r.get("provider-url", null);
        URI providerUrl = null;
        if (provider != null) {
            try {
                providerUrl = new URI(provider);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException(r.name("provider-url") + " is not a valid URL (" + e.getMessage() + ")");
            }
            if (providerUrl.getScheme() == null || !providerUrl.getScheme().matches("(?i)https?")) {
                throw new IllegalArgumentException(r.name("provider-url") + " must be an http(s) URL, got " + provider);
            }
            // a URL the HTTP client would refuse on every poll is refused now: a host, a port in range
            if (providerUrl.getHost() == null || providerUrl.getPort() == 0 || providerUrl.getPort() > 65_535) {
                throw new IllegalArgumentException(r.name("provider-url")
                        + " must be an http(s) URL with a host (and a port from 1 to 65535, if any), got " + provider);
            }
        }
        Path dataDir = Path.of(r.get("data-dir", "./data"));
        String metrics = brisk.string("metrics-port", "9090").strip();
        return new EventsConfig(
                providerUrl,
                positive(r, "poll-interval", r.duration("poll-interval", "PT10S")),
                r.get("db-url", null),
                dataDir,
                positive(r, "connect-timeout", r.duration("connect-timeout", "PT5S")),
                positive(r, "read-timeout", r.duration("read-timeout", "PT30S")),
                positive(r, "max-backoff", r.duration("max-backoff", "PT5M")),
                atLeast(r, "max-feed-size", size(r, "max-feed-size", "256MiB"), 1024),
                r.zone("time-zone", "UTC"),
                r.count("cache-entries", "1024"),
                size(r, "cache-size", "64MiB"),
                metrics.equalsIgnoreCase("off") ? METRICS_OFF
                        : intIn(metrics, 0, 65_535, "BRISK_METRICS_PORT (brisk.metrics-port) must be a port (0-65535) or off"),
                r.positiveCount("wide-searches", "16"),
                r.positiveCount("wide-render-threads",
                        Integer.toString(Math.max(1, Runtime.getRuntime().availableProcessors() / 2))),
                r.bool("cluster", false),
                r.get("instance-id", defaultInstanceId()),
                positive(r, "cluster-check-interval", r.duration("cluster-check-interval", "PT1S")))
                .checkCluster();
    }

    /**
     * Refuses a cluster on a database that cannot be shared: SQLite (the default) is one process's file.
     *
     * @throws IllegalArgumentException when {@code cluster} is set without a PostgreSQL URL
     */
    EventsConfig checkCluster() {
        if (cluster && (dbUrl == null || !dbUrl.startsWith("jdbc:postgresql:"))) {
            throw new IllegalArgumentException("EVENTS_CLUSTER=true needs PostgreSQL: set EVENTS_DB_URL=jdbc:postgresql://... "
                    + "(got " + (dbUrl == null ? "the default SQLite file" : dbUrl.replaceAll("(?i)(password=)[^&;]*", "$1***"))
                    + "; SQLite serves one instance only)");
        }
        return this;
    }

    /** host-pid: unique on a machine and readable. */
    private static String defaultInstanceId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /** As this config, in cluster mode (or not) with the given instance id and check interval. */
    public EventsConfig withCluster(boolean on, String id, Duration check) {
        return new EventsConfig(providerUrl, pollInterval, dbUrl, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, wideSearches, wideRenderThreads, on, id, check)
                .checkCluster();
    }

    /** The JDBC URL to use: the configured one, else SQLite under the data directory. */
    public String effectiveDbUrl() {
        return dbUrl != null ? dbUrl : dev.brisk.events.store.EventStore.sqliteUrl(dataDir);
    }

    public EventsConfig withProviderUrl(URI url) {
        return new EventsConfig(url, pollInterval, dbUrl, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, wideSearches, wideRenderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    public EventsConfig withDbUrl(String url) {
        return new EventsConfig(providerUrl, pollInterval, url, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, wideSearches, wideRenderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    public EventsConfig withPollInterval(Duration d) {
        return new EventsConfig(providerUrl, d, dbUrl, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, wideSearches, wideRenderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    public EventsConfig withTimeouts(Duration connect, Duration read, Duration backoff) {
        return new EventsConfig(providerUrl, pollInterval, dbUrl, dataDir, connect, read, backoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, wideSearches, wideRenderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    public EventsConfig withMetricsPort(int port) {
        return new EventsConfig(providerUrl, pollInterval, dbUrl, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, port, wideSearches, wideRenderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    public EventsConfig withWideSearches(int searches, int renderThreads) {
        return new EventsConfig(providerUrl, pollInterval, dbUrl, dataDir, connectTimeout, readTimeout, maxBackoff,
                maxFeedBytes, zone, cacheEntries, cacheBytes, metricsPort, searches, renderThreads,
                cluster, instanceId, clusterCheckInterval);
    }

    /** A size in Brisk's notation ({@code 512}, {@code 8KiB}, {@code 256MiB}), parsed by ConfigSource's rules. */
    private static long size(Reader r, String name, String fallback) {
        String text = r.get(name, fallback);
        try {
            return ConfigSource.of(Map.of("BRISK_SIZE", text), new Properties(), new Properties()).size("size", 0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(r.name(name) + " must be a size such as 512, 8KiB or 256MiB, got " + text);
        }
    }

    /** {@code text} as a whole number in [min, max]; else "{@code rule}, got {@code text}". */
    private static int intIn(String text, int min, int max, String rule) {
        try {
            // ASCII digits only: parseInt also takes a '+' and other scripts' digits
            int n = text.matches("-?[0-9]{1,10}") ? Integer.parseInt(text) : Integer.MIN_VALUE;
            if (n != Integer.MIN_VALUE && n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(rule + ", got " + text);
    }

    /**
     * A duration from 1 ms to 365 days: the poller backs off and times out in milliseconds (under one,
     * back-off vanished) and schedules in nanoseconds (past some 292 years, they overflow).
     */
    private static Duration positive(Reader r, String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(r.name(name) + " must be positive, got " + d);
        }
        if (d.compareTo(Duration.ofMillis(1)) < 0 || d.compareTo(Duration.ofDays(365)) > 0) {
            throw new IllegalArgumentException(r.name(name) + " must be from 1 ms (PT0.001S) to 365 days (PT8760H), got " + d);
        }
        return d;
    }

    private static long atLeast(Reader r, String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(r.name(name) + " must be at least " + min + " bytes, got " + value);
        }
        return value;
    }

    /** system property events.x-y, else environment EVENTS_X_Y. */
    private record Reader(Map<String, String> env, Properties sys) {
        String get(String name, String fallback) {
            String v = sys.getProperty("events." + name);
            if (v == null) {
                v = env.get(name(name));
            }
            return v == null || v.isBlank() ? fallback : v.strip();
        }

        String name(String name) {
            return "EVENTS_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
        }

        int count(String name, String fallback) {
            return intIn(get(name, fallback), 0, Integer.MAX_VALUE, name(name) + " must be a whole number, 0 or more");
        }

        boolean bool(String name, boolean fallback) {
            String v = get(name, Boolean.toString(fallback));
            if (v.equalsIgnoreCase("true")) {
                return true;
            }
            if (v.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException(name(name) + " must be true or false, got " + v);
        }

        int positiveCount(String name, String fallback) {
            return intIn(get(name, fallback), 1, Integer.MAX_VALUE, name(name) + " must be a whole number, 1 or more");
        }

        ZoneId zone(String name, String fallback) {
            String v = get(name, fallback);
            try {
                return ZoneId.of(v);
            } catch (java.time.DateTimeException e) {
                throw new IllegalArgumentException(name(name) + " must be a time-zone id such as UTC or Europe/Madrid, got " + v);
            }
        }

        Duration duration(String name, String fallback) {
            String v = get(name, fallback);
            try {
                return Duration.parse(v);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(name(name) + " must be an ISO-8601 duration such as PT10S, got " + v);
            }
        }
    }
}
