package dev.brisk;

import java.util.List;
import java.util.Map;

/**
 * The engine's own counters, read live (each call sums lock-free counters; values are monotonic
 * unless said otherwise). Exposed by {@link Brisk#metrics()}; brisk-micrometer binds them to a
 * MeterRegistry.
 */
public interface ServerMetrics {
    /** Connections accepted since start. */
    long connectionsAccepted();

    /** Connections open now (a gauge). */
    int connectionsActive();

    /** Times the acceptor paused at {@code max-connections} (new connections then wait in the kernel backlog). */
    long acceptPauses();

    /** Connections closed because a timeout expired (header, body, idle, write). */
    long connectionsTimedOut();

    /** Responses sent, of every status (fast-static and refusals included). */
    long requests();

    /** Responses with a {@code cls}xx status, {@code cls} from 1 to 5. */
    long requests(int statusClass);

    /**
     * Responses per route, keyed {@code "GET /users/{id}"} (method and template, never the raw path), by
     * status class: {@code counts[c]} for {@code c}xx, {@code c} from 1 to 5 (index 0 unused). Requests
     * no route matched (404, 405), fast-static answers and requests refused by load shedding are not in it.
     */
    Map<String, long[]> requestsByRoute();

    /** Requests admitted and not yet answered (a gauge; 0 when requests are not limited). */
    int inFlight();

    /** Requests waiting for an in-flight slot (a gauge). */
    int queued();

    /** The in-flight limit now (a gauge; 0 when requests are not limited; moves when adaptive). */
    int concurrencyLimit();

    /** Request bytes read from sockets. */
    long bytesIn();

    /** Response bytes written to sockets. */
    long bytesOut();

    /**
     * Socket writes that wrote bytes: with {@link #bytesOut()}, the bytes per write (pipelined responses
     * are batched into one write; a large body or a slow reader takes several).
     */
    long socketWrites();

    /** Upper bounds, in nanoseconds, of the latency buckets; {@link #latencyCounts()} has one more (overflow). */
    List<Long> latencyBucketBoundsNanos();

    /** Responses per latency bucket (not cumulative): head parsed to response handed to the socket. */
    List<Long> latencyCounts();

    /** Sum of all recorded latencies, in nanoseconds. */
    long latencySumNanos();

    /** Requests refused while being parsed or read, by kind ({@code bad-request}, {@code timeout}, ...). */
    Map<String, Long> parseErrors();

    /** Requests refused before their handler by load shedding, by reason ({@code concurrency-limit}, {@code queue-timeout}, {@code thread-limit}). */
    Map<String, Long> shed();

    /**
     * Access-log lines lost: the log's queue was full (the logger could not keep up) or the logger
     * failed. Always 0 when the access log is off.
     */
    long accessLogDropped();
}
