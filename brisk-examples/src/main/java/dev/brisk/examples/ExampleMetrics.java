package dev.brisk.examples;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.micrometer.BriskMeterBinder;
import dev.brisk.micrometer.MetricsServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.OptionalInt;

/**
 * The example app's metrics port: when the option {@code metrics-port} is set ({@code BRISK_METRICS_PORT}
 * / {@code brisk.metrics-port}; unset or {@code off}: none), Prometheus {@code GET /metrics} with the
 * app's engine metrics and scaling signals ({@link BriskMeterBinder}) on a second Brisk instance, on the
 * app's host. The app's own port never serves {@code /metrics}.
 */
public final class ExampleMetrics {
    /** The option naming the metrics port. */
    public static final String OPTION = "metrics-port";

    private ExampleMetrics() {
    }

    /**
     * The metrics port {@code source} asks for: empty when unset, empty or {@code off}; 0 means any free port.
     *
     * @throws IllegalArgumentException when it is neither {@code off} nor a port number
     */
    public static OptionalInt port(ConfigSource source) {
        if (source.get(OPTION).map(v -> v.isEmpty() || v.equalsIgnoreCase("off")).orElse(true)) {
            return OptionalInt.empty();
        }
        int port = source.integer(OPTION, -1);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("invalid value for option '" + OPTION + "' (brisk." + OPTION + " / "
                    + ConfigSource.envName(OPTION) + "): " + port + " is not a port (0..65535) nor off");
        }
        return OptionalInt.of(port);
    }

    /** Starts the metrics server for {@code app} on {@code port}, bound to a new Prometheus registry. */
    public static MetricsServer start(Brisk app, int port) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BriskMeterBinder(app).bindTo(registry);
        return MetricsServer.start(app.options().host(), port, registry::scrape, MetricsServer.PROMETHEUS_TEXT);
    }
}
