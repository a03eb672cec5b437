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
 * <tr><td>port</td><td>8080</td><td>port to listen on (0: any free port); TLS when a TLS key is given</td></tr>
 * <tr><td>plain-port</td><td>-1 (off)</td><td>with TLS on {@code port}: a second port for plain HTTP (0: any
 *     free port)</td></tr>
 * <tr><td>tls-cert, tls-key</td><td>none</td><td>PEM certificate chain and PKCS#8 private key: TLS on
 *     {@code port}</td></tr>
 * <tr><td>tls-key-password</td><td>none</td><td>password of an encrypted PKCS#8 key</td></tr>
 * <tr><td>tls-keystore, tls-keystore-password</td><td>none</td><td>a PKCS#12 key store instead of PEM files</td></tr>
 * <tr><td>tls-client-auth</td><td>none</td><td>none, want or need a client certificate</td></tr>
 * <tr><td>tls-trust</td><td>none</td><td>PEM CA certificates that client certificates must chain to</td></tr>
 * <tr><td>tls-protocols</td><td>TLSv1.3,TLSv1.2</td><td>TLS versions offered</td></tr>
 * <tr><td>tls-handshake-timeout</td><td>10 s</td><td>longest time from accept to a finished handshake</td></tr>
 * <tr><td>tls-reload-interval</td><td>10 s</td><td>how often the key files are checked for changes (0:
 *     never); new connections use the new key</td></tr>
 * <tr><td>http2</td><td>true</td><td>HTTP/2: {@code h2} offered over TLS by ALPN, and h2c when {@code h2c} is on</td></tr>
 * <tr><td>h2c</td><td>true</td><td>a plain connection that opens with the HTTP/2 preface is served as
 *     HTTP/2 (prior knowledge)</td></tr>
 * <tr><td>h2-max-concurrent-streams</td><td>100</td><td>HTTP/2 streams open at once per connection
 *     (more are refused)</td></tr>
 * <tr><td>h2-initial-window-size</td><td>1 MiB</td><td>HTTP/2 request body bytes a client may send
 *     per stream ahead of the server (the connection's window is 4 times it)</td></tr>
 * <tr><td>h2-max-frame-size</td><td>16 KiB</td><td>largest HTTP/2 frame payload a client may send</td></tr>
 * <tr><td>h2-max-header-list-size</td><td>32 KiB</td><td>largest HTTP/2 request header list (HPACK's
 *     count: 32 bytes per field plus name and value; 431 beyond)</td></tr>
 * <tr><td>ws-max-frame-size</td><td>1 MiB</td><td>largest WebSocket frame payload a client may send (1009 beyond)</td></tr>
 * <tr><td>ws-max-message-size</td><td>1 MiB</td><td>largest WebSocket message a client may send, joined and
 *     inflated (1009 beyond)</td></tr>
 * <tr><td>ws-idle-timeout</td><td>60 s</td><td>a WebSocket peer that sends nothing (not even a pong) this long
 *     is closed (1001)</td></tr>
 * <tr><td>ws-ping-interval</td><td>30 s</td><td>a WebSocket peer silent this long gets a ping (0: never)</td></tr>
 * <tr><td>ws-outbound-limit</td><td>1 MiB</td><td>bytes of sent messages one WebSocket session may hold
 *     before its socket takes them; beyond, the session is closed (1008)</td></tr>
 * <tr><td>ws-memory</td><td>256 MiB</td><td>bytes of WebSocket messages all sessions together may hold
 *     (received, waiting for a handler, or to be written), and their compression contexts</td></tr>
 * <tr><td>ws-compression</td><td>true</td><td>agree to permessage-deflate when a client offers it</td></tr>
 * <tr><td>ws-compression-context-takeover</td><td>false</td><td>each session keeps its compressor's window
 *     (about 256 KiB native memory each) instead of compressing each message alone</td></tr>
 * <tr><td>ws-close-timeout</td><td>5 s</td><td>longest wait for a WebSocket peer's close frame after the server's</td></tr>
 * <tr><td>io-threads</td><td>available processors</td><td>number of I/O loops</td></tr>
 * <tr><td>dispatch</td><td>virtual-threads</td><td>where handlers run: event-loop, virtual-threads, worker-pool</td></tr>
 * <tr><td>worker-threads</td><td>max(8, 2 × processors)</td><td>size of the default worker pool</td></tr>
 * <tr><td>max-request-line</td><td>8 KiB</td><td>longest request line (414 beyond)</td></tr>
 * <tr><td>max-header-size</td><td>16 KiB</td><td>largest header block (431 beyond)</td></tr>
 * <tr><td>max-headers</td><td>200</td><td>most header fields (431 beyond); {@code max-header-size} bounds the bytes</td></tr>
 * <tr><td>max-body-size</td><td>1 MiB</td><td>largest request body a route buffers (413 beyond, unread); a route may
 *     raise it ({@link Route#maxBodySize})</td></tr>
 * <tr><td>max-chunk-extension</td><td>256 B</td><td>longest chunk extension per chunk (400 beyond)</td></tr>
 * <tr><td>header-read-timeout</td><td>10 s</td><td>time to receive a whole request head</td></tr>
 * <tr><td>body-read-timeout</td><td>30 s</td><td>longest wait for more body bytes</td></tr>
 * <tr><td>idle-timeout</td><td>60 s</td><td>keep-alive wait for the next request</td></tr>
 * <tr><td>write-timeout</td><td>30 s</td><td>longest wait for a slow reader to take more response bytes</td></tr>
 * <tr><td>min-body-rate</td><td>240 B/s</td><td>least average rate a request body arrives at, over
 *     {@code rate-window} once {@code rate-grace} has passed (408 and closed below; 0: no minimum)</td></tr>
 * <tr><td>min-response-rate</td><td>240 B/s</td><td>least average rate a client takes response bytes the
 *     socket holds for it, over {@code rate-window} once {@code rate-grace} has passed (closed below; 0: no
 *     minimum)</td></tr>
 * <tr><td>rate-grace</td><td>5 s</td><td>time waited on a client before its data rate is first judged</td></tr>
 * <tr><td>rate-window</td><td>10 s</td><td>the time a data rate is averaged over</td></tr>
 * <tr><td>compressed-file-cache</td><td>1/32 of the max heap, at most 64 MiB</td><td>static files' compressed
 *     answers kept for reuse, every mount together, each with 512 bytes of overhead counted (least recently
 *     used dropped beyond); 0: none kept</td></tr>
 * <tr><td>max-requests-per-connection</td><td>0 (unlimited)</td><td>close a connection after this many</td></tr>
 * <tr><td>max-connections</td><td>10000</td><td>above this, stop accepting (the kernel backlog queues)</td></tr>
 * <tr><td>max-open-files</td><td>1024</td><td>files held open for responses at once, by all static mounts (503 beyond)</td></tr>
 * <tr><td>backlog</td><td>1024</td><td>listen backlog</td></tr>
 * <tr><td>shutdown-timeout</td><td>10 s</td><td>graceful shutdown: how long in-flight requests may finish</td></tr>
 * <tr><td>shutdown-delay</td><td>0 s</td><td>graceful shutdown: how long readiness answers 503 while everything
 *     is still accepted and served, before the drain; set it a bit above the load balancer's probe period</td></tr>
 * <tr><td>drain-grace</td><td>250 ms</td><td>graceful shutdown: how long an idle keep-alive connection stays
 *     open after the drain begins, so a request already on its way is answered (with Connection: close)</td></tr>
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
 * <tr><td>io</td><td>nio</td><td>engine: nio (selector loops), blocking (a thread per connection), uring (io_uring loops; nio where io_uring cannot be used) or uring-only (no start without io_uring)</td></tr>
 * <tr><td>threads</td><td>virtual</td><td>blocking engine: virtual or platform threads</td></tr>
 * <tr><td>platform-threads</td><td>200</td><td>blocking engine on platform threads: connections served at once</td></tr>
 * <tr><td>connection-wait-timeout</td><td>1 s</td><td>blocking engine on platform threads: longest wait for a free thread before a 503</td></tr>
 * <tr><td>body-memory-budget</td><td>¼ of the max heap</td><td>request-body memory of all connections together
 *     (buffered bodies, stream windows), counted as the heap holds it (a humongous array by its G1 regions);
 *     a body that does not fit, or whose array the heap cannot give, gets 503 + Retry-After</td></tr>
 * <tr><td>body-spool-threshold</td><td>1 MiB</td><td>a buffered body larger than this goes to a temporary file</td></tr>
 * <tr><td>body-spool-disk</td><td>1 GiB</td><td>disk all spooled bodies may take together (503 beyond);
 *     0: never spool, bodies stay in memory</td></tr>
 * <tr><td>body-spool-dir</td><td>java.io.tmpdir</td><td>where spooled bodies are written (empty: java.io.tmpdir)</td></tr>
 * <tr><td>form-max-parts</td><td>1000</td><td>most parts of a multipart form, most pairs of a urlencoded one (413 beyond)</td></tr>
 * <tr><td>form-max-part-size</td><td>16 MiB</td><td>largest content of one multipart part (413 beyond)</td></tr>
 * <tr><td>form-max-size</td><td>64 MiB</td><td>largest multipart body, whatever the route's limit (413 beyond)</td></tr>
 * <tr><td>form-max-part-header-size</td><td>8 KiB</td><td>largest header block of one multipart part (413 beyond)</td></tr>
 * <tr><td>form-spool-threshold</td><td>64 KiB</td><td>{@link Context#parts()}: a larger part goes to a temporary
 *     file, a smaller one stays in memory</td></tr>
 * </table>
 *
 * @param host address to listen on
 * @param port port to listen on (0: any free port); TLS when {@code tls} is enabled
 * @param plainPort with TLS on {@code port}, a second port for plain HTTP (0: any free port), or -1 for none
 * @param tls the TLS settings ({@link TlsOptions#NONE}: plain HTTP)
 * @param http2 the HTTP/2 settings
 * @param webSocket the WebSocket settings (options {@code ws-*})
 * @param ioThreads number of I/O loops
 * @param dispatch where handlers run: event-loop, virtual-threads, worker-pool
 * @param workerThreads size of the default worker pool
 * @param maxRequestLine longest request line (414 beyond)
 * @param maxHeaderSize largest header block (431 beyond)
 * @param maxHeaders most header fields (431 beyond)
 * @param maxBodySize largest request body a route buffers (413 beyond, unread); a route may raise it
 * @param maxChunkExtension longest chunk extension per chunk (400 beyond)
 * @param headerReadTimeout time to receive a whole request head
 * @param bodyReadTimeout longest wait for more body bytes
 * @param idleTimeout keep-alive wait for the next request
 * @param writeTimeout longest wait for a slow reader to take more response bytes
 * @param maxRequestsPerConnection close a connection after this many
 * @param maxConnections above this, stop accepting (the kernel backlog queues)
 * @param maxOpenFiles files held open for responses at once, by all static mounts (503 beyond)
 * @param backlog listen backlog
 * @param shutdownTimeout graceful shutdown: how long in-flight requests may finish
 * @param shutdownDelay graceful shutdown: how long readiness answers 503 while everything * is still accepted and served, before the drain; set it a bit above the load balancer's probe period
 * @param drainGrace graceful shutdown: how long an idle keep-alive connection stays open after the drain
 *     begins, so a request already on its way is answered (with Connection: close)
 * @param maxConcurrentRequests requests in flight at most; more wait in the queue or get 503
 * @param concurrencyLimit fixed, or adaptive (lowered when latency rises)
 * @param requestQueueSize requests waiting for a slot at most (0: refuse at once)
 * @param requestQueueTimeout longest wait in the queue before a 503
 * @param accessLog off, full (a line per response) or sampled, through the * {@code System.Logger} named {@code brisk.access}
 * @param accessLogSampleRate sampled: one response in this many per I/O loop is * logged, and every 5xx
 * @param requestIds echo {@code X-Request-Id} (the incoming valid one, else a * generated one) on every response
 * @param io engine: nio (selector loops), blocking (a thread per connection), uring (io_uring loops; nio where
 *           io_uring cannot be used) or uring-only (no start without io_uring)
 * @param threads blocking engine: virtual or platform threads
 * @param platformThreads blocking engine on platform threads: connections served at once
 * @param connectionWaitTimeout blocking engine on platform threads: longest wait for a free thread before a 503
 * @param bodyMemoryBudget request-body memory of all connections together (buffered bodies, stream windows)
 * @param bodySpoolThreshold a buffered body larger than this goes to a temporary file
 * @param bodySpoolDisk disk all spooled bodies may take together; 0: never spool
 * @param bodySpoolDir where spooled bodies are written (empty: java.io.tmpdir)
 * @param forms the limits on request forms (options {@code form-*})
 * @param minBodyRate least average rate, in bytes per second, a request body arrives at once
 *     {@code rateGrace} has passed, over {@code rateWindow}; 0: no minimum
 * @param minResponseRate least average rate, in bytes per second, a client takes the response bytes the
 *     socket holds for it once {@code rateGrace} has passed, over {@code rateWindow}; 0: no minimum
 * @param rateGrace time waited on a client before its data rate is first judged
 * @param rateWindow the time a data rate is averaged over
 * @param compressedFileCache bytes of static files' compressed answers kept for reuse, every mount together; 0: none
 */
public record ServerOptions(
        String host,
        int port,
        int plainPort,
        TlsOptions tls,
        Http2Options http2,
        WebSocketOptions webSocket,
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
        int maxOpenFiles,
        int backlog,
        Duration shutdownTimeout,
        Duration shutdownDelay,
        Duration drainGrace,
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
        Duration connectionWaitTimeout,
        long bodyMemoryBudget,
        long bodySpoolThreshold,
        long bodySpoolDisk,
        String bodySpoolDir,
        FormOptions forms,
        long minBodyRate,
        long minResponseRate,
        Duration rateGrace,
        Duration rateWindow,
        long compressedFileCache) {

    /** Default of the option {@code port}. */
    public static final int DEFAULT_PORT = 8080;
    /** Default of the option {@code max-request-line}. */
    public static final int DEFAULT_MAX_REQUEST_LINE = 8 * 1024;
    /** Default of the option {@code max-header-size}. */
    public static final int DEFAULT_MAX_HEADER_SIZE = 16 * 1024;
    /** Default of the option {@code max-headers}. */
    public static final int DEFAULT_MAX_HEADERS = 200;
    /** Default of the option {@code max-body-size}. */
    public static final long DEFAULT_MAX_BODY_SIZE = 1024L * 1024;
    /** Default of the option {@code max-chunk-extension}. */
    public static final int DEFAULT_MAX_CHUNK_EXTENSION = 256;
    /** Default of the option {@code header-read-timeout}. */
    /**
     * The longest any duration option may be: 365 days. Timers count in nanoseconds (some 292 years
     * at most), and no timeout, grace or interval needs more than a year; longer is refused at start.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    public static final Duration DEFAULT_HEADER_READ_TIMEOUT = Duration.ofSeconds(10);
    /** Default of the option {@code body-read-timeout}. */
    public static final Duration DEFAULT_BODY_READ_TIMEOUT = Duration.ofSeconds(30);
    /** Default of the option {@code idle-timeout}. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Default of the option {@code write-timeout}. */
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(30);
    /** Default of the option {@code max-connections}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /** Default of the option {@code max-open-files}. */
    public static final int DEFAULT_MAX_OPEN_FILES = 1024;
    /** Default of the option {@code backlog}. */
    public static final int DEFAULT_BACKLOG = 1024;
    /** Default of the option {@code shutdown-timeout}. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
    /** Default of the option {@code drain-grace}. */
    public static final Duration DEFAULT_DRAIN_GRACE = Duration.ofMillis(250);
    /** Default of the option {@code shutdown-delay}. */
    public static final Duration DEFAULT_SHUTDOWN_DELAY = Duration.ZERO;
    /** Default of the option {@code request-queue-size}. */
    public static final int DEFAULT_REQUEST_QUEUE_SIZE = 16;
    /** Default of the option {@code request-queue-timeout}. */
    public static final Duration DEFAULT_REQUEST_QUEUE_TIMEOUT = Duration.ofMillis(100);
    /** Default of the option {@code access-log-sample-rate}. */
    public static final int DEFAULT_ACCESS_LOG_SAMPLE_RATE = 100;
    /** Default of the option {@code platform-threads}. */
    public static final int DEFAULT_PLATFORM_THREADS = 200;
    /** Default of the option {@code connection-wait-timeout}. */
    public static final Duration DEFAULT_CONNECTION_WAIT_TIMEOUT = Duration.ofSeconds(1);
    /** Default of the option {@code body-spool-threshold}. */
    public static final long DEFAULT_BODY_SPOOL_THRESHOLD = 1024L * 1024;
    /** Default of the option {@code body-spool-disk}. */
    public static final long DEFAULT_BODY_SPOOL_DISK = 1024L * 1024 * 1024;
    /** Default of the options {@code min-body-rate} and {@code min-response-rate}, bytes per second (Kestrel's). */
    public static final long DEFAULT_MIN_DATA_RATE = 240;
    /** Default of the option {@code rate-grace} (Kestrel's). */
    public static final Duration DEFAULT_RATE_GRACE = Duration.ofSeconds(5);
    /** Default of the option {@code rate-window}. */
    public static final Duration DEFAULT_RATE_WINDOW = Duration.ofSeconds(10);

    /**
     * Default of the option {@code compressed-file-cache}: 1/32 of the heap this JVM may grow to
     * ({@link Runtime#maxMemory()}), at most 64 MiB.
     *
     * @return the default bound in bytes
     */
    public static long defaultCompressedFileCache() {
        return Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 32);
    }

    /**
     * Default of the option {@code body-memory-budget}: a quarter of the heap this JVM may grow to
     * ({@link Runtime#maxMemory()}), or 1 GiB when the heap has no limit.
     *
     * @return the default budget in bytes
     */
    public static long defaultBodyMemoryBudget() {
        long max = Runtime.getRuntime().maxMemory();
        return max == Long.MAX_VALUE ? 1L << 30 : Math.max(1024, max / 4);
    }

    /**
     * Checks every option; the error names the option by its key and gives the refused value.
     *
     * @throws IllegalArgumentException when an option is out of its range or a required one is null
     */
    public ServerOptions {
        requireRange("port", port, 0, 65535);
        requireRange("plain-port", plainPort, -1, 65535);
        if (tls == null) {
            throw new IllegalArgumentException("tls must not be null: TlsOptions.NONE for plain HTTP");
        }
        if (http2 == null) {
            throw new IllegalArgumentException("http2 must not be null: Http2Options.DEFAULTS");
        }
        if (webSocket == null) {
            throw new IllegalArgumentException("webSocket must not be null: WebSocketOptions.DEFAULTS");
        }
        if (plainPort >= 0 && !tls.enabled()) {
            throw new IllegalArgumentException("plain-port" + where("plain-port") + " is for a server with TLS on port; without TLS, port is plain");
        }
        requireRange("io-threads", ioThreads, 1, 1024);
        requireRange("worker-threads", workerThreads, 1, 100_000);
        requireRange("max-request-line", maxRequestLine, 64, 1 << 20);
        requireRange("max-header-size", maxHeaderSize, 256, 1 << 20);
        requireRange("max-headers", maxHeaders, 1, 10_000);
        if (maxBodySize < 0 || maxBodySize > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("max-body-size" + where("max-body-size") + " must be between 0 and 2 GiB: " + maxBodySize);
        }
        requireRange("max-chunk-extension", maxChunkExtension, 0, 1 << 20);
        requireRange("max-requests-per-connection", maxRequestsPerConnection, 0, Integer.MAX_VALUE);
        requireRange("max-connections", maxConnections, 1, 10_000_000);
        requireRange("max-open-files", maxOpenFiles, 1, 1_000_000);
        requireRange("backlog", backlog, 1, 1 << 20);
        requirePositive("header-read-timeout", headerReadTimeout);
        requirePositive("body-read-timeout", bodyReadTimeout);
        requirePositive("idle-timeout", idleTimeout);
        requirePositive("write-timeout", writeTimeout);
        requireNotNegative("shutdown-timeout", shutdownTimeout);
        requireNotNegative("shutdown-delay", shutdownDelay);
        requireNotNegative("drain-grace", drainGrace);
        requireRange("max-concurrent-requests", maxConcurrentRequests, 0, 10_000_000);
        requireRange("request-queue-size", requestQueueSize, 0, 10_000_000);
        requirePositive("request-queue-timeout", requestQueueTimeout);
        requireRange("platform-threads", platformThreads, 1, 100_000);
        requirePositive("connection-wait-timeout", connectionWaitTimeout);
        if (io == null || threads == null) {
            throw new IllegalArgumentException("io and threads" + where("io") + where("threads") + " must be set");
        }
        if (concurrencyLimit == null) {
            throw new IllegalArgumentException("concurrency-limit" + where("concurrency-limit") + " must be set");
        }
        if (accessLog == null) {
            throw new IllegalArgumentException("access-log" + where("access-log") + " must be set");
        }
        requireRange("access-log-sample-rate", accessLogSampleRate, 1, Integer.MAX_VALUE);
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host" + where("host") + " must not be empty");
        }
        if (dispatch == null) {
            throw new IllegalArgumentException("dispatch" + where("dispatch") + " must be set");
        }
        requireRange("body-memory-budget", bodyMemoryBudget, 1024, Long.MAX_VALUE);
        requireRange("body-spool-threshold", bodySpoolThreshold, 0, Integer.MAX_VALUE - 16);
        requireRange("body-spool-disk", bodySpoolDisk, 0, Long.MAX_VALUE);
        if (bodySpoolDir == null) {
            throw new IllegalArgumentException("body-spool-dir" + where("body-spool-dir") + " must not be null (empty: java.io.tmpdir)");
        }
        if (forms == null) {
            throw new IllegalArgumentException("forms must not be null: FormOptions.DEFAULTS");
        }
        requireRange("min-body-rate", minBodyRate, 0, 1L << 40);
        requireRange("min-response-rate", minResponseRate, 0, 1L << 40);
        requireNotNegative("rate-grace", rateGrace);
        requirePositive("rate-window", rateWindow);
        requireRange("compressed-file-cache", compressedFileCache, 0, Long.MAX_VALUE);
    }

    private static void requireRange(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + where(name) + " must be between " + min + " and " + max + ": " + v);
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + where(name) + " must be a positive duration: " + ConfigSource.text(d));
        }
        requireAtMostMax(name, d);
    }

    private static void requireNotNegative(String name, Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(name + where(name) + " must be >= 0: " + ConfigSource.text(d));
        }
        requireAtMostMax(name, d);
    }

    private static void requireAtMostMax(String name, Duration d) {
        if (d.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(name + where(name) + " must be at most 365 days: " + ConfigSource.text(d));
        }
    }

    /** Where an option is set from outside, for a message: {@code " (brisk.port / BRISK_PORT)"}. */
    static String where(String name) {
        return " (brisk." + name + " / " + ConfigSource.envName(name) + ")";
    }

    /**
     * A builder holding every default; the builder is not thread-safe.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from the defaults; {@link #from(ConfigSource)} overlays outside config. */
    public static final class Builder {
        private String host = "0.0.0.0";
        private int port = DEFAULT_PORT;
        private int plainPort = -1;
        private java.nio.file.Path tlsCert;
        private java.nio.file.Path tlsKey;
        private String tlsKeyPassword;
        private java.nio.file.Path tlsKeyStore;
        private String tlsKeyStorePassword;
        private ClientAuth tlsClientAuth = ClientAuth.NONE;
        private java.nio.file.Path tlsTrust;
        private java.util.List<String> tlsProtocols = TlsOptions.DEFAULT_PROTOCOLS;
        private Duration tlsHandshakeTimeout = TlsOptions.DEFAULT_HANDSHAKE_TIMEOUT;
        private Duration tlsReloadInterval = TlsOptions.DEFAULT_RELOAD_INTERVAL;
        private boolean http2 = true;
        private boolean h2c = true;
        private int h2MaxConcurrentStreams = Http2Options.DEFAULT_MAX_CONCURRENT_STREAMS;
        private int h2InitialWindowSize = Http2Options.DEFAULT_INITIAL_WINDOW_SIZE;
        private int h2MaxFrameSize = Http2Options.DEFAULT_MAX_FRAME_SIZE;
        private int h2MaxHeaderListSize = Http2Options.DEFAULT_MAX_HEADER_LIST_SIZE;
        private int wsMaxFrameSize = WebSocketOptions.DEFAULT_MAX_FRAME_SIZE;
        private int wsMaxMessageSize = WebSocketOptions.DEFAULT_MAX_MESSAGE_SIZE;
        private Duration wsIdleTimeout = WebSocketOptions.DEFAULT_IDLE_TIMEOUT;
        private Duration wsPingInterval = WebSocketOptions.DEFAULT_PING_INTERVAL;
        private long wsOutboundLimit = WebSocketOptions.DEFAULT_OUTBOUND_LIMIT;
        private long wsMemory = WebSocketOptions.DEFAULT_MEMORY;
        private boolean wsCompression = true;
        private boolean wsCompressionContextTakeover;
        private Duration wsCloseTimeout = WebSocketOptions.DEFAULT_CLOSE_TIMEOUT;
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
        private int maxOpenFiles = DEFAULT_MAX_OPEN_FILES;
        private int backlog = DEFAULT_BACKLOG;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private Duration shutdownDelay = DEFAULT_SHUTDOWN_DELAY;
        private Duration drainGrace = DEFAULT_DRAIN_GRACE;
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
        private long bodyMemoryBudget = defaultBodyMemoryBudget();
        private long bodySpoolThreshold = DEFAULT_BODY_SPOOL_THRESHOLD;
        private long bodySpoolDisk = DEFAULT_BODY_SPOOL_DISK;
        private String bodySpoolDir = "";
        private int formMaxParts = FormOptions.DEFAULT_MAX_PARTS;
        private long formMaxPartSize = FormOptions.DEFAULT_MAX_PART_SIZE;
        private long formMaxSize = FormOptions.DEFAULT_MAX_SIZE;
        private int formMaxPartHeaderSize = FormOptions.DEFAULT_MAX_PART_HEADER_SIZE;
        private long formSpoolThreshold = FormOptions.DEFAULT_SPOOL_THRESHOLD;
        private long minBodyRate = DEFAULT_MIN_DATA_RATE;
        private long minResponseRate = DEFAULT_MIN_DATA_RATE;
        private Duration rateGrace = DEFAULT_RATE_GRACE;
        private Duration rateWindow = DEFAULT_RATE_WINDOW;
        private long compressedFileCache = defaultCompressedFileCache();

        private Builder() {
        }

        /**
         * Address to listen on (option {@code host}, default 0.0.0.0).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder host(String v) { host = v; return this; }
        /**
         * Port to listen on (0: any free port) (option {@code port}, default 8080).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder port(int v) { port = v; return this; }
        /**
         * With TLS on {@code port}: a second port for plain HTTP (option {@code plain-port}, default -1: none;
         * 0: any free port, see {@link Brisk#plainPort()}).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder plainPort(int v) { plainPort = v; return this; }
        /**
         * TLS on {@code port} with a PEM certificate chain (the server's own first) and its PKCS#8 private key
         * (options {@code tls-cert}, {@code tls-key}).
         *
         * @param certificate the certificate chain's file
         * @param privateKey the private key's file
         * @return this builder
         */
        public Builder tlsPem(java.nio.file.Path certificate, java.nio.file.Path privateKey) {
            tlsCert = certificate;
            tlsKey = privateKey;
            return this;
        }
        /**
         * The password of an encrypted PKCS#8 private key (option {@code tls-key-password}).
         *
         * @param v the password, or null
         * @return this builder
         */
        public Builder tlsKeyPassword(String v) { tlsKeyPassword = v; return this; }
        /**
         * TLS on {@code port} with a PKCS#12 key store holding the key and its chain (options
         * {@code tls-keystore}, {@code tls-keystore-password}).
         *
         * @param keyStore the key store's file
         * @param password its password, or null for none
         * @return this builder
         */
        public Builder tlsKeyStore(java.nio.file.Path keyStore, String password) {
            tlsKeyStore = keyStore;
            tlsKeyStorePassword = password;
            return this;
        }
        /**
         * Whether clients must show a certificate (option {@code tls-client-auth}, default none).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder tlsClientAuth(ClientAuth v) { tlsClientAuth = v; return this; }
        /**
         * PEM file of the CA certificates client certificates must chain to (option {@code tls-trust}).
         *
         * @param v the file
         * @return this builder
         */
        public Builder tlsTrust(java.nio.file.Path v) { tlsTrust = v; return this; }
        /**
         * The TLS versions offered (option {@code tls-protocols}, default {@code TLSv1.3,TLSv1.2}).
         *
         * @param v the versions; checked only by {@link #build()}
         * @return this builder
         */
        public Builder tlsProtocols(java.util.List<String> v) { tlsProtocols = v; return this; }
        /**
         * Longest time from accept to a finished handshake (option {@code tls-handshake-timeout}, default 10 s).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder tlsHandshakeTimeout(Duration v) { tlsHandshakeTimeout = v; return this; }
        /**
         * How often the key files are checked for changes, 0 for never (option {@code tls-reload-interval},
         * default 10 s).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder tlsReloadInterval(Duration v) { tlsReloadInterval = v; return this; }
        /**
         * All TLS settings at once.
         *
         * @param t the settings ({@link TlsOptions#NONE}: plain HTTP)
         * @return this builder
         */
        public Builder tls(TlsOptions t) {
            tlsCert = t.certificate();
            tlsKey = t.privateKey();
            tlsKeyPassword = t.privateKeyPassword();
            tlsKeyStore = t.keyStore();
            tlsKeyStorePassword = t.keyStorePassword();
            tlsClientAuth = t.clientAuth();
            tlsTrust = t.trustedCertificates();
            tlsProtocols = t.protocols();
            tlsHandshakeTimeout = t.handshakeTimeout();
            tlsReloadInterval = t.reloadInterval();
            return this;
        }
        /**
         * Whether HTTP/2 is served: {@code h2} by ALPN over TLS, and h2c when {@link #h2c} is on too
         * (option {@code http2}, default true).
         *
         * @param v the value
         * @return this builder
         */
        public Builder http2(boolean v) { http2 = v; return this; }
        /**
         * Whether a plain connection that opens with the HTTP/2 connection preface is served as HTTP/2
         * (option {@code h2c}, default true).
         *
         * @param v the value
         * @return this builder
         */
        public Builder h2c(boolean v) { h2c = v; return this; }
        /**
         * HTTP/2 streams a client may have open at once per connection (option
         * {@code h2-max-concurrent-streams}, default 100).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder h2MaxConcurrentStreams(int v) { h2MaxConcurrentStreams = v; return this; }
        /**
         * HTTP/2 request body bytes a client may send per stream ahead of the server (option
         * {@code h2-initial-window-size}, default 1 MiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder h2InitialWindowSize(int v) { h2InitialWindowSize = v; return this; }
        /**
         * Largest HTTP/2 frame payload a client may send (option {@code h2-max-frame-size}, default 16 KiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder h2MaxFrameSize(int v) { h2MaxFrameSize = v; return this; }
        /**
         * Largest HTTP/2 request header list, counted as HPACK counts (option
         * {@code h2-max-header-list-size}, default 32 KiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder h2MaxHeaderListSize(int v) { h2MaxHeaderListSize = v; return this; }
        /**
         * All HTTP/2 settings at once.
         *
         * @param h the settings
         * @return this builder
         */
        public Builder http2(Http2Options h) {
            http2 = h.enabled();
            h2c = h.h2c();
            h2MaxConcurrentStreams = h.maxConcurrentStreams();
            h2InitialWindowSize = h.initialWindowSize();
            h2MaxFrameSize = h.maxFrameSize();
            h2MaxHeaderListSize = h.maxHeaderListSize();
            return this;
        }
        /**
         * Largest WebSocket frame payload a client may send, 1009 beyond (option {@code ws-max-frame-size},
         * default 1 MiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsMaxFrameSize(int v) { wsMaxFrameSize = v; return this; }
        /**
         * Largest WebSocket message a client may send, joined and inflated, 1009 beyond (option
         * {@code ws-max-message-size}, default 1 MiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsMaxMessageSize(int v) { wsMaxMessageSize = v; return this; }
        /**
         * How long a WebSocket peer may send nothing (a pong counts) before it is closed with 1001 (option
         * {@code ws-idle-timeout}, default 60 s).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsIdleTimeout(Duration v) { wsIdleTimeout = v; return this; }
        /**
         * Silence from a WebSocket peer after which it gets a ping; 0 for never (option
         * {@code ws-ping-interval}, default 30 s).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsPingInterval(Duration v) { wsPingInterval = v; return this; }
        /**
         * Bytes of sent messages one WebSocket session may hold before its socket takes them; a send
         * beyond closes the session with 1008 (option {@code ws-outbound-limit}, default 1 MiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsOutboundLimit(long v) { wsOutboundLimit = v; return this; }
        /**
         * Bytes of WebSocket messages all sessions together may hold (option {@code ws-memory}, default 256 MiB).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsMemory(long v) { wsMemory = v; return this; }
        /**
         * Whether permessage-deflate is agreed when a client offers it (option {@code ws-compression},
         * default true).
         *
         * @param v the value
         * @return this builder
         */
        public Builder wsCompression(boolean v) { wsCompression = v; return this; }
        /**
         * Whether each WebSocket session keeps its compressor's window across messages (option
         * {@code ws-compression-context-takeover}, default false).
         *
         * @param v the value
         * @return this builder
         */
        public Builder wsCompressionContextTakeover(boolean v) { wsCompressionContextTakeover = v; return this; }
        /**
         * Longest wait for a WebSocket peer's close frame after the server's (option {@code ws-close-timeout},
         * default 5 s).
         *
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder wsCloseTimeout(Duration v) { wsCloseTimeout = v; return this; }
        /**
         * All WebSocket settings at once.
         *
         * @param w the settings
         * @return this builder
         */
        public Builder webSocket(WebSocketOptions w) {
            wsMaxFrameSize = w.maxFrameSize();
            wsMaxMessageSize = w.maxMessageSize();
            wsIdleTimeout = w.idleTimeout();
            wsPingInterval = w.pingInterval();
            wsOutboundLimit = w.outboundLimit();
            wsMemory = w.memory();
            wsCompression = w.compression();
            wsCompressionContextTakeover = w.compressionContextTakeover();
            wsCloseTimeout = w.closeTimeout();
            return this;
        }
        /**
         * Number of I/O loops (option {@code io-threads}, default available processors).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder ioThreads(int v) { ioThreads = v; return this; }
        /**
         * Where handlers run: event-loop, virtual-threads, worker-pool (option {@code dispatch}, default virtual-threads).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder dispatch(Dispatch v) { dispatch = v; return this; }
        /**
         * Size of the default worker pool (option {@code worker-threads}, default max(8, 2 × processors)).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder workerThreads(int v) { workerThreads = v; return this; }
        /**
         * Longest request line (414 beyond) (option {@code max-request-line}, default 8 KiB).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxRequestLine(int v) { maxRequestLine = v; return this; }
        /**
         * Largest header block (431 beyond) (option {@code max-header-size}, default 16 KiB).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxHeaderSize(int v) { maxHeaderSize = v; return this; }
        /**
         * Most header fields (431 beyond) (option {@code max-headers}, default 200).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxHeaders(int v) { maxHeaders = v; return this; }
        /**
         * Largest request body a route buffers (413 beyond, unread); a route may raise it with
         * {@link Route#maxBodySize} (option {@code max-body-size}, default 1 MiB).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxBodySize(long v) { maxBodySize = v; return this; }
        /**
         * Longest chunk extension per chunk (400 beyond) (option {@code max-chunk-extension}, default 256 B).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxChunkExtension(int v) { maxChunkExtension = v; return this; }
        /**
         * Time to receive a whole request head (option {@code header-read-timeout}, default 10 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder headerReadTimeout(Duration v) { headerReadTimeout = v; return this; }
        /**
         * Longest wait for more body bytes (option {@code body-read-timeout}, default 30 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder bodyReadTimeout(Duration v) { bodyReadTimeout = v; return this; }
        /**
         * Keep-alive wait for the next request (option {@code idle-timeout}, default 60 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        /**
         * Longest wait for a slow reader to take more response bytes (option {@code write-timeout}, default 30 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder writeTimeout(Duration v) { writeTimeout = v; return this; }
        /**
         * Close a connection after this many (option {@code max-requests-per-connection}, default 0 (unlimited)).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxRequestsPerConnection(int v) { maxRequestsPerConnection = v; return this; }
        /**
         * Above this, stop accepting (the kernel backlog queues) (option {@code max-connections}, default 10000).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        /**
         * Files held open for responses at once, by all static mounts together; a request that would open
         * one more is answered 503 (option {@code max-open-files}, default 1024).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxOpenFiles(int v) { maxOpenFiles = v; return this; }
        /**
         * Listen backlog (option {@code backlog}, default 1024).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder backlog(int v) { backlog = v; return this; }
        /**
         * Graceful shutdown: how long in-flight requests may finish (option {@code shutdown-timeout}, default 10 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder shutdownTimeout(Duration v) { shutdownTimeout = v; return this; }
        /**
         * Graceful shutdown: how long readiness answers 503 while everything * is still accepted and served, before the drain; set it a bit above the load balancer's probe period (option {@code shutdown-delay}, default 0 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder shutdownDelay(Duration v) { shutdownDelay = v; return this; }
        /**
         * Graceful shutdown: how long an idle keep-alive connection stays open after the drain begins, so
         * a request already on its way is answered with {@code Connection: close} (option
         * {@code drain-grace}, default 250 ms; 0 closes idle connections at once).
         *
         * @param v the value
         * @return this builder
         */
        public Builder drainGrace(Duration v) { drainGrace = v; return this; }
        /**
         * Requests in flight at most; more wait in the queue or get 503 (option {@code max-concurrent-requests}, default 0 (unlimited)).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder maxConcurrentRequests(int v) { maxConcurrentRequests = v; return this; }
        /**
         * Fixed, or adaptive (lowered when latency rises) (option {@code concurrency-limit}, default fixed).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder concurrencyLimit(ConcurrencyLimitMode v) { concurrencyLimit = v; return this; }
        /**
         * Requests waiting for a slot at most (0: refuse at once) (option {@code request-queue-size}, default 16).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder requestQueueSize(int v) { requestQueueSize = v; return this; }
        /**
         * Longest wait in the queue before a 503 (option {@code request-queue-timeout}, default 100 ms).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder requestQueueTimeout(Duration v) { requestQueueTimeout = v; return this; }
        /**
         * Off, full (a line per response) or sampled, through the * {@code System.Logger} named {@code brisk.access} (option {@code access-log}, default off).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder accessLog(AccessLogMode v) { accessLog = v; return this; }
        /**
         * Sampled: one response in this many per I/O loop is * logged, and every 5xx (option {@code access-log-sample-rate}, default 100).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder accessLogSampleRate(int v) { accessLogSampleRate = v; return this; }
        /**
         * Echo {@code X-Request-Id} (the incoming valid one, else a * generated one) on every response (option {@code request-ids}, default false).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder requestIds(boolean v) { requestIds = v; return this; }
        /**
         * Engine: nio (selector loops), blocking (a thread per connection), uring (io_uring loops; nio where
         * io_uring cannot be used) or uring-only (no start without io_uring) (option {@code io}, default nio).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder io(IoMode v) { io = v; return this; }
        /**
         * Blocking engine: virtual or platform threads (option {@code threads}, default virtual).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder threads(ThreadMode v) { threads = v; return this; }
        /**
         * Blocking engine on platform threads: connections served at once (option {@code platform-threads}, default 200).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder platformThreads(int v) { platformThreads = v; return this; }
        /**
         * Blocking engine on platform threads: longest wait for a free thread before a 503 (option {@code connection-wait-timeout}, default 1 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder connectionWaitTimeout(Duration v) { connectionWaitTimeout = v; return this; }
        /**
         * Request-body memory of all connections together: buffered bodies, their assembled copies and
         * stream windows; a body that does not fit is refused with 503 + Retry-After (option
         * {@code body-memory-budget}, default ¼ of the max heap).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder bodyMemoryBudget(long v) { bodyMemoryBudget = v; return this; }
        /**
         * A buffered body larger than this goes to a temporary file (option {@code body-spool-threshold}, default 1 MiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder bodySpoolThreshold(long v) { bodySpoolThreshold = v; return this; }
        /**
         * Disk all spooled bodies may take together, 503 beyond; 0: never spool (option {@code body-spool-disk}, default 1 GiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder bodySpoolDisk(long v) { bodySpoolDisk = v; return this; }
        /**
         * Where spooled bodies are written; empty: {@code java.io.tmpdir} (option {@code body-spool-dir}, default empty).
         * @param v the directory; checked only by {@link #build()}
         * @return this builder
         */
        public Builder bodySpoolDir(String v) { bodySpoolDir = v; return this; }
        /**
         * Most parts of a {@code multipart/form-data} body, and most name/value pairs of an
         * {@code application/x-www-form-urlencoded} one; more are refused with 413 (option
         * {@code form-max-parts}, default 1000).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder formMaxParts(int v) { formMaxParts = v; return this; }
        /**
         * Largest content of one multipart part, 413 beyond (option {@code form-max-part-size}, default 16 MiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder formMaxPartSize(long v) { formMaxPartSize = v; return this; }
        /**
         * Largest multipart body as read, 413 beyond; the route's body limit holds as well (option
         * {@code form-max-size}, default 64 MiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder formMaxSize(long v) { formMaxSize = v; return this; }
        /**
         * Largest header block of one multipart part, 413 beyond (option {@code form-max-part-header-size},
         * default 8 KiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder formMaxPartHeaderSize(int v) { formMaxPartHeaderSize = v; return this; }
        /**
         * {@link Context#parts()} keeps a part of at most this many bytes in memory and writes a larger
         * one to a temporary file (option {@code form-spool-threshold}, default 64 KiB).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder formSpoolThreshold(long v) { formSpoolThreshold = v; return this; }
        /**
         * All form limits at once.
         *
         * @param f the limits
         * @return this builder
         */
        public Builder forms(FormOptions f) {
            formMaxParts = f.maxParts();
            formMaxPartSize = f.maxPartSize();
            formMaxSize = f.maxSize();
            formMaxPartHeaderSize = f.maxPartHeaderSize();
            formSpoolThreshold = f.spoolThreshold();
            return this;
        }
        /**
         * Least average rate a request body arrives at, over {@code rate-window} once {@code rate-grace}
         * has passed; below it the request gets 408 and the connection closes (option
         * {@code min-body-rate}, default 240 B/s; 0: no minimum). Time a streamed body waits for its
         * handler to read does not count.
         * @param v bytes per second; checked only by {@link #build()}
         * @return this builder
         */
        public Builder minBodyRate(long v) { minBodyRate = v; return this; }
        /**
         * Least average rate a client takes the response bytes the socket holds for it, over
         * {@code rate-window} once {@code rate-grace} has passed; below it the connection closes (option
         * {@code min-response-rate}, default 240 B/s; 0: no minimum). Time with nothing left to write
         * does not count.
         * @param v bytes per second; checked only by {@link #build()}
         * @return this builder
         */
        public Builder minResponseRate(long v) { minResponseRate = v; return this; }
        /**
         * Time waited on a client before its data rate is first judged (option {@code rate-grace}, default 5 s).
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder rateGrace(Duration v) { rateGrace = v; return this; }
        /**
         * The time a data rate is averaged over (option {@code rate-window}, default 10 s): a client that
         * moves nothing for this long, once past the grace, is cut.
         * @param v the value; checked only by {@link #build()}
         * @return this builder
         */
        public Builder rateWindow(Duration v) { rateWindow = v; return this; }
        /**
         * Bytes of static files' compressed answers kept for reuse, every mount together: a file of up to
         * 256 KiB compressed for one client is kept, so the next client taking that coding gets the same
         * bytes without the file being compressed again; the least recently used are dropped beyond it
         * (option {@code compressed-file-cache}, default 1/32 of the max heap, at most 64 MiB; 0 keeps none).
         * @param v the value in bytes; checked only by {@link #build()}
         * @return this builder
         */
        public Builder compressedFileCache(long v) { compressedFileCache = v; return this; }

        /**
         * Overlays every option that {@code source} supplies on the values set so far.
         *
         * @param source where the outside values come from; not null
         * @return this builder
         * @throws IllegalArgumentException when a supplied value cannot be parsed
         */
        public Builder from(ConfigSource source) {
            fromSource(source);
            return this;
        }

        private static java.nio.file.Path path(ConfigSource source, String option, java.nio.file.Path fallback) {
            return source.get(option).map(java.nio.file.Path::of).orElse(fallback);
        }

        private void fromSource(ConfigSource source) {
            host = source.string("host", host);
            port = source.integer("port", port, 0, 65535);
            plainPort = source.integer("plain-port", plainPort, -1, 65535);
            tlsCert = path(source, "tls-cert", tlsCert);
            tlsKey = path(source, "tls-key", tlsKey);
            tlsKeyPassword = source.string("tls-key-password", tlsKeyPassword);
            tlsKeyStore = path(source, "tls-keystore", tlsKeyStore);
            tlsKeyStorePassword = source.string("tls-keystore-password", tlsKeyStorePassword);
            tlsClientAuth = source.enumValue("tls-client-auth", ClientAuth.class, tlsClientAuth);
            tlsTrust = path(source, "tls-trust", tlsTrust);
            tlsProtocols = source.get("tls-protocols").map(v -> java.util.Arrays.stream(v.split(","))
                    .map(String::trim).filter(x -> !x.isEmpty()).toList()).orElse(tlsProtocols);
            tlsHandshakeTimeout = source.duration("tls-handshake-timeout", tlsHandshakeTimeout);
            tlsReloadInterval = source.duration("tls-reload-interval", tlsReloadInterval);
            http2 = source.bool("http2", http2);
            h2c = source.bool("h2c", h2c);
            h2MaxConcurrentStreams = source.integer("h2-max-concurrent-streams", h2MaxConcurrentStreams);
            h2InitialWindowSize = source.intSize("h2-initial-window-size", h2InitialWindowSize);
            h2MaxFrameSize = source.intSize("h2-max-frame-size", h2MaxFrameSize);
            h2MaxHeaderListSize = source.intSize("h2-max-header-list-size", h2MaxHeaderListSize);
            wsMaxFrameSize = source.intSize("ws-max-frame-size", wsMaxFrameSize);
            wsMaxMessageSize = source.intSize("ws-max-message-size", wsMaxMessageSize);
            wsIdleTimeout = source.duration("ws-idle-timeout", wsIdleTimeout);
            wsPingInterval = source.duration("ws-ping-interval", wsPingInterval);
            wsOutboundLimit = source.size("ws-outbound-limit", wsOutboundLimit);
            wsMemory = source.size("ws-memory", wsMemory);
            wsCompression = source.bool("ws-compression", wsCompression);
            wsCompressionContextTakeover = source.bool("ws-compression-context-takeover", wsCompressionContextTakeover);
            wsCloseTimeout = source.duration("ws-close-timeout", wsCloseTimeout);
            ioThreads = source.integer("io-threads", ioThreads);
            dispatch = source.enumValue("dispatch", Dispatch.class, dispatch);
            workerThreads = source.integer("worker-threads", workerThreads);
            maxRequestLine = source.intSize("max-request-line", maxRequestLine);
            maxHeaderSize = source.intSize("max-header-size", maxHeaderSize);
            maxHeaders = source.integer("max-headers", maxHeaders);
            maxBodySize = source.size("max-body-size", maxBodySize);
            maxChunkExtension = source.intSize("max-chunk-extension", maxChunkExtension);
            headerReadTimeout = source.duration("header-read-timeout", headerReadTimeout);
            bodyReadTimeout = source.duration("body-read-timeout", bodyReadTimeout);
            idleTimeout = source.duration("idle-timeout", idleTimeout);
            writeTimeout = source.duration("write-timeout", writeTimeout);
            maxRequestsPerConnection = source.integer("max-requests-per-connection", maxRequestsPerConnection);
            maxConnections = source.integer("max-connections", maxConnections);
            maxOpenFiles = source.integer("max-open-files", maxOpenFiles);
            backlog = source.integer("backlog", backlog);
            shutdownTimeout = source.duration("shutdown-timeout", shutdownTimeout);
            shutdownDelay = source.duration("shutdown-delay", shutdownDelay);
            drainGrace = source.duration("drain-grace", drainGrace);
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
            bodyMemoryBudget = source.size("body-memory-budget", bodyMemoryBudget);
            bodySpoolThreshold = source.size("body-spool-threshold", bodySpoolThreshold);
            bodySpoolDisk = source.size("body-spool-disk", bodySpoolDisk);
            bodySpoolDir = source.string("body-spool-dir", bodySpoolDir);
            formMaxParts = source.integer("form-max-parts", formMaxParts);
            formMaxPartSize = source.size("form-max-part-size", formMaxPartSize);
            formMaxSize = source.size("form-max-size", formMaxSize);
            formMaxPartHeaderSize = source.intSize("form-max-part-header-size", formMaxPartHeaderSize);
            formSpoolThreshold = source.size("form-spool-threshold", formSpoolThreshold);
            minBodyRate = source.size("min-body-rate", minBodyRate);
            minResponseRate = source.size("min-response-rate", minResponseRate);
            rateGrace = source.duration("rate-grace", rateGrace);
            rateWindow = source.duration("rate-window", rateWindow);
            compressedFileCache = source.size("compressed-file-cache", compressedFileCache);
        }

        /**
         * Freezes the values set so far; the builder can still be changed and built again.
         *
         * @return the options, validated
         * @throws IllegalArgumentException when an option is out of range
         */
        public ServerOptions build() {
            TlsOptions tls = tlsCert == null && tlsKey == null && tlsKeyStore == null ? TlsOptions.NONE
                    : new TlsOptions(tlsCert, tlsKey, tlsKeyPassword, tlsKeyStore, tlsKeyStorePassword,
                            tlsClientAuth, tlsTrust, tlsProtocols, tlsHandshakeTimeout, tlsReloadInterval);
            Http2Options h2 = new Http2Options(http2, h2c, h2MaxConcurrentStreams, h2InitialWindowSize,
                    h2MaxFrameSize, h2MaxHeaderListSize);
            WebSocketOptions ws = new WebSocketOptions(wsMaxFrameSize, wsMaxMessageSize, wsIdleTimeout,
                    wsPingInterval, wsOutboundLimit, wsMemory, wsCompression, wsCompressionContextTakeover,
                    wsCloseTimeout);
            return new ServerOptions(host, port, plainPort, tls, h2, ws, ioThreads, dispatch, workerThreads, maxRequestLine,
                    maxHeaderSize, maxHeaders, maxBodySize, maxChunkExtension, headerReadTimeout,
                    bodyReadTimeout, idleTimeout, writeTimeout, maxRequestsPerConnection, maxConnections,
                    maxOpenFiles, backlog, shutdownTimeout, shutdownDelay, drainGrace, maxConcurrentRequests, concurrencyLimit,
                    requestQueueSize, requestQueueTimeout, accessLog, accessLogSampleRate, requestIds,
                    io, threads, platformThreads, connectionWaitTimeout, bodyMemoryBudget, bodySpoolThreshold,
                    bodySpoolDisk, bodySpoolDir, new FormOptions(formMaxParts, formMaxPartSize, formMaxSize,
                            formMaxPartHeaderSize, formSpoolThreshold), minBodyRate, minResponseRate, rateGrace, rateWindow,
                    compressedFileCache);
        }
    }
}
