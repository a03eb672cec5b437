package dev.brisk;

import java.util.List;
import java.util.Map;

/**
 * The engine's own counters, read live (each call sums lock-free counters; values are monotonic
 * unless said otherwise). Exposed by {@link Brisk#metrics()}; brisk-micrometer binds them to a
 * MeterRegistry.
 */
public interface ServerMetrics {
    /** {@return connections accepted since start} */
    long connectionsAccepted();

    /** {@return connections open now (a gauge)} */
    int connectionsActive();

    /** {@return times the acceptor paused at {@code max-connections} (new connections then wait in the kernel backlog)} */
    long acceptPauses();

    /** {@return TLS handshakes finished since start (0 without TLS)} */
    long tlsHandshakes();

    /**
     * {@return TLS handshakes that failed since start: a client that sent garbage or an alert, left, took
     * longer than {@code tls-handshake-timeout}, or tried a TLS 1.2 renegotiation}
     */
    long tlsHandshakeFailures();

    /**
     * {@return times changed TLS key files were loaded and put in use (0 without TLS or an
     * implementation that does not track it)}
     */
    default long tlsReloads() {
        return 0;
    }

    /**
     * {@return changes of the TLS key files that could not be used, each counted once (the old key
     * stayed in use; a half-written file, a key that is not the certificate's, ...)}
     */
    default long tlsReloadFailures() {
        return 0;
    }

    /** {@return connections closed because a timeout expired (header, body, idle, write)} */
    long connectionsTimedOut();

    /**
     * Requests whose body arrived below the option {@code min-body-rate}: answered {@code 408} and
     * closed (not counted in {@link #connectionsTimedOut()}).
     *
     * @return such requests since start; 0 for an implementation that does not track it
     */
    default long slowRequestBodies() {
        return 0;
    }

    /**
     * Connections closed because their client took response bytes below the option
     * {@code min-response-rate} (not counted in {@link #connectionsTimedOut()}).
     *
     * @return such connections since start; 0 for an implementation that does not track it
     */
    default long slowResponses() {
        return 0;
    }

    /** {@return responses sent, of every status (fast-static and refusals included)} */
    long requests();

    /**
     * {@return responses sent by the protocol that carried them: {@code http/1.1} (HTTP/1.0 included),
     * {@code h2} (HTTP/2 over TLS) and {@code h2c} (HTTP/2 in the clear), summing to {@link #requests()}}
     */
    default Map<String, Long> requestsByProtocol() {
        return Map.of("http/1.1", requests(), "h2", 0L, "h2c", 0L);
    }

    /**
     * {@return responses with a status of the given class}
     *
     * @param statusClass 1 to 5, for 1xx to 5xx
     */
    long requests(int statusClass);

    /**
     * Responses per route, keyed {@code "GET /users/{id}"} (method and template, never the raw path), by
     * status class: {@code counts[c]} for {@code c}xx, {@code c} from 1 to 5 (index 0 unused), the
     * {@code 503}s load shedding answered for a route included (its clients saw them), and so are the
     * engine's refusals of a request already routed ({@code 413} for its body, {@code 408} mid-body) and
     * fast-static answers (under their path, on every protocol). Requests no route matched (404, 405)
     * and refusals before routing (a malformed head, {@code 414}, {@code 431}) are not in it.
     *
     * @return a snapshot, route to counts
     */
    Map<String, long[]> requestsByRoute();

    /** {@return requests admitted and not yet answered (a gauge; 0 when requests are not limited)} */
    int inFlight();

    /** {@return requests waiting for an in-flight slot (a gauge)} */
    int queued();

    /** {@return the in-flight limit now (a gauge; 0 when requests are not limited; moves when adaptive)} */
    int concurrencyLimit();

    /** {@return request bytes read from sockets} */
    long bytesIn();

    /** {@return response bytes written to sockets} */
    long bytesOut();

    /**
     * Socket writes that wrote bytes: with {@link #bytesOut()}, the bytes per write (pipelined responses
     * are batched into one write; a large body or a slow reader takes several).
     *
     * @return socket writes since start
     */
    long socketWrites();

    /** {@return upper bounds, in nanoseconds, of the latency buckets; {@link #latencyCounts()} has one more (overflow)} */
    List<Long> latencyBucketBoundsNanos();

    /** {@return responses per latency bucket (not cumulative): head parsed to response handed to the socket} */
    List<Long> latencyCounts();

    /** {@return sum of all recorded latencies, in nanoseconds} */
    long latencySumNanos();

    /** {@return requests refused while being parsed or read, by kind ({@code bad-request}, {@code timeout}, ...)} */
    Map<String, Long> parseErrors();

    /** {@return requests refused before their handler by load shedding, by reason ({@code concurrency-limit}, {@code queue-timeout}, {@code thread-limit})} */
    Map<String, Long> shed();

    /**
     * Access-log lines lost: the log's queue was full (the logger could not keep up) or the logger
     * failed. Always 0 when the access log is off.
     *
     * @return access-log lines dropped since start
     */
    long accessLogDropped();

    /**
     * Request-body memory reserved now, in bytes (a gauge): buffered bodies (a declared length is
     * reserved whole before the body is read), arrays assembled from them and the windows of streamed
     * bodies. It never exceeds the option {@code body-memory-budget}; a body that would is refused with
     * 503. It goes back to 0 once no request with a body is in progress.
     *
     * @return bytes reserved; 0 for an implementation that does not track it
     */
    default long bodyMemoryReserved() {
        return 0;
    }

    /**
     * Off-heap memory the server keeps for request bodies, in bytes (a gauge): the 4 KiB slabs, in use
     * or idle, that hold declared bodies between 8 KiB and a humongous array's size, chunked bodies past
     * their first 8 KiB and stored multipart parts over 8 KiB. Slabs given back are kept for later
     * bodies, so this stays at its high-water mark; since a slab is only taken against a reservation
     * from the option {@code body-memory-budget}, it stays within about that (idle slabs are not counted
     * in {@link #bodyMemoryReserved}).
     *
     * @return bytes of slabs made; 0 for an implementation that does not track it
     */
    default long bodyMemoryPooled() {
        return 0;
    }

    /**
     * Disk reserved now by request bodies spooled to temporary files, in bytes (a gauge); never more
     * than the option {@code body-spool-disk}.
     *
     * @return bytes reserved; 0 for an implementation that does not track it
     */
    default long bodySpoolReserved() {
        return 0;
    }

    /** {@return WebSocket sessions opened since start} */
    long webSocketSessionsOpened();

    /** {@return WebSocket sessions open now (a gauge)} */
    long webSocketSessionsActive();

    /** {@return WebSocket messages received, whole (fragments joined)} */
    long webSocketMessagesIn();

    /** {@return WebSocket messages sent (queued for the socket)} */
    long webSocketMessagesOut();

    /**
     * WebSocket sessions closed with 1008 because they held more unsent bytes than
     * {@code ws-outbound-limit} (or {@code ws-memory}) allows: receivers too slow for what was sent.
     *
     * @return such sessions since start
     */
    long webSocketSlowReceiversClosed();

    /**
     * WebSocket sessions failed for breaking the protocol or a limit: a malformed frame (1002), a message
     * of a kind the route does not take (1003), invalid UTF-8 (1007), a frame or message too large (1009),
     * no memory left for it (1013).
     *
     * @return such sessions since start
     */
    long webSocketProtocolErrors();

    /** {@return WebSocket sessions closed because the peer sent nothing for {@code ws-idle-timeout}} */
    long webSocketIdleClosed();

    /**
     * Bytes of WebSocket messages the server holds now, all sessions together: being received, waiting
     * for a handler, or waiting for a socket, and the sessions' compression contexts (48 KiB per
     * decompressor, 272 KiB per kept compressor); bounded by {@code ws-memory} (a gauge).
     *
     * @return the bytes held now
     */
    long webSocketBufferedBytes();

    /**
     * Compressed answers of static files served from the encodings the server keeps
     * ({@code compressed-file-cache}) instead of compressing the file again (a counter).
     *
     * @return the answers so far
     */
    default long compressedFileCacheHits() {
        return 0;
    }

    /**
     * Bytes of static files' encodings the server keeps now, every mount and coding together; bounded by
     * {@code compressed-file-cache} (a gauge).
     *
     * @return the bytes kept now
     */
    default long compressedFileCacheBytes() {
        return 0;
    }
}
