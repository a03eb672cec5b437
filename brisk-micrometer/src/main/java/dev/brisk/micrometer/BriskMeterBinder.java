package dev.brisk.micrometer;

import dev.brisk.Brisk;
import dev.brisk.ServerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds a Brisk app's {@link ServerMetrics} and {@link ScalingSignals} to a {@link MeterRegistry}.
 *
 * <p>Every meter is function-based (FunctionCounter, Gauge, FunctionTimer): it reads the engine's own
 * lock-free counters when the registry is scraped, so nothing is recorded twice and the request path
 * is unchanged. Names (Micrometer form; Prometheus form in brackets):
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th></tr>
 * <tr><td>brisk.connections.accepted [brisk_connections_accepted_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.connections.active [brisk_connections_active]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.connections.timed.out [brisk_connections_timed_out_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.accept.pauses [brisk_accept_pauses_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.requests [brisk_requests_total]</td><td>counter</td><td>status_class 1xx..5xx</td></tr>
 * <tr><td>brisk.protocol.requests [brisk_protocol_requests_total]</td><td>counter</td><td>protocol http/1.1, h2, h2c</td></tr>
 * <tr><td>brisk.requests.in.flight [brisk_requests_in_flight]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.requests.queued [brisk_requests_queued]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.requests.shed [brisk_requests_shed_total]</td><td>counter</td><td>reason</td></tr>
 * <tr><td>brisk.concurrency.limit [brisk_concurrency_limit]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.bytes.in, brisk.bytes.out [brisk_bytes_in_total, brisk_bytes_out_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.request.latency [brisk_request_latency_seconds_count, _sum]</td><td>function timer</td><td></td></tr>
 * <tr><td>brisk.request.latency.buckets [brisk_request_latency_buckets_total]</td><td>counter</td><td>le (seconds, cumulative, +Inf)</td></tr>
 * <tr><td>brisk.parse.errors [brisk_parse_errors_total]</td><td>counter</td><td>kind</td></tr>
 * <tr><td>brisk.access.log.dropped [brisk_access_log_dropped_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.body.memory.reserved [brisk_body_memory_reserved]</td><td>gauge (bytes)</td><td></td></tr>
 * <tr><td>brisk.body.memory.pooled [brisk_body_memory_pooled]</td><td>gauge (bytes)</td><td></td></tr>
 * <tr><td>brisk.body.spool.reserved [brisk_body_spool_reserved]</td><td>gauge (bytes)</td><td></td></tr>
 * <tr><td>brisk.compressed.file.cache.hits [brisk_compressed_file_cache_hits_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.compressed.file.cache.bytes [brisk_compressed_file_cache_bytes]</td><td>gauge (bytes)</td><td></td></tr>
 * <tr><td>brisk.websocket.sessions.opened [brisk_websocket_sessions_opened_total]</td><td>counter</td><td></td></tr>
 * <tr><td>brisk.websocket.sessions.active [brisk_websocket_sessions_active]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.websocket.messages [brisk_websocket_messages_total]</td><td>counter</td><td>direction in, out</td></tr>
 * <tr><td>brisk.websocket.buffered.bytes [brisk_websocket_buffered_bytes]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.websocket.closed [brisk_websocket_closed_total]</td><td>counter</td><td>reason slow_receiver,
 *     protocol_error, idle</td></tr>
 * <tr><td>brisk.saturation.ratio [brisk_saturation_ratio]</td><td>gauge</td><td></td></tr>
 * <tr><td>brisk.rejection.rate [brisk_rejection_rate]</td><td>gauge (shed requests per second)</td><td></td></tr>
 * <tr><td>brisk.needs.scaleout [brisk_needs_scaleout]</td><td>gauge (0 or 1)</td><td></td></tr>
 * <tr><td>brisk.connection.headroom [brisk_connection_headroom]</td><td>gauge</td><td></td></tr>
 * </table>
 *
 * <p>Naming: the latency buckets are not called {@code ...latency.bucket}, because Prometheus strips a
 * {@code _bucket} suffix from a counter's name and would print {@code brisk_request_latency_total}; and
 * the byte counters carry no base unit, which would print {@code brisk_bytes_in_bytes_total}. The buckets
 * and the timer are read one after another, so a scrape during traffic may see them a few requests apart.
 *
 * <p>Bind one app to a registry once: a second bind of the same names is ignored by Micrometer (give two
 * apps in one registry different tags).
 */
public final class BriskMeterBinder implements MeterBinder {
    private final ServerMetrics metrics;
    private final ScalingSignals signals;
    private final Tags tags;

    /**
     * Binds {@code app}'s counters, with scaling signals over the default window.
     *
     * @param app the app whose counters the meters read, live
     */
    public BriskMeterBinder(Brisk app) {
        this(app, Tags.empty());
    }

    /**
     * As {@link #BriskMeterBinder(Brisk)}, adding {@code tags} to every meter.
     *
     * @param app the app whose counters the meters read, live
     * @param tags added to every meter
     */
    public BriskMeterBinder(Brisk app, Iterable<Tag> tags) {
        this(app.metrics(), new ScalingSignals(app), tags);
    }

    /**
     * Binds counters and signals given separately, e.g. signals on a fake clock in a test.
     *
     * @param metrics the engine's counters ({@link Brisk#metrics()})
     * @param signals the scaling signals over the same counters (its window and clock are kept)
     * @param tags added to every meter
     */
    public BriskMeterBinder(ServerMetrics metrics, ScalingSignals signals, Iterable<Tag> tags) {
        this.metrics = metrics;
        this.signals = signals;
        this.tags = Tags.of(tags);
    }

    /** {@return the scaling signals the gauges read} */
    public ScalingSignals signals() {
        return signals;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "brisk.connections.accepted", "connections accepted", ServerMetrics::connectionsAccepted, Tags.empty());
        gauge(registry, "brisk.connections.active", "connections open now", ServerMetrics::connectionsActive);
        counter(registry, "brisk.connections.timed.out", "connections closed because a timeout expired",
                ServerMetrics::connectionsTimedOut, Tags.empty());
        counter(registry, "brisk.connections.too.slow",
                "connections closed below a minimum data rate (min-body-rate: 408; min-response-rate)",
                ServerMetrics::slowRequestBodies, Tags.of("direction", "request-body"));
        counter(registry, "brisk.connections.too.slow",
                "connections closed below a minimum data rate (min-body-rate: 408; min-response-rate)",
                ServerMetrics::slowResponses, Tags.of("direction", "response"));
        counter(registry, "brisk.accept.pauses", "times accepting paused at max-connections",
                ServerMetrics::acceptPauses, Tags.empty());
        counter(registry, "brisk.tls.handshakes", "TLS handshakes by outcome", ServerMetrics::tlsHandshakes,
                Tags.of("outcome", "finished"));
        counter(registry, "brisk.tls.handshakes", "TLS handshakes by outcome", ServerMetrics::tlsHandshakeFailures,
                Tags.of("outcome", "failed"));
        counter(registry, "brisk.tls.reloads", "changed TLS key files by outcome (failed: the old key stayed)",
                ServerMetrics::tlsReloads, Tags.of("outcome", "loaded"));
        counter(registry, "brisk.tls.reloads", "changed TLS key files by outcome (failed: the old key stayed)",
                ServerMetrics::tlsReloadFailures, Tags.of("outcome", "failed"));
        for (int cls = 1; cls <= 5; cls++) {
            int c = cls;
            counter(registry, "brisk.requests", "responses sent by status class", m -> m.requests(c),
                    Tags.of("status_class", c + "xx"));
        }
        for (String protocol : metrics.requestsByProtocol().keySet()) {
            counter(registry, "brisk.protocol.requests", "responses sent by the protocol that carried them",
                    m -> m.requestsByProtocol().getOrDefault(protocol, 0L), Tags.of("protocol", protocol));
        }
        gauge(registry, "brisk.requests.in.flight", "requests admitted and not yet answered", ServerMetrics::inFlight);
        gauge(registry, "brisk.requests.queued", "requests waiting for an in-flight slot", ServerMetrics::queued);
        gauge(registry, "brisk.concurrency.limit", "the in-flight limit now (0: unlimited)", ServerMetrics::concurrencyLimit);
        counter(registry, "brisk.bytes.in", "request bytes read", ServerMetrics::bytesIn, Tags.empty());
        counter(registry, "brisk.bytes.out", "response bytes written", ServerMetrics::bytesOut, Tags.empty());
        counter(registry, "brisk.socket.writes", "socket writes that wrote bytes (pipelined responses share one)",
                ServerMetrics::socketWrites, Tags.empty());
        // the kinds and reasons are fixed by the engine: every one is in the maps from the start
        for (String kind : metrics.parseErrors().keySet()) {
            counter(registry, "brisk.parse.errors", "requests refused while parsed or read, by kind",
                    m -> m.parseErrors().getOrDefault(kind, 0L), Tags.of("kind", kind));
        }
        for (String reason : metrics.shed().keySet()) {
            counter(registry, "brisk.requests.shed", "requests refused by load shedding, by reason",
                    m -> m.shed().getOrDefault(reason, 0L), Tags.of("reason", reason));
        }
        counter(registry, "brisk.access.log.dropped", "access-log lines lost: the queue was full or the logger failed",
                ServerMetrics::accessLogDropped, Tags.empty());
        gauge(registry, "brisk.body.memory.reserved", "request-body memory reserved now, bytes (body-memory-budget)",
                ServerMetrics::bodyMemoryReserved);
        gauge(registry, "brisk.body.memory.pooled", "off-heap slabs kept for request bodies, in use or idle, bytes",
                ServerMetrics::bodyMemoryPooled);
        gauge(registry, "brisk.body.spool.reserved", "disk reserved by spooled request bodies now, bytes",
                ServerMetrics::bodySpoolReserved);
        counter(registry, "brisk.compressed.file.cache.hits",
                "compressed static-file answers served from a kept encoding, not compressed again",
                ServerMetrics::compressedFileCacheHits, Tags.empty());
        gauge(registry, "brisk.compressed.file.cache.bytes",
                "bytes of static files' encodings kept now, bytes (compressed-file-cache)",
                ServerMetrics::compressedFileCacheBytes);
        counter(registry, "brisk.websocket.sessions.opened", "WebSocket sessions opened",
                ServerMetrics::webSocketSessionsOpened, Tags.empty());
        gauge(registry, "brisk.websocket.sessions.active", "WebSocket sessions open now",
                m -> m.webSocketSessionsActive());
        counter(registry, "brisk.websocket.messages", "WebSocket messages, whole",
                ServerMetrics::webSocketMessagesIn, Tags.of("direction", "in"));
        gauge(registry, "brisk.websocket.buffered.bytes", "bytes of WebSocket messages and compression contexts held now (ws-memory bounds them)",
                m -> m.webSocketBufferedBytes());
        counter(registry, "brisk.websocket.messages", "WebSocket messages, whole",
                ServerMetrics::webSocketMessagesOut, Tags.of("direction", "out"));
        counter(registry, "brisk.websocket.closed", "WebSocket sessions closed by the server, by reason",
                ServerMetrics::webSocketSlowReceiversClosed, Tags.of("reason", "slow_receiver"));
        counter(registry, "brisk.websocket.closed", "WebSocket sessions closed by the server, by reason",
                ServerMetrics::webSocketProtocolErrors, Tags.of("reason", "protocol_error"));
        counter(registry, "brisk.websocket.closed", "WebSocket sessions closed by the server, by reason",
                ServerMetrics::webSocketIdleClosed, Tags.of("reason", "idle"));
        // routes are fixed once the app starts: one series per route template and status class
        for (String key : metrics.requestsByRoute().keySet()) {
            int space = key.indexOf(' ');
            Tags route = Tags.of("method", key.substring(0, space), "route", key.substring(space + 1));
            for (int cls = 1; cls <= 5; cls++) {
                int c = cls;
                counter(registry, "brisk.route.requests", "responses by route template and status class",
                        m -> {
                            long[] counts = m.requestsByRoute().get(key);
                            return counts == null ? 0 : counts[c];
                        }, route.and("status_class", c + "xx"));
            }
        }
        latency(registry);
        signals(registry);
    }

    private void latency(MeterRegistry registry) {
        ServerMetrics m = metrics;
        // the lambdas hold m: Micrometer keeps only a weak reference to a function meter's object
        FunctionTimer.builder("brisk.request.latency", m, ignored -> cumulative(m, Integer.MAX_VALUE),
                        ignored -> m.latencySumNanos(), TimeUnit.NANOSECONDS)
                .description("responses timed from the parsed request head to the response handed to the socket")
                .tags(tags).register(registry);
        List<Long> bounds = m.latencyBucketBoundsNanos();
        for (int i = 0; i <= bounds.size(); i++) {
            int upTo = i;
            String le = i < bounds.size() ? seconds(bounds.get(i)) : "+Inf";
            counter(registry, "brisk.request.latency.buckets",
                    "responses with a latency up to le seconds (cumulative, like a Prometheus histogram)",
                    x -> cumulative(x, upTo), Tags.of("le", le));
        }
    }

    private void signals(MeterRegistry registry) {
        ScalingSignals s = signals;
        signal(registry, "brisk.saturation.ratio", "in-flight requests / the current limit (0: unlimited)",
                ScalingSignals::saturationRatio);
        signal(registry, "brisk.rejection.rate",
                "requests shed per second over the last " + s.window().toSeconds() + " s",
                ScalingSignals::rejectionRate);
        signal(registry, "brisk.needs.scaleout",
                "1 while requests were shed in the last " + s.window().toSeconds() + " s, else 0",
                x -> x.needsScaleOut() ? 1 : 0);
        signal(registry, "brisk.connection.headroom", "max-connections minus the connections open now",
                ScalingSignals::connectionHeadroom);
    }

    /** Responses in latency buckets 0..{@code upTo} (every bucket when past the last). */
    private static long cumulative(ServerMetrics m, int upTo) {
        List<Long> counts = m.latencyCounts();
        long n = 0;
        for (int i = 0; i < counts.size() && i <= upTo; i++) {
            n += counts.get(i);
        }
        return n;
    }

    /** Nanoseconds as plain decimal seconds: 100000 → "0.0001", 1000000000 → "1". */
    static String seconds(long nanos) {
        return BigDecimal.valueOf(nanos).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    private void counter(MeterRegistry registry, String name, String description, ToLongFunction<ServerMetrics> read,
            Tags extra) {
        ServerMetrics m = metrics;
        // the lambda holds m: Micrometer keeps only a weak reference to a function meter's object
        FunctionCounter.builder(name, m, ignored -> read.applyAsLong(m))
                .description(description).tags(tags.and(extra)).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ServerMetrics> read) {
        Gauge.builder(name, metrics, read).strongReference(true)
                .description(description).tags(tags).register(registry);
    }

    private void signal(MeterRegistry registry, String name, String description, ToDoubleFunction<ScalingSignals> read) {
        Gauge.builder(name, signals, read).strongReference(true)
                .description(description).tags(tags).register(registry);
    }
}
