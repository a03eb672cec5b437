package dev.brisk.events;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.Dispatch;
import dev.brisk.HttpException;
import dev.brisk.events.cluster.ClusterNode;
import dev.brisk.events.dashboard.Dashboard;
import dev.brisk.events.feed.FeedParser;
import dev.brisk.events.poll.FeedPoller;
import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.search.EventIndex;
import dev.brisk.events.search.QueryMemo;
import dev.brisk.events.search.ResponseCache;
import dev.brisk.events.search.SearchEndpoint;
import dev.brisk.events.search.SearchQuery;
import dev.brisk.events.search.WideAnswers;
import dev.brisk.events.store.EventStore;
import dev.brisk.micrometer.BriskMeterBinder;
import dev.brisk.micrometer.MetricsServer;
import java.util.List;
import java.util.function.Consumer;

/**
 * The event search service: a store, the in-memory catalog loaded from it, a poller feeding both,
 * the search API on the main port and Prometheus metrics on the metrics port.
 *
 * <p>Routes: {@code GET /} (the routes below, as JSON), {@code GET /search?starts_at=&ends_at=&limit=&cursor=},
 * {@code GET /dashboard} and {@code GET /dashboard/data} ({@link Dashboard}), and from
 * {@code cfg.health}: {@code GET /health} (live) and {@code GET /ready} (200 once the stored events are
 * loaded and until shutdown begins, else 503).
 *
 * <p>Cluster mode ({@link EventsConfig#cluster()}, PostgreSQL only): a {@link ClusterNode} lets the poller
 * poll only while this instance holds the leader lock and follows the other instances' commits into the
 * catalog; {@code GET /ready} is then the service's own, the same status with the instance's role, change
 * number, lag and database state, and the engine's readiness route moves to {@code GET /ready/engine}.
 */
public final class EventsService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EventsService.class.getName());
    private static final String JSON = "application/json";
    /**
     * {@code GET /}: what a first request to the service should learn, each route with its method and one
     * line on what it does. Fixed text, so encoded once.
     */
    static final byte[] ROUTES = """
            {"service":"Brisk event search","routes":[\
            {"method":"GET","path":"/","description":"this list of routes"},\
            {"method":"GET","path":"/search","description":"events within starts_at..ends_at \
            (ISO-8601 date-times, both optional), sorted by start, limit per page (default 1000, at most 10000); \
            next is the link to the following page (null on the last)"},\
            {"method":"GET","path":"/health","description":"liveness: 200 while the process serves"},\
            {"method":"GET","path":"/ready","description":"readiness: 200 once the stored events are loaded, \
            503 before and while stopping; in cluster mode with this instance's role, change number and lag"},\
            {"method":"GET","path":"/dashboard","description":"a live dashboard of this instance (HTML)"},\
            {"method":"GET","path":"/dashboard/data","description":"the dashboard's figures as JSON"},\
            {"method":"GET","path":"/dashboard/stream","description":"the same figures pushed once a second \
            (Server-Sent Events)"}]}"""
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final EventsConfig config;
    private final EventStore store;
    private final EventCatalog catalog = new EventCatalog();
    private final ResponseCache cache;
    private final QueryMemo queries;
    private final WideAnswers wide;
    private final FeedPoller poller;
    private final EventsMetrics metrics;
    private final Brisk http;
    private final MetricsServer metricsHttp;
    /** Cluster mode's election and following; null for a single instance. */
    private final ClusterNode cluster;
    private final Dashboard dashboard;
    private volatile boolean closing;

    private EventsService(EventsConfig config, Consumer<BriskConfig> serverOptions, boolean poll) {
        if (config.providerUrl() == null) {
            throw new IllegalArgumentException("EVENTS_PROVIDER_URL is not set: the provider's feed URL is required");
        }
        this.config = config;
        this.cache = new ResponseCache(config.cacheEntries(), config.cacheBytes());
        this.queries = new QueryMemo(config.cacheEntries());
        this.wide = new WideAnswers(config.wideRenderThreads(), config.wideSearches());
        this.store = EventStore.open(config.effectiveDbUrl());
        FeedPoller p = null;
        Brisk main = null;
        MetricsServer side = null;
        ClusterNode node = null;
        try {
            p = new FeedPoller(new FeedPoller.Options(config.providerUrl(), config.pollInterval(),
                    config.connectTimeout(), config.readTimeout(), config.maxBackoff()),
                    new FeedParser(config.maxFeedBytes()), store, catalog, outcome -> {
                        metrics().polled(outcome);
                        dashboard().polled(outcome);
                    });
            this.poller = p;
            if (config.cluster()) {
                node = new ClusterNode(config.instanceId(), config.effectiveDbUrl(), config.clusterCheckInterval(),
                        store, catalog, p);
            }
            this.cluster = node;
            this.dashboard = new Dashboard(catalog, p, node, this::server);
            this.metrics = new EventsMetrics(catalog, cache, wide, poller::lastSuccess);
            if (node != null) {
                metrics.bindCluster(node);
            }
            main = Brisk.create(cfg -> {
                serverOptions.accept(cfg);
                routes(cfg);
            }).start();
            this.http = main;
            if (config.metricsPort() != EventsConfig.METRICS_OFF) {
                // the engine's own meters next to the service's, on a port of their own
                new BriskMeterBinder(main).bindTo(metrics.registry());
                side = MetricsServer.start(main.options().host(), config.metricsPort(), metrics::scrape,
                        MetricsServer.PROMETHEUS_TEXT);
            }
            this.metricsHttp = side;
            long t0 = System.nanoTime();
            EventStore.Snapshot stored = store.snapshot();
            catalog.load(stored.events(), stored.sequence());
            main.ready(true); // every stored event is searchable: take traffic
            LOG.log(System.Logger.Level.INFO, "loaded {0} stored events (change {1}) from {2} in {3} ms",
                    stored.events().size(), stored.sequence(), store.describe(), (System.nanoTime() - t0) / 1_000_000);
            if (node != null) {
                node.start();
            }
            if (poll) {
                poller.start(); // in cluster mode it polls only while this instance leads
            }
        } catch (RuntimeException e) {
            closeAll(node, p, main, side);
            throw e;
        }
    }

    /** Starts the service: opens the store, loads it, serves, and starts polling. */
    public static EventsService start(EventsConfig config) {
        return new EventsService(config, cfg -> { }, true);
    }

    /** As {@link #start(EventsConfig)}, with extra server options (port, host, config source) for the main port. */
    public static EventsService start(EventsConfig config, Consumer<BriskConfig> serverOptions) {
        return new EventsService(config, serverOptions, true);
    }

    /**
     * As {@link #start(EventsConfig, Consumer)}, but no background polling: polls happen only when
     * {@code poller().pollOnce()} is called (tests, tools that drive the poll themselves).
     */
    public static EventsService startWithoutPolling(EventsConfig config, Consumer<BriskConfig> serverOptions) {
        return new EventsService(config, serverOptions, false);
    }

    private EventsMetrics metrics() {
        return metrics;
    }

    private Dashboard dashboard() {
        return dashboard;
    }

    /** The main server, or null until it has started (the dashboard asks on each request). */
    private Brisk server() {
        return http;
    }

    private void routes(BriskConfig cfg) {
        cfg.use(metrics.requests());
        // the server listens before the stored events are loaded: not ready until they are
        if (cluster == null) {
            cfg.health(h -> h.startNotReady());
        } else {
            // the engine's readiness moves aside: /ready answers the same, with this instance's part in the cluster
            cfg.health(h -> h.readiness("/ready/engine").startNotReady());
            cfg.get("/ready", ctx -> {
                boolean up = http != null && http.isReady();
                ctx.status(up ? 200 : 503).header("Cache-Control", "no-store").contentType(JSON)
                        .bytes(readyBody(up).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }).dispatch(Dispatch.EVENT_LOOP);
        }
        cfg.get("/", ctx -> ctx.contentType(JSON).bytes(ROUTES)).dispatch(Dispatch.EVENT_LOOP);
        // pure memory and bounded work on the I/O thread, no hand-off; a wide answer is made on the
        // wide-render threads (unless cached) and sent as a stream, a piece at a time (SearchEndpoint)
        cfg.get("/search", new SearchEndpoint(catalog, queries, cache, wide, config.zone())).dispatch(Dispatch.EVENT_LOOP);
        dashboard.routes(cfg);
        cfg.exception(SearchQuery.InvalidParameterException.class, (e, ctx) -> error(ctx, 400, "invalid_parameter", e.getMessage()));
        cfg.exception(HttpException.class, (e, ctx) -> error(ctx, e.status(), code(e.status()), e.getMessage()));
        cfg.exception(Exception.class, (e, ctx) -> {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure in " + ctx.method() + " " + ctx.path(), e);
            error(ctx, 500, "internal_error", "internal server error");
        });
        cfg.error(404, ctx -> error(ctx, 404, "not_found", "no such resource: " + ctx.path()));
    }

    /**
     * The cluster-mode readiness body: the engine's status and reason, then this instance's id, role,
     * change number, the database's, the last follow lag and whether the database answers. Losing the
     * database does not make the instance unready: it serves its last snapshot and says so here.
     */
    String readyBody(boolean up) {
        StringBuilder b = new StringBuilder(256).append("{\"status\":\"").append(up ? "UP" : "DOWN").append('"');
        if (!up) {
            b.append(",\"reason\":\"").append(closing ? "shutting_down" : "not_ready").append('"');
        }
        ClusterNode n = cluster;
        b.append(",\"cluster\":{\"instance\":\"").append(jsonText(n.instanceId()))
                .append("\",\"role\":\"").append(n.role().name().toLowerCase(java.util.Locale.ROOT))
                .append("\",\"sequence\":").append(n.sequence())
                .append(",\"database_sequence\":").append(n.databaseSequence())
                .append(",\"lag_ms\":").append(n.lagMillis())
                .append(",\"database\":\"").append(n.databaseUp() ? "up" : "down").append('"');
        if (!n.databaseUp()) {
            b.append(",\"database_error\":\"").append(jsonText(String.valueOf(n.databaseError())))
                    .append("\",\"serving\":\"the last snapshot, ")
                    .append(String.format(java.util.Locale.ROOT, "%.0f", n.secondsSinceContact())).append(" s old\"");
        }
        return b.append("}}").toString();
    }

    /** {@code v} as JSON string content: quotes, backslashes and control characters escaped. */
    static String jsonText(String v) {
        StringBuilder b = new StringBuilder(v.length() + 8);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static void error(dev.brisk.Context ctx, int status, String code, String message) {
        SearchEndpoint.error(ctx, status, code, message);
    }

    private static String code(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "payload_too_large";
            case 501 -> "not_implemented"; // a method no route has (BREW): the client's, not a server fault
            case 503 -> "unavailable";
            default -> status >= 500 ? "internal_error" : "client_error";
        };
    }

    public int port() {
        return http.port();
    }

    /** The metrics server's port, or -1 when it is off. */
    public int metricsPort() {
        return metricsHttp == null ? -1 : metricsHttp.port();
    }

    public EventCatalog catalog() {
        return catalog;
    }

    public FeedPoller poller() {
        return poller;
    }

    /** Cluster mode's node (role, sequence, lag), or null for a single instance. */
    public ClusterNode cluster() {
        return cluster;
    }

    public EventsMetrics metricsRegistry() {
        return metrics;
    }

    public ResponseCache cache() {
        return cache;
    }

    public EventsConfig config() {
        return config;
    }

    /** Blocks until the main server is closed. */
    public void awaitClose() throws InterruptedException {
        http.awaitClose();
    }

    /**
     * Graceful stop: the main server first (readiness turns 503 at once, so a load balancer stops
     * sending; {@code shutdown-delay} still serving; then the drain), then polling (an in-flight
     * transaction commits or rolls back whole), the metrics server and the store.
     */
    @Override
    public void close() {
        closing = true;
        closeAll(cluster, poller, http, metricsHttp);
    }

    private void closeAll(ClusterNode node, FeedPoller p, Brisk main, MetricsServer side) {
        if (main != null) {
            main.close();
        }
        if (node != null) {
            node.close();
        }
        if (p != null) {
            p.close();
        }
        if (side != null) {
            side.close();
        }
        wide.close();
        store.close();
    }
}
