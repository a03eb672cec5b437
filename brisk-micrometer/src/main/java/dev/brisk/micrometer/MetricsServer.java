package dev.brisk.micrometer;

import dev.brisk.Brisk;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import java.util.function.Supplier;

/**
 * A second, small Brisk instance serving {@code GET /metrics} on its own port, so that scrapes never
 * compete with the app's traffic (nor count in its metrics, nor get shed by its limits). The scrape
 * function runs on this server's own I/O thread, so a scrape answers even while the app's handlers
 * keep every virtual-thread carrier busy; it must not block.
 *
 * <p>The body comes from a scrape function, which keeps this module free of any particular registry:
 * with Micrometer's Prometheus registry, {@code MetricsServer.start(host, port, registry::scrape,
 * MetricsServer.PROMETHEUS_TEXT)}. Outside configuration ({@code BRISK_PORT}, {@code brisk.properties},
 * ...) is ignored: it is meant for the app, and would otherwise move this server onto the app's port.
 */
public final class MetricsServer implements AutoCloseable {
    /** The path served. */
    public static final String PATH = "/metrics";

    /** The content type of the Prometheus text exposition format 0.0.4. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final Brisk server;

    private MetricsServer(Brisk server) {
        this.server = server;
    }

    /**
     * Binds {@code host}:{@code port} and serves {@code GET /metrics}: the text of {@code scrape}, called
     * once per request, as {@code contentType}. Any other path is a 404.
     *
     * @param host the address to listen on
     * @param port the port; 0 for any free one (see {@link #port()})
     * @param scrape returns the registry's text, on this server's I/O thread
     * @param contentType the {@code Content-Type} of the scrape's text
     * @return the running server; close it when done
     * @throws java.io.UncheckedIOException when the port cannot be bound
     */
    public static MetricsServer start(String host, int port, Supplier<String> scrape, String contentType) {
        Brisk server = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.empty()).host(host).port(port);
            // a scrape every few seconds needs no more than one I/O loop
            cfg.options().ioThreads(1);
            // on this server's own I/O thread, not a virtual thread: the app's handlers share the JVM's
            // virtual-thread scheduler, and under overload a scrape would wait behind all of them
            cfg.get(PATH, ctx -> ctx.text(scrape.get()).contentType(contentType)).dispatch(Dispatch.EVENT_LOOP);
        });
        return new MetricsServer(server.start());
    }

    /** {@return the bound port} */
    public int port() {
        return server.port();
    }

    /** {@return the address it listens on, as given} */
    public String host() {
        return server.options().host();
    }

    /** {@return the URL to scrape ({@code localhost} when listening on every address)} */
    public String url() {
        String h = host();
        if (h.equals("0.0.0.0") || h.equals("::")) {
            h = "localhost";
        } else if (h.indexOf(':') >= 0) {
            h = "[" + h + "]";
        }
        return "http://" + h + ":" + port() + PATH;
    }

    /** Stops serving (graceful: a scrape in progress finishes). Idempotent. */
    @Override
    public void close() {
        server.close();
    }
}
