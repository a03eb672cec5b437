package dev.brisk.events.dashboard;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.ServerMetrics;
import dev.brisk.events.cluster.ClusterNode;
import dev.brisk.events.poll.FeedPoller;
import dev.brisk.events.poll.PollListener;
import dev.brisk.events.poll.PollOutcome;
import dev.brisk.events.search.EventCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The live dashboard: {@code GET /dashboard} (a page of plain HTML, CSS and JavaScript kept in the jar,
 * its charts SVG drawn by its own script) and {@code GET /dashboard/data}, the figures it polls once a
 * second as JSON: events stored, polls (ok, failed, backing off), the provider's latency, this
 * instance's role, change number and follow lag, and the engine's own counters (responses and the
 * latency histogram, from which the page computes requests per second and p99 between two samples).
 *
 * <p>Also a {@link PollListener}, counting polls by result. Thread-safe: counters are atomic, the
 * rest is read from the parts' own thread-safe getters when a request asks.
 */
public final class Dashboard implements PollListener {
    private static final String BASE = "/dev/brisk/events/dashboard/";
    /** How often {@code /dashboard/stream} pushes the figures. */
    private static final long PUSH_NANOS = 1_000_000_000L;
    private final byte[] html = resource("dashboard.html");
    private final byte[] script = resource("dashboard.js");
    private final byte[] style = resource("dashboard.css");
    private final EventCatalog catalog;
    private final FeedPoller poller;
    private final ClusterNode cluster;
    private final Supplier<Brisk> server;
    private final AtomicLong pollsOk = new AtomicLong();
    private final AtomicLong pollsFailed = new AtomicLong();
    private volatile String lastResult = "none";
    private volatile String lastReason;

    /**
     * A dashboard over the service's parts.
     *
     * @param catalog what is served
     * @param poller  the poller (latency, back-off)
     * @param cluster the cluster node, or null for a single instance
     * @param server  the main server, once started (null before): the engine's counters
     */
    public Dashboard(EventCatalog catalog, FeedPoller poller, ClusterNode cluster, Supplier<Brisk> server) {
        this.catalog = catalog;
        this.poller = poller;
        this.cluster = cluster;
        this.server = server;
    }

    private static byte[] resource(String name) {
        try (InputStream in = Dashboard.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + BASE + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Declares the dashboard's routes on the event loop: fixed bytes, and a JSON text of a few hundred bytes. */
    public void routes(BriskConfig cfg) {
        cfg.get("/dashboard", ctx -> ctx.contentType("text/html; charset=utf-8").header("Cache-Control", "no-cache").bytes(html))
                .dispatch(Dispatch.EVENT_LOOP);
        cfg.get("/dashboard/dashboard.js", ctx -> ctx.contentType("text/javascript; charset=utf-8")
                .header("Cache-Control", "no-cache").bytes(script)).dispatch(Dispatch.EVENT_LOOP);
        cfg.get("/dashboard/dashboard.css", ctx -> ctx.contentType("text/css; charset=utf-8")
                .header("Cache-Control", "no-cache").bytes(style)).dispatch(Dispatch.EVENT_LOOP);
        cfg.get("/dashboard/data", ctx -> ctx.contentType("application/json").header("Cache-Control", "no-store")
                .bytes(data().getBytes(StandardCharsets.UTF_8))).dispatch(Dispatch.EVENT_LOOP);
        // the same figures pushed once a second as Server-Sent Events (the page's EventSource); a proxy
        // such as nginx is asked not to buffer them
        cfg.get("/dashboard/stream", ctx -> ctx.header("X-Accel-Buffering", "no").sse(sink -> {
            while (sink.data(data()) && waitOnePush()) {
                // next figures
            }
        }));
    }

    /**
     * Waits one push period on the calling (virtual) thread; false if it was interrupted. A deadline
     * loop, since {@code parkNanos} may return early (a permit left by the sink's own write wake-up,
     * or spuriously).
     */
    private static boolean waitOnePush() {
        long next = System.nanoTime() + PUSH_NANOS;
        for (long left = PUSH_NANOS; left > 0; left = next - System.nanoTime()) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
        return true;
    }

    @Override
    public void polled(PollOutcome o) {
        (o.ok() ? pollsOk : pollsFailed).incrementAndGet();
        lastResult = o.result().name().toLowerCase(Locale.ROOT);
        lastReason = o.reason();
    }

    /** The figures, as the JSON text {@code /dashboard/data} answers. */
    public String data() {
        StringBuilder b = new StringBuilder(1024);
        b.append("{\"time_ms\":").append(System.currentTimeMillis());
        b.append(",\"events_stored\":").append(catalog.current().size());
        b.append(",\"sequence\":").append(catalog.sequence());
        long provider = poller.providerLatencyNanos();
        Instant last = poller.lastSuccess();
        b.append(",\"polls\":{\"ok\":").append(pollsOk.get()).append(",\"failed\":").append(pollsFailed.get())
                .append(",\"failures_in_a_row\":").append(poller.failuresInARow())
                .append(",\"backing_off\":").append(poller.failuresInARow() > 0)
                .append(",\"last_result\":\"").append(lastResult).append('"')
                .append(",\"last_reason\":").append(lastReason == null ? "null" : "\"" + lastReason + "\"")
                .append(",\"last_success_age_s\":").append(last == null ? "null"
                        : String.format(Locale.ROOT, "%.1f", (System.currentTimeMillis() - last.toEpochMilli()) / 1000.0))
                .append(",\"provider_latency_ms\":").append(provider < 0 ? "null"
                        : String.format(Locale.ROOT, "%.1f", provider / 1e6))
                .append('}');
        if (cluster == null) {
            b.append(",\"cluster\":null");
        } else {
            b.append(",\"cluster\":{\"instance\":\"").append(text(cluster.instanceId()))
                    .append("\",\"role\":\"").append(cluster.role().name().toLowerCase(Locale.ROOT))
                    .append("\",\"database_sequence\":").append(cluster.databaseSequence())
                    .append(",\"lag_ms\":").append(cluster.lagMillis())
                    .append(",\"max_lag_ms\":").append(cluster.maxLagMillis())
                    .append(",\"database\":\"").append(cluster.databaseUp() ? "up" : "down").append("\"}");
        }
        Brisk http = server.get();
        if (http != null) {
            ServerMetrics m = http.metrics();
            b.append(",\"requests\":{\"total\":").append(m.requests())
                    .append(",\"errors_5xx\":").append(m.requests(5))
                    .append(",\"connections\":").append(m.connectionsActive())
                    .append(",\"latency_bounds_ms\":");
            List<Long> bounds = m.latencyBucketBoundsNanos();
            b.append('[');
            for (int i = 0; i < bounds.size(); i++) {
                b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", bounds.get(i) / 1e6));
            }
            b.append("],\"latency_counts\":").append(m.latencyCounts().toString().replace(" ", "")).append('}');
        }
        return b.append('}').toString();
    }

    private static String text(String v) {
        StringBuilder b = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20) {
                b.append(c);
            }
        }
        return b.toString();
    }
}
