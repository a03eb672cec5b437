package dev.brisk.events;

import dev.brisk.ConfigSource;
import dev.brisk.ServerOptions;

/**
 * {@code ./brisk events}: the event search service alone, reading {@code EVENTS_PROVIDER_URL} and the
 * other settings of {@link EventsConfig}. Runs until SIGTERM / Ctrl-C, then stops gracefully.
 */
public final class EventsMain {
    private EventsMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ConsoleLogs.oneLine();
        EventsConfig config;
        try {
            config = EventsConfig.load();
            if (config.providerUrl() == null) {
                throw new IllegalArgumentException("EVENTS_PROVIDER_URL is not set (e.g. EVENTS_PROVIDER_URL="
                        + "http://127.0.0.1:8081/feed); ./brisk demo starts a simulated provider for you");
            }
            // the server's own options (BRISK_PORT, ...), read as the server will: a bad one is reported the same way
            ServerOptions.builder().from(ConfigSource.load()).build();
        } catch (IllegalArgumentException e) {
            System.err.println("brisk events: " + e.getMessage());
            System.exit(2);
            return;
        }
        EventsService service;
        try {
            service = EventsService.start(config);
        } catch (RuntimeException e) {
            System.exit(startFailed("brisk events", e));
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(service::close, "events-shutdown"));
        printBanner("Brisk event search", service);
        service.awaitClose();
    }

    /**
     * Reports why a start failed in one line on stderr, for {@code who} ("brisk events"), and returns the
     * exit status: 2 for a wrong setting (an unresolvable host, a database URL no driver takes), 1 for
     * what the machine refused (a port that is taken). Anything else is rethrown: a bug, with its trace.
     */
    public static int startFailed(String who, RuntimeException e) {
        if (e instanceof IllegalArgumentException) {
            System.err.println(who + ": " + e.getMessage());
            return 2;
        }
        if (e instanceof dev.brisk.events.store.StoreException) {
            System.err.println(who + ": the database (EVENTS_DB_URL) cannot be used: " + e.getMessage());
            return 2;
        }
        if (e instanceof java.io.UncheckedIOException io) {
            System.err.println(who + ": " + io.getCause().getMessage());
            return 1;
        }
        throw e;
    }

    /** Where the service listens and a few URLs to try. */
    static void printBanner(String title, EventsService service) {
        String base = "http://localhost:" + service.port();
        System.out.println(title + " on " + base + " (provider " + service.config().providerUrl()
                + ", polled every " + service.config().pollInterval() + ")");
        if (service.cluster() != null) {
            System.out.println("Cluster mode: instance " + service.cluster().instanceId() + " on " + service.config().effectiveDbUrl()
                    .replaceAll("(?i)(password=)[^&;]*", "$1***") + " (one leader polls; GET /ready shows the role)");
        }
        if (service.metricsPort() > 0) {
            System.out.println("Metrics: http://localhost:" + service.metricsPort() + "/metrics");
        }
        System.out.println("Dashboard: " + base + "/dashboard");
        System.out.println("Try:");
        System.out.println("  curl " + base + "/          (the service's routes)");
        System.out.println("  curl '" + base + "/search?starts_at=2021-01-01T00:00:00Z&ends_at=2021-02-01T00:00:00Z'");
        System.out.println("  curl '" + base + "/search?starts_at=2021-06-01T00:00:00'");
        System.out.println("  curl '" + base + "/search?starts_at=2021-06-01T00:00:00&limit=5'   (then follow data.next)");
        System.out.println("  curl '" + base + "/search?ends_at=2021-01-15T00:00:00Z'");
        System.out.println("  curl -i '" + base + "/search?starts_at=not-a-date'");
        System.out.println("  curl " + base + "/ready");
        System.out.println("Stop with Ctrl-C.");
    }
}
