package dev.brisk.internal.ops;

import dev.brisk.ServerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/** {@link ServerMetrics} over the engine's {@link ServerStats}, its {@link AdmissionControl} and its body budgets. */
public final class MetricsView implements ServerMetrics {
    private final ServerStats stats;
    private final AdmissionControl admission;
    private final IntSupplier activeConnections;
    private final List<dev.brisk.internal.routing.CompiledRoute> routes;
    private final AccessLog accessLog;
    private final dev.brisk.internal.body.BodyStore bodies;
    private final dev.brisk.internal.ws.WebSockets ws;
    private final dev.brisk.internal.compress.EncodedFiles encodedFiles;

    /** @param accessLog the access log, or null when it is off */
    public MetricsView(ServerStats stats, AdmissionControl admission, IntSupplier activeConnections,
                       List<dev.brisk.internal.routing.CompiledRoute> routes, AccessLog accessLog,
                       dev.brisk.internal.body.BodyStore bodies, dev.brisk.internal.ws.WebSockets ws,
                       dev.brisk.internal.compress.EncodedFiles encodedFiles) {
        this.encodedFiles = encodedFiles;
        this.bodies = bodies;
        this.ws = ws;
        this.routes = routes;
        this.accessLog = accessLog;
        this.stats = stats;
        this.admission = admission;
        this.activeConnections = activeConnections;
    }

    @Override public long connectionsAccepted() { return stats.connectionsAccepted.sum(); }
    @Override public int connectionsActive() { return activeConnections.getAsInt(); }
    @Override public long acceptPauses() { return stats.acceptPauses.sum(); }
    @Override public long tlsHandshakes() { return stats.tls.handshakes(); }
    @Override public long tlsReloads() { return stats.tls.reloads(); }
    @Override public long tlsReloadFailures() { return stats.tls.reloadFailures(); }
    @Override public long tlsHandshakeFailures() { return stats.tls.failures(); }
    @Override public long connectionsTimedOut() { return stats.connectionsTimedOut(); }
    @Override public long slowRequestBodies() { return stats.slowRequestBodies(); }
    @Override public long slowResponses() { return stats.slowResponses(); }
    @Override public long requests() { return stats.requests(); }
    @Override public long requests(int statusClass) { return stats.requests(statusClass); }
    @Override public Map<String, Long> requestsByProtocol() { return stats.requestsByProtocol(); }
    @Override public int inFlight() { return admission == null ? 0 : admission.inFlight(); }
    @Override public int queued() { return admission == null ? 0 : admission.queued(); }
    @Override public int concurrencyLimit() { return admission == null ? 0 : admission.limit(); }
    @Override public long bytesIn() { return stats.bytesIn(); }
    @Override public long bytesOut() { return stats.bytesOut(); }
    @Override public long socketWrites() { return stats.socketWrites(); }
    @Override public long webSocketSessionsOpened() { return ws.stats().opened(); }
    @Override public long webSocketSessionsActive() { return ws.stats().active(); }
    @Override public long webSocketMessagesIn() { return ws.stats().messagesIn(); }
    @Override public long webSocketMessagesOut() { return ws.stats().messagesOut(); }
    @Override public long webSocketSlowReceiversClosed() { return ws.stats().slowReceiversClosed(); }
    @Override public long webSocketProtocolErrors() { return ws.stats().protocolErrors(); }
    @Override public long webSocketIdleClosed() { return ws.stats().idleClosed(); }
    @Override public long webSocketBufferedBytes() { return ws.memoryUsed(); }
    @Override public long compressedFileCacheHits() { return encodedFiles.hits(); }
    @Override public long compressedFileCacheBytes() { return encodedFiles.bytes(); }
    @Override public long latencySumNanos() { return stats.latencySumNanos(); }
    @Override public Map<String, Long> parseErrors() { return stats.parseErrors(); }
    @Override public Map<String, Long> shed() { return stats.shed(); }
    @Override public long accessLogDropped() { return accessLog == null ? 0 : accessLog.dropped(); }
    @Override public long bodyMemoryReserved() { return bodies.memory().reserved(); }
    @Override public long bodyMemoryPooled() { return bodies.slabs().pooled(); }
    @Override public long bodySpoolReserved() { return bodies.disk().reserved(); }

    @Override
    public Map<String, long[]> requestsByRoute() {
        Map<String, long[]> m = new java.util.LinkedHashMap<>();
        for (dev.brisk.internal.routing.CompiledRoute r : routes) {
            long[] c = new long[6];
            for (int cls = 1; cls <= 5; cls++) {
                c[cls] = r.stats().requests(cls);
            }
            m.merge(r.method().name() + " " + r.template(), c, (a, b) -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] += b[i];
                }
                return a;
            });
        }
        return m;
    }

    @Override
    public List<Long> latencyBucketBoundsNanos() {
        List<Long> l = new ArrayList<>();
        for (long b : LatencyHistogram.boundsNanos()) {
            l.add(b);
        }
        return List.copyOf(l);
    }

    @Override
    public List<Long> latencyCounts() {
        List<Long> l = new ArrayList<>();
        for (long c : stats.latencyCounts()) {
            l.add(c);
        }
        return List.copyOf(l);
    }
}
