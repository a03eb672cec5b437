package dev.brisk.micrometer;

import dev.brisk.ServerMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@link ServerMetrics} whose values a test sets. */
final class FakeMetrics implements ServerMetrics {
    int active;
    int inFlight;
    int limit;
    final Map<String, Long> shed = new LinkedHashMap<>(Map.of("concurrency-limit", 0L, "queue-timeout", 0L));

    void shed(String reason, long n) {
        shed.merge(reason, n, Long::sum);
    }

    @Override public long connectionsAccepted() { return 0; }
    @Override public int connectionsActive() { return active; }
    @Override public long acceptPauses() { return 0; }
    @Override public long tlsHandshakes() { return 0; }
    @Override public long tlsHandshakeFailures() { return 0; }
    @Override public long connectionsTimedOut() { return 0; }
    @Override public long requests() { return 0; }
    @Override public long requests(int statusClass) { return 0; }
    @Override public int inFlight() { return inFlight; }
    @Override public int queued() { return 0; }
    @Override public int concurrencyLimit() { return limit; }
    @Override public long bytesIn() { return 0; }
    @Override public long bytesOut() { return 0; }
    @Override public long socketWrites() { return 0; }
    @Override public List<Long> latencyBucketBoundsNanos() { return List.of(1_000_000L); }
    @Override public List<Long> latencyCounts() { return List.of(0L, 0L); }
    @Override public long latencySumNanos() { return 0; }
    @Override public Map<String, Long> parseErrors() { return Map.of(); }
    @Override public Map<String, Long> shed() { return Map.copyOf(shed); }
    @Override public long accessLogDropped() { return 0; }
    @Override public long webSocketSessionsOpened() { return 0; }
    @Override public long webSocketSessionsActive() { return 0; }
    @Override public long webSocketMessagesIn() { return 0; }
    @Override public long webSocketMessagesOut() { return 0; }
    @Override public long webSocketSlowReceiversClosed() { return 0; }
    @Override public long webSocketProtocolErrors() { return 0; }
    @Override public long webSocketIdleClosed() { return 0; }
    @Override public long webSocketBufferedBytes() { return 0; }

    @Override
    public java.util.Map<String, long[]> requestsByRoute() {
        return java.util.Map.of();
    }
}
