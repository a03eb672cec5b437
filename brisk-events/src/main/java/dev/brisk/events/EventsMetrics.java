package dev.brisk.events;

import dev.brisk.HttpException;
import dev.brisk.Middleware;
import dev.brisk.events.poll.PollListener;
import dev.brisk.events.poll.PollOutcome;
import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.search.ResponseCache;
import dev.brisk.events.search.WideAnswers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The service's meters, in a Prometheus registry served on the metrics port. Names (Prometheus form):
 * {@code http_server_requests_seconds{method,route,status}}, {@code events_poll_seconds{result}},
 * {@code events_poll_failures_total{reason}}, {@code events_feed_records_total},
 * {@code events_feed_records_skipped_total}, {@code events_feed_records_not_online_total},
 * {@code events_feed_records_conflicting_total}, {@code events_stored},
 * {@code events_poll_last_success_age_seconds}, {@code events_search_cache_total{result="hit"|"miss"}},
 * {@code events_search_cache_bytes}, {@code events_search_wide_total{result="admitted"|"refused"}},
 * {@code events_search_wide_in_flight}.
 */
public final class EventsMetrics implements PollListener {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter records;
    private final Counter skipped;
    private final Counter notOnline;
    private final Counter conflicting;
    // route template -> method -> status -> timer
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, AtomicReferenceArray<Timer>>> timers =
            new ConcurrentHashMap<>();

    public EventsMetrics(EventCatalog catalog, ResponseCache cache, WideAnswers wide, Supplier<Instant> lastSuccess) {
        records = Counter.builder("events.feed.records").description("feed records read").register(registry);
        skipped = Counter.builder("events.feed.records.skipped").description("bad feed records skipped").register(registry);
        notOnline = Counter.builder("events.feed.records.not.online")
                .description("feed records ignored because not sold online").register(registry);
        conflicting = Counter.builder("events.feed.records.conflicting")
                .description("feed records whose id an earlier record of the same feed had, with other values (the last is kept)")
                .register(registry);
        Gauge.builder("events.stored", catalog, c -> c.current().size())
                .description("events stored and searchable").register(registry);
        // before the first success, the age since the service started: a provider down since a start or restart
        // is the case to alert on, and a NaN compares false with any threshold
        Instant started = Instant.now();
        Gauge.builder("events.poll.last.success.age", lastSuccess, s -> {
            Instant t = s.get();
            return Duration.between(t == null ? started : t, Instant.now()).toMillis() / 1000.0;
        }).baseUnit("seconds").description("seconds since the last successful poll (since the start before the first)")
                .strongReference(true) // a method reference nobody else holds: weakly held, the first GC made it NaN
                .register(registry);
        FunctionCounter.builder("events.search.cache", cache, ResponseCache::hits).tag("result", "hit").register(registry);
        FunctionCounter.builder("events.search.cache", cache, ResponseCache::misses).tag("result", "miss").register(registry);
        Gauge.builder("events.search.cache.bytes", cache, ResponseCache::bytes).baseUnit("bytes")
                .description("bytes budgeted for cached /search bodies").register(registry);
        FunctionCounter.builder("events.search.wide", wide, WideAnswers::admitted).tag("result", "admitted")
                .description("wide /search answers (over 256 KiB) streamed, or refused with 503 when too many were in flight")
                .register(registry);
        FunctionCounter.builder("events.search.wide", wide, WideAnswers::refused).tag("result", "refused").register(registry);
        Gauge.builder("events.search.wide.in.flight", wide, WideAnswers::inFlight)
                .description("wide /search answers admitted and not yet sent").register(registry);
    }

    /**
     * Cluster mode's meters: {@code events_cluster_leader{instance}} (1 while this instance leads),
     * {@code events_cluster_sequence{instance}} (the change number served), {@code events_cluster_database_sequence},
     * {@code events_cluster_follow_lag_seconds} (the last commit's, from commit to publication here),
     * {@code events_cluster_follow_lag_max_seconds}, {@code events_cluster_database_up} and
     * {@code events_cluster_takeovers_total}.
     */
    public void bindCluster(dev.brisk.events.cluster.ClusterNode node) {
        String id = node.instanceId();
        Gauge.builder("events.cluster.leader", node, n -> n.role() == dev.brisk.events.cluster.ClusterNode.Role.LEADER ? 1 : 0)
                .tag("instance", id).description("1 while this instance holds the leader lock and polls").register(registry);
        Gauge.builder("events.cluster.sequence", node, n -> n.sequence()).tag("instance", id)
                .description("the change number this instance's snapshot is complete up to").register(registry);
        Gauge.builder("events.cluster.database.sequence", node, n -> n.databaseSequence()).tag("instance", id)
                .description("the database's change number when last read").register(registry);
        Gauge.builder("events.cluster.follow.lag", node, n -> n.lagMillis() < 0 ? Double.NaN : n.lagMillis() / 1000.0)
                .tag("instance", id).baseUnit("seconds")
                .description("from the last commit loaded to its publication here").register(registry);
        Gauge.builder("events.cluster.follow.lag.max", node, n -> n.maxLagMillis() < 0 ? Double.NaN : n.maxLagMillis() / 1000.0)
                .tag("instance", id).baseUnit("seconds").description("the largest follow lag since start").register(registry);
        Gauge.builder("events.cluster.database.up", node, n -> n.databaseUp() ? 1 : 0).tag("instance", id)
                .description("1 while the database answers; 0: serving the last snapshot").register(registry);
        FunctionCounter.builder("events.cluster.takeovers", node, n -> n.takeovers()).tag("instance", id)
                .description("times this instance became the leader").register(registry);
    }

    /** Records every request by method, route template (never the raw path) and status. */
    public Middleware requests() {
        return next -> ctx -> {
            long t0 = System.nanoTime();
            int status = 500;
            try {
                next.handle(ctx);
                status = ctx.status();
            } catch (HttpException e) {
                status = e.status();
                throw e;
            } finally {
                timer(ctx.method(), ctx.routeTemplate(), status).record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
            }
        };
    }

    /**
     * The timer of (method, route, status), registered on first use and then found without building a
     * meter id: registering per request would cost an id, its tags and a registry lookup each time.
     */
    private Timer timer(String rawMethod, String route, int status) {
        String r = route == null ? "unmatched" : route;
        String method = methodTag(rawMethod);
        AtomicReferenceArray<Timer> byStatus = timers.computeIfAbsent(r, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(method, k -> new AtomicReferenceArray<>(600));
        int slot = status >= 100 && status < 600 ? status : 0;
        Timer t = byStatus.get(slot);
        if (t == null) {
            t = Timer.builder("http.server.requests")
                    .tag("method", method)
                    .tag("route", r)
                    .tag("status", Integer.toString(status))
                    .publishPercentileHistogram()
                    .register(registry); // idempotent: a racing first use gets the same timer
            byStatus.set(slot, t);
        }
        return t;
    }

    /**
     * The method as a tag: the standard ones by name, any other token (the parser accepts every token,
     * and a client can send a new one per request) as {@code OTHER}, so the series stay bounded.
     */
    static String methodTag(String method) {
        return switch (method) {
            case "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT" -> method;
            default -> "OTHER";
        };
    }

    @Override
    public void polled(PollOutcome o) {
        Timer.builder("events.poll").tag("result", o.result().name().toLowerCase(java.util.Locale.ROOT))
                .description("polls of the provider by result").register(registry)
                .record(o.nanos(), TimeUnit.NANOSECONDS);
        if (!o.ok()) {
            Counter.builder("events.poll.failures").tag("reason", o.reason()).register(registry).increment();
        }
        records.increment(o.records());
        skipped.increment(o.skipped());
        notOnline.increment(o.notOnline());
        conflicting.increment(o.conflicts());
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }
}
