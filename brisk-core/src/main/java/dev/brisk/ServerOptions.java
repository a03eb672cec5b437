package dev.brisk;

import java.time.Duration;

/**
 * The engine's options, frozen at start. Each has a builder method, a property key
 * {@code brisk.<name>} and an environment variable {@code BRISK_<NAME>} (see {@link ConfigSource}).
 *
 * <table>
 * <caption>Options and defaults</caption>
 * <tr><th>name</th><th>default</th><th>meaning</th></tr>
 * <tr><td>host</td><td>0.0.0.0</td><td>address to listen on</td></tr>
 * <tr><td>port</td><td>8080</td><td>port to listen on (0: any free port)</td></tr>
 * <tr><td>io-threads</td><td>available processors</td><td>number of I/O loops</td></tr>
 * <tr><td>dispatch</td><td>virtual-threads</td><td>where handlers run: event-loop, virtual-threads, worker-pool</td></tr>
 * <tr><td>worker-threads</td><td>max(8, 2 × processors)</td><td>size of the default worker pool</td></tr>
 * <tr><td>max-request-line</td><td>8 KiB</td><td>longest request line (414 beyond)</td></tr>
 * <tr><td>max-header-size</td><td>16 KiB</td><td>largest header block (431 beyond)</td></tr>
 * <tr><td>max-headers</td><td>100</td><td>most header fields (431 beyond)</td></tr>
 * <tr><td>max-body-size</td><td>10 MiB</td><td>largest request body (413 beyond, unread)</td></tr>
 * <tr><td>max-chunk-extension</td><td>256 B</td><td>longest chunk extension per chunk (400 beyond)</td></tr>
 * <tr><td>header-read-timeout</td><td>10 s</td><td>time to receive a whole request head</td></tr>
 * <tr><td>body-read-timeout</td><td>30 s</td><td>longest wait for more body bytes</td></tr>
 * <tr><td>idle-timeout</td><td>60 s</td><td>keep-alive wait for the next request</td></tr>
 * <tr><td>write-timeout</td><td>30 s</td><td>longest wait for a slow reader to take more response bytes</td></tr>
 * <tr><td>max-requests-per-connection</td><td>0 (unlimited)</td><td>close a connection after this many</td></tr>
 * <tr><td>max-connections</td><td>10000</td><td>above this, stop accepting (the kernel backlog queues)</td></tr>
 * <tr><td>backlog</td><td>1024</td><td>listen backlog</td></tr>
 * <tr><td>shutdown-timeout</td><td>10 s</td><td>graceful shutdown: how long in-flight requests may finish</td></tr>
 * <tr><td>shutdown-delay</td><td>0 s</td><td>graceful shutdown: how long readiness answers 503 while everything
 *     is still accepted and served, before the drain; set it a bit above the load balancer's probe period</td></tr>
 * <tr><td>max-concurrent-requests</td><td>0 (unlimited)</td><td>requests in flight at most; more wait in the queue or get 503</td></tr>
 * <tr><td>concurrency-limit</td><td>fixed</td><td>fixed, or adaptive (lowered when latency rises)</td></tr>
 * <tr><td>request-queue-size</td><td>16</td><td>requests waiting for a slot at most (0: refuse at once)</td></tr>
 * <tr><td>request-queue-timeout</td><td>100 ms</td><td>longest wait in the queue before a 503</td></tr>
 * <tr><td>access-log</td><td>off</td><td>off, full (a line per response) or sampled, through the
 *     {@code System.Logger} named {@code brisk.access}</td></tr>
 * <tr><td>access-log-sample-rate</td><td>100</td><td>sampled: one response in this many per I/O loop is
 *     logged, and every 5xx</td></tr>
 * <tr><td>request-ids</td><td>false</td><td>echo {@code X-Request-Id} (the incoming valid one, else a
 *     generated one) on every response</td></tr>
 * <tr><td>io</td><td>nio</td><td>engine: nio (selector loops) or blocking (a thread per connection)</td></tr>
 * <tr><td>threads</td><td>virtual</td><td>blocking engine: virtual or platform threads</td></tr>
 * <tr><td>platform-threads</td><td>200</td><td>blocking engine on platform threads: connections served at once</td></tr>
 * <tr><td>connection-wait-timeout</td><td>1 s</td><td>blocking engine on platform threads: longest wait for a free thread before a 503</td></tr>
 * </table>
 */
public record ServerOptions(
        String host,
        int port,
        int ioThreads,
        Dispatch dispatch,
        int workerThreads,
        int maxRequestLine,
        int maxHeaderSize,
        int maxHeaders,
        long maxBodySize,
        int maxChunkExtension,
        Duration headerReadTimeout,
        Duration bodyReadTimeout,
        Duration idleTimeout,
        Duration writeTimeout,
        int maxRequestsPerConnection,
        int maxConnections,
        int backlog,
        Duration shutdownTimeout,
        Duration shutdownDelay,
        int maxConcurrentRequests,
        ConcurrencyLimitMode concurrencyLimit,
        int requestQueueSize,
        Duration requestQueueTimeout,
        AccessLogMode accessLog,
        int accessLogSampleRate,
        boolean requestIds,
        IoMode io,
        ThreadMode threads,
        int platformThreads,
        Duration connectionWaitTimeout) {

    public static final int DEFAULT_PORT = 8080;
    public static final int DEFAULT_MAX_REQUEST_LINE = 8 * 1024;
    public static final int DEFAULT_MAX_HEADER_SIZE = 16 * 1024;
    public static final int DEFAULT_MAX_HEADERS = 100;
    public static final long DEFAULT_MAX_BODY_SIZE = 10L * 1024 * 1024;
    public static final int DEFAULT_MAX_CHUNK_EXTENSION = 256;
    public static final Duration DEFAULT_HEADER_READ_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_BODY_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final int DEFAULT_BACKLOG = 1024;
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SHUTDOWN_DELAY = Duration.ZERO;
    public static final int DEFAULT_REQUEST_QUEUE_SIZE = 16;
    public static final Duration DEFAULT_REQUEST_QUEUE_TIMEOUT = Duration.ofMillis(100);
    public static final int DEFAULT_ACCESS_LOG_SAMPLE_RATE = 100;
    public static final int DEFAULT_PLATFORM_THREADS = 200;
    public static final Duration DEFAULT_CONNECTION_WAIT_TIMEOUT = Duration.ofSeconds(1);

    public ServerOptions {
        requireRange("port", port, 0, 65535);
        requireRange("io-threads", ioThreads, 1, 1024);
        requireRange("worker-threads", workerThreads, 1, 100_000);
        requireRange("max-request-line", maxRequestLine, 64, 1 << 20);
        requireRange("max-header-size", maxHeaderSize, 256, 1 << 20);
        requireRange("max-headers", maxHeaders, 1, 10_000);
        if (maxBodySize < 0 || maxBodySize > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("max-body-size must be between 0 and 2 GiB: " + maxBodySize);
        }
        requireRange("max-chunk-extension", maxChunkExtension, 0, 1 << 20);
        requireRange("max-requests-per-connection", maxRequestsPerConnection, 0, Integer.MAX_VALUE);
        requireRange("max-connections", maxConnections, 1, 10_000_000);
        requireRange("backlog", backlog, 1, 1 << 20);
        requirePositive("header-read-timeout", headerReadTimeout);
        requirePositive("body-read-timeout", bodyReadTimeout);
        requirePositive("idle-timeout", idleTimeout);
        requirePositive("write-timeout", writeTimeout);
        if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdown-timeout must be >= 0");
        }
        if (shutdownDelay == null || shutdownDelay.isNegative()) {
            throw new IllegalArgumentException("shutdown-delay must be >= 0");
        }
        requireRange("max-concurrent-requests", maxConcurrentRequests, 0, 10_000_000);
        requireRange("request-queue-size", requestQueueSize, 0, 10_000_000);
        requirePositive("request-queue-timeout", requestQueueTimeout);
        requireRange("platform-threads", platformThreads, 1, 100_000);
        requirePositive("connection-wait-timeout", connectionWaitTimeout);
        if (io == null || threads == null) {
            throw new IllegalArgumentException("io and threads must be set");
        }
        if (concurrencyLimit == null) {
            throw new IllegalArgumentException("concurrency-limit must be set");
        }
        if (accessLog == null) {
            throw new IllegalArgumentException("access-log must be set");
        }
        requireRange("access-log-sample-rate", accessLogSampleRate, 1, Integer.MAX_VALUE);
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (dispatch == null) {
            throw new IllegalArgumentException("dispatch must be set");
        }
    }

    private static void requireRange(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ": " + v);
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration: " + d);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from the defaults; {@link #from(ConfigSource)} overlays outside config. */
    public static final class Builder {
        private String host = "0.0.0.0";
        private int port = DEFAULT_PORT;
        private int ioThreads = Runtime.getRuntime().availableProcessors();
        private Dispatch dispatch = Dispatch.VIRTUAL_THREADS;
        private int workerThreads = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
        private int maxRequestLine = DEFAULT_MAX_REQUEST_LINE;
        private int maxHeaderSize = DEFAULT_MAX_HEADER_SIZE;
        private int maxHeaders = DEFAULT_MAX_HEADERS;
        private long maxBodySize = DEFAULT_MAX_BODY_SIZE;
        private int maxChunkExtension = DEFAULT_MAX_CHUNK_EXTENSION;
        private Duration headerReadTimeout = DEFAULT_HEADER_READ_TIMEOUT;
        private Duration bodyReadTimeout = DEFAULT_BODY_READ_TIMEOUT;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;
        private int maxRequestsPerConnection = 0;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private int backlog = DEFAULT_BACKLOG;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private Duration shutdownDelay = DEFAULT_SHUTDOWN_DELAY;
        private int maxConcurrentRequests = 0;
        private ConcurrencyLimitMode concurrencyLimit = ConcurrencyLimitMode.FIXED;
        private int requestQueueSize = DEFAULT_REQUEST_QUEUE_SIZE;
        private Duration requestQueueTimeout = DEFAULT_REQUEST_QUEUE_TIMEOUT;
        private AccessLogMode accessLog = AccessLogMode.OFF;
        private int accessLogSampleRate = DEFAULT_ACCESS_LOG_SAMPLE_RATE;
        private boolean requestIds;
        private IoMode io = IoMode.NIO;
        private ThreadMode threads = ThreadMode.VIRTUAL;
        private int platformThreads = DEFAULT_PLATFORM_THREADS;
        private Duration connectionWaitTimeout = DEFAULT_CONNECTION_WAIT_TIMEOUT;

        private Builder() {
        }

        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder ioThreads(int v) { ioThreads = v; return this; }
        public Builder dispatch(Dispatch v) { dispatch = v; return this; }
        public Builder workerThreads(int v) { workerThreads = v; return this; }
        public Builder maxRequestLine(int v) { maxRequestLine = v; return this; }
        public Builder maxHeaderSize(int v) { maxHeaderSize = v; return this; }
        public Builder maxHeaders(int v) { maxHeaders = v; return this; }
        public Builder maxBodySize(long v) { maxBodySize = v; return this; }
        public Builder maxChunkExtension(int v) { maxChunkExtension = v; return this; }
        public Builder headerReadTimeout(Duration v) { headerReadTimeout = v; return this; }
        public Builder bodyReadTimeout(Duration v) { bodyReadTimeout = v; return this; }
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        public Builder writeTimeout(Duration v) { writeTimeout = v; return this; }
        public Builder maxRequestsPerConnection(int v) { maxRequestsPerConnection = v; return this; }
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        public Builder backlog(int v) { backlog = v; return this; }
        public Builder shutdownTimeout(Duration v) { shutdownTimeout = v; return this; }
        public Builder shutdownDelay(Duration v) { shutdownDelay = v; return this; }
        public Builder maxConcurrentRequests(int v) { maxConcurrentRequests = v; return this; }
        public Builder concurrencyLimit(ConcurrencyLimitMode v) { concurrencyLimit = v; return this; }
        public Builder requestQueueSize(int v) { requestQueueSize = v; return this; }
        public Builder requestQueueTimeout(Duration v) { requestQueueTimeout = v; return this; }
        public Builder accessLog(AccessLogMode v) { accessLog = v; return this; }
        public Builder accessLogSampleRate(int v) { accessLogSampleRate = v; return this; }
        public Builder requestIds(boolean v) { requestIds = v; return this; }
        public Builder io(IoMode v) { io = v; return this; }
        public Builder threads(ThreadMode v) { threads = v; return this; }
        public Builder platformThreads(int v) { platformThreads = v; return this; }
        public Builder connectionWaitTimeout(Duration v) { connectionWaitTimeout = v; return this; }

        /** Overlays every option that {@code source} supplies on the values set so far. */
        public Builder from(ConfigSource source) {
            host = source.string("host", host);
            port = source.integer("port", port);
            ioThreads = source.integer("io-threads", ioThreads);
            dispatch = source.enumValue("dispatch", Dispatch.class, dispatch);
            workerThreads = source.integer("worker-threads", workerThreads);
            maxRequestLine = (int) Math.min(Integer.MAX_VALUE, source.size("max-request-line", maxRequestLine));
            maxHeaderSize = (int) Math.min(Integer.MAX_VALUE, source.size("max-header-size", maxHeaderSize));
            maxHeaders = source.integer("max-headers", maxHeaders);
            maxBodySize = source.size("max-body-size", maxBodySize);
            maxChunkExtension = (int) Math.min(Integer.MAX_VALUE, source.size("max-chunk-extension", maxChunkExtension));
            headerReadTimeout = source.duration("header-read-timeout", headerReadTimeout);
            bodyReadTimeout = source.duration("body-read-timeout", bodyReadTimeout);
            idleTimeout = source.duration("idle-timeout", idleTimeout);
            writeTimeout = source.duration("write-timeout", writeTimeout);
            maxRequestsPerConnection = source.integer("max-requests-per-connection", maxRequestsPerConnection);
            maxConnections = source.integer("max-connections", maxConnections);
            backlog = source.integer("backlog", backlog);
            shutdownTimeout = source.duration("shutdown-timeout", shutdownTimeout);
            shutdownDelay = source.duration("shutdown-delay", shutdownDelay);
            maxConcurrentRequests = source.integer("max-concurrent-requests", maxConcurrentRequests);
            concurrencyLimit = source.enumValue("concurrency-limit", ConcurrencyLimitMode.class, concurrencyLimit);
            requestQueueSize = source.integer("request-queue-size", requestQueueSize);
            requestQueueTimeout = source.duration("request-queue-timeout", requestQueueTimeout);
            accessLog = source.enumValue("access-log", AccessLogMode.class, accessLog);
            accessLogSampleRate = source.integer("access-log-sample-rate", accessLogSampleRate);
            requestIds = source.bool("request-ids", requestIds);
            io = source.enumValue("io", IoMode.class, io);
            threads = source.enumValue("threads", ThreadMode.class, threads);
            platformThreads = source.integer("platform-threads", platformThreads);
            connectionWaitTimeout = source.duration("connection-wait-timeout", connectionWaitTimeout);
            return this;
        }

        public ServerOptions build() {
            return new ServerOptions(host, port, ioThreads, dispatch, workerThreads, maxRequestLine,
                    maxHeaderSize, maxHeaders, maxBodySize, maxChunkExtension, headerReadTimeout,
                    bodyReadTimeout, idleTimeout, writeTimeout, maxRequestsPerConnection, maxConnections,
                    backlog, shutdownTimeout, shutdownDelay, maxConcurrentRequests, concurrencyLimit,
                    requestQueueSize, requestQueueTimeout, accessLog, accessLogSampleRate, requestIds,
                    io, threads, platformThreads, connectionWaitTimeout);
        }
    }
}
