package dev.brisk.events;

import dev.brisk.ConfigSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/** Service set-ups for tests: ephemeral ports on 127.0.0.1, short timeouts, a given store. */
public final class TestServices {
    private TestServices() {
    }

    /** A config polling {@code provider} every {@code interval}, storing in SQLite under {@code dataDir}. */
    public static EventsConfig config(URI provider, Path dataDir, Duration interval) {
        Properties sys = new Properties();
        sys.setProperty("events.data-dir", dataDir.toString());
        return EventsConfig.from(Map.of(), sys, ConfigSource.empty())
                .withProviderUrl(provider)
                .withPollInterval(interval)
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), interval.multipliedBy(4))
                .withMetricsPort(0);
    }

    /** Starts the service on ephemeral ports, polling in the background. */
    public static EventsService start(EventsConfig config) {
        return EventsService.start(config, cfg -> cfg.configSource(ConfigSource.empty()).host("127.0.0.1").port(0));
    }

    /** Starts the service on ephemeral ports; it polls only when the test calls pollOnce(). */
    public static EventsService startDriven(EventsConfig config) {
        return EventsService.startWithoutPolling(config,
                cfg -> cfg.configSource(ConfigSource.empty()).host("127.0.0.1").port(0));
    }
}
