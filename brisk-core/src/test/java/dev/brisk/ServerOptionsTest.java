package dev.brisk;

import static dev.brisk.ConfigSourceTest.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ServerOptionsTest {

    @Test
    void defaults() {
        ServerOptions o = ServerOptions.builder().build();
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(o.host()).isEqualTo("0.0.0.0");
        assertThat(o.port()).isEqualTo(8080);
        assertThat(o.ioThreads()).isEqualTo(cpus);
        assertThat(o.dispatch()).isEqualTo(Dispatch.VIRTUAL_THREADS);
        assertThat(o.workerThreads()).isEqualTo(Math.max(8, 2 * cpus));
        assertThat(o.maxRequestLine()).isEqualTo(8192);
        assertThat(o.maxHeaderSize()).isEqualTo(16384);
        assertThat(o.maxHeaders()).isEqualTo(200);
        assertThat(o.maxBodySize()).isEqualTo(1024L * 1024);
        assertThat(o.maxChunkExtension()).isEqualTo(256);
        assertThat(o.headerReadTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.writeTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.maxRequestsPerConnection()).isZero();
        assertThat(o.maxConnections()).isEqualTo(10_000);
        assertThat(o.backlog()).isEqualTo(1024);
        assertThat(o.shutdownTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.accessLog()).isEqualTo(AccessLogMode.OFF);
        assertThat(o.accessLogSampleRate()).isEqualTo(100);
        assertThat(o.requestIds()).isFalse();
        assertThat(o.shutdownDelay()).isEqualTo(Duration.ZERO);
        assertThat(o.bodyMemoryBudget()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
        assertThat(o.bodySpoolThreshold()).isEqualTo(1024L * 1024);
        assertThat(o.bodySpoolDisk()).isEqualTo(1024L * 1024 * 1024);
        assertThat(o.bodySpoolDir()).isEmpty();
        assertThat(o.http2()).isEqualTo(Http2Options.DEFAULTS);
        assertThat(o.http2()).isEqualTo(new Http2Options(true, true, 100, 1 << 20, 16_384, 32 * 1024));
        assertThat(o.http2().priorKnowledge()).isTrue();
        assertThat(ServerOptions.builder().http2(false).build().http2().priorKnowledge()).as("h2c needs http2").isFalse();
        assertThat(o.minBodyRate()).isEqualTo(240);
        assertThat(o.minResponseRate()).isEqualTo(240);
        assertThat(o.rateGrace()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.rateWindow()).isEqualTo(Duration.ofSeconds(10));
    }

    private static Arguments bad(String option, String description, UnaryOperator<ServerOptions.Builder> change) {
        return Arguments.of(description, change, option);
    }

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                bad("port", "port -1", b -> b.port(-1)),
                // a live peer that only answers pings would be closed as idle before its first ping
                bad("ws-ping-interval", "ws-ping-interval not below ws-idle-timeout",
                        b -> b.wsIdleTimeout(java.time.Duration.ofSeconds(10)).wsPingInterval(java.time.Duration.ofSeconds(10))),
                bad("port", "port 65536", b -> b.port(65536)),
                bad("ws-max-frame-size", "ws-max-frame-size 124", b -> b.wsMaxFrameSize(124)),
                bad("ws-memory", "ws-memory below ws-outbound-limit", b -> b.wsOutboundLimit(1 << 20).wsMemory(1 << 19)),
                bad("ws-close-timeout", "ws-close-timeout 0", b -> b.wsCloseTimeout(Duration.ZERO)),
                bad("form-max-parts", "form-max-parts 0", b -> b.formMaxParts(0)),
                bad("max-body-size", "max-body-size -1", b -> b.maxBodySize(-1)),
                bad("tls-protocols", "tls-protocols TLSv1.1",
                        b -> b.tlsKeyStore(java.nio.file.Path.of("/k.p12"), "x").tlsProtocols(java.util.List.of("TLSv1.1"))),
                bad("io-threads", "io-threads 0", b -> b.ioThreads(0)),
                bad("io-threads", "io-threads 1025", b -> b.ioThreads(1025)),
                bad("worker-threads", "worker-threads 0", b -> b.workerThreads(0)),
                bad("max-request-line", "max-request-line 63", b -> b.maxRequestLine(63)),
                bad("max-request-line", "max-request-line 1MiB+1", b -> b.maxRequestLine((1 << 20) + 1)),
                bad("max-header-size", "max-header-size 255", b -> b.maxHeaderSize(255)),
                bad("max-headers", "max-headers 0", b -> b.maxHeaders(0)),
                bad("max-headers", "max-headers 10001", b -> b.maxHeaders(10_001)),
                bad("max-body-size", "max-body-size -1", b -> b.maxBodySize(-1)),
                bad("max-body-size", "max-body-size 2GiB", b -> b.maxBodySize(Integer.MAX_VALUE - 15L)),
                bad("max-chunk-extension", "max-chunk-extension -1", b -> b.maxChunkExtension(-1)),
                bad("max-requests-per-connection", "max-requests-per-connection -1", b -> b.maxRequestsPerConnection(-1)),
                bad("max-connections", "max-connections 0", b -> b.maxConnections(0)),
                bad("backlog", "backlog 0", b -> b.backlog(0)),
                bad("header-read-timeout", "header-read-timeout 0", b -> b.headerReadTimeout(Duration.ZERO)),
                bad("body-read-timeout", "body-read-timeout -1s", b -> b.bodyReadTimeout(Duration.ofSeconds(-1))),
                bad("idle-timeout", "idle-timeout null", b -> b.idleTimeout(null)),
                bad("write-timeout", "write-timeout 0", b -> b.writeTimeout(Duration.ZERO)),
                bad("shutdown-timeout", "shutdown-timeout -1ms", b -> b.shutdownTimeout(Duration.ofMillis(-1))),
                bad("shutdown-timeout", "shutdown-timeout null", b -> b.shutdownTimeout(null)),
                bad("shutdown-delay", "shutdown-delay -1ms", b -> b.shutdownDelay(Duration.ofMillis(-1))),
                bad("shutdown-delay", "shutdown-delay null", b -> b.shutdownDelay(null)),
                bad("host", "host null", b -> b.host(null)),
                bad("host", "host blank", b -> b.host("  ")),
                bad("dispatch", "dispatch null", b -> b.dispatch(null)),
                bad("access-log", "access-log null", b -> b.accessLog(null)),
                bad("access-log-sample-rate", "access-log-sample-rate 0", b -> b.accessLogSampleRate(0)),
                bad("access-log-sample-rate", "access-log-sample-rate -5", b -> b.accessLogSampleRate(-5)),
                bad("body-memory-budget", "body-memory-budget 1023", b -> b.bodyMemoryBudget(1023)),
                bad("body-spool-threshold", "body-spool-threshold -1", b -> b.bodySpoolThreshold(-1)),
                bad("body-spool-threshold", "body-spool-threshold 2GiB", b -> b.bodySpoolThreshold(Integer.MAX_VALUE - 15L)),
                bad("body-spool-disk", "body-spool-disk -1", b -> b.bodySpoolDisk(-1)),
                bad("body-spool-dir", "body-spool-dir null", b -> b.bodySpoolDir(null)),
                bad("h2-max-concurrent-streams", "h2-max-concurrent-streams 0", b -> b.h2MaxConcurrentStreams(0)),
                bad("h2-max-concurrent-streams", "h2-max-concurrent-streams 10001", b -> b.h2MaxConcurrentStreams(10_001)),
                bad("h2-initial-window-size", "h2-initial-window-size 0", b -> b.h2InitialWindowSize(0)),
                bad("h2-initial-window-size", "h2-initial-window-size 2^29", b -> b.h2InitialWindowSize(1 << 29)),
                bad("h2-max-frame-size", "h2-max-frame-size 16383", b -> b.h2MaxFrameSize(16_383)),
                bad("h2-max-frame-size", "h2-max-frame-size 16MiB", b -> b.h2MaxFrameSize(1 << 24)),
                bad("h2-max-header-list-size", "h2-max-header-list-size 1023", b -> b.h2MaxHeaderListSize(1023)),
                bad("min-body-rate", "min-body-rate -1", b -> b.minBodyRate(-1)),
                bad("min-response-rate", "min-response-rate -1", b -> b.minResponseRate(-1)),
                bad("rate-grace", "rate-grace -1ms", b -> b.rateGrace(Duration.ofMillis(-1))),
                bad("rate-window", "rate-window 0", b -> b.rateWindow(Duration.ZERO)),
                bad("compressed-file-cache", "compressed-file-cache -1", b -> b.compressedFileCache(-1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRange")
    void outOfRangeValuesAreRejected(String description, UnaryOperator<ServerOptions.Builder> change, String option) {
        ServerOptions.Builder b = change.apply(ServerOptions.builder());
        assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(option + " ")
                .hasMessageContaining(ConfigSource.envName(option)); // the user may have set it from outside
    }

    @Test
    void boundaryValuesAreAccepted() {
        assertThatCode(() -> ServerOptions.builder().port(0).ioThreads(1).workerThreads(1).maxRequestLine(64)
                .maxHeaderSize(256).maxHeaders(1).maxBodySize(0).maxChunkExtension(0).maxRequestsPerConnection(0)
                .maxConnections(1).backlog(1).headerReadTimeout(Duration.ofNanos(1)).shutdownTimeout(Duration.ZERO)
                .shutdownDelay(Duration.ZERO).minBodyRate(0).minResponseRate(0).rateGrace(Duration.ZERO)
                .rateWindow(Duration.ofNanos(1)).build()).doesNotThrowAnyException();
        ServerOptions high = ServerOptions.builder().port(65535).ioThreads(1024).workerThreads(100_000)
                .maxRequestLine(1 << 20).maxHeaderSize(1 << 20).maxHeaders(10_000).maxBodySize(Integer.MAX_VALUE - 16L)
                .maxChunkExtension(1 << 20).maxRequestsPerConnection(Integer.MAX_VALUE).maxConnections(10_000_000)
                .backlog(1 << 20).build();
        assertThat(high.maxBodySize()).isEqualTo(Integer.MAX_VALUE - 16L);
        assertThat(high.port()).isEqualTo(65535);
    }

    @Test
    void fromAppliesEveryOption() {
        Properties file = props(
                "brisk.host", "127.0.0.1",
                "brisk.port", "9001",
                "brisk.io-threads", "3",
                "brisk.dispatch", "worker-pool",
                "brisk.worker-threads", "17",
                "brisk.max-request-line", "4KiB",
                "brisk.max-header-size", "32k",
                "brisk.max-headers", "50",
                "brisk.max-body-size", "1MiB",
                "brisk.max-chunk-extension", "128",
                "brisk.header-read-timeout", "5s",
                "brisk.body-read-timeout", "1500ms",
                "brisk.idle-timeout", "2m",
                "brisk.write-timeout", "45s",
                "brisk.max-requests-per-connection", "1000",
                "brisk.max-connections", "500",
                "brisk.max-open-files", "77",
                "brisk.backlog", "64",
                "brisk.shutdown-timeout", "1h",
                "brisk.shutdown-delay", "3s",
                "brisk.max-concurrent-requests", "4",
                "brisk.concurrency-limit", "adaptive",
                "brisk.request-queue-size", "0",
                "brisk.request-queue-timeout", "250ms",
                "brisk.access-log", "sampled",
                "brisk.access-log-sample-rate", "7",
                "brisk.request-ids", "true",
                "brisk.io", "blocking",
                "brisk.threads", "platform",
                "brisk.platform-threads", "64",
                "brisk.connection-wait-timeout", "2s",
                "brisk.drain-grace", "40ms",
                "brisk.plain-port", "8081",
                "brisk.tls-keystore", "/keys/server.p12",
                "brisk.tls-keystore-password", "pw",
                "brisk.tls-client-auth", "want",
                "brisk.tls-trust", "/keys/ca.pem",
                "brisk.tls-protocols", "TLSv1.3",
                "brisk.tls-handshake-timeout", "3s",
                "brisk.tls-reload-interval", "0s",
                "brisk.body-memory-budget", "64MiB",
                "brisk.body-spool-threshold", "256KiB",
                "brisk.body-spool-disk", "0",
                "brisk.body-spool-dir", "/var/tmp/brisk",
                "brisk.http2", "false",
                "brisk.h2c", "false",
                "brisk.h2-max-concurrent-streams", "10",
                "brisk.h2-initial-window-size", "70000",
                "brisk.h2-max-frame-size", "32KiB",
                "brisk.h2-max-header-list-size", "4KiB",
                "brisk.ws-max-frame-size", "64KiB",
                "brisk.ws-max-message-size", "2MiB",
                "brisk.ws-idle-timeout", "90s",
                "brisk.ws-ping-interval", "0s",
                "brisk.ws-outbound-limit", "512KiB",
                "brisk.ws-memory", "64MiB",
                "brisk.ws-compression", "false",
                "brisk.ws-compression-context-takeover", "true",
                "brisk.ws-close-timeout", "2s",
                "brisk.form-max-parts", "20",
                "brisk.form-max-part-size", "1MiB",
                "brisk.form-max-size", "2MiB",
                "brisk.form-max-part-header-size", "1KiB",
                "brisk.form-spool-threshold", "4KiB",
                "brisk.min-body-rate", "1KiB",
                "brisk.min-response-rate", "100",
                "brisk.rate-grace", "2s",
                "brisk.rate-window", "3s",
                "brisk.compressed-file-cache", "8MiB");
        ServerOptions o = ServerOptions.builder().from(ConfigSource.of(Map.of(), new Properties(), file)).build();
        assertThat(o).isEqualTo(new ServerOptions("127.0.0.1", 9001, 8081,
                new TlsOptions(null, null, null, java.nio.file.Path.of("/keys/server.p12"), "pw", ClientAuth.WANT,
                        java.nio.file.Path.of("/keys/ca.pem"), java.util.List.of("TLSv1.3"), Duration.ofSeconds(3),
                        Duration.ZERO), new Http2Options(false, false, 10, 70_000, 32_768, 4096),
                new WebSocketOptions(64 << 10, 2 << 20, Duration.ofSeconds(90), Duration.ZERO, 512 << 10, 64L << 20,
                        false, true, Duration.ofSeconds(2)),
                3, Dispatch.WORKER_POOL, 17, 4096, 32768, 50,
                1 << 20, 128, Duration.ofSeconds(5), Duration.ofMillis(1500), Duration.ofMinutes(2),
                Duration.ofSeconds(45), 1000, 500, 77, 64, Duration.ofHours(1), Duration.ofSeconds(3),
                Duration.ofMillis(40), 4, ConcurrencyLimitMode.ADAPTIVE, 0, Duration.ofMillis(250), AccessLogMode.SAMPLED, 7, true,
                IoMode.BLOCKING, ThreadMode.PLATFORM, 64, Duration.ofSeconds(2), 64L << 20, 256L << 10, 0,
                "/var/tmp/brisk", new FormOptions(20, 1 << 20, 2 << 20, 1024, 4096), 1024, 100, Duration.ofSeconds(2),
                Duration.ofSeconds(3), 8L << 20));
    }

    @Test
    void fromOverlaysCodeValuesAndFollowsPrecedence() {
        ConfigSource source = ConfigSource.of(
                Map.of("BRISK_PORT", "7000", "BRISK_MAX_BODY_SIZE", "2MiB"),
                props("brisk.port", "7001"),
                props("brisk.port", "6999", "brisk.idle-timeout", "5s", "brisk.max-body-size", "1MiB"));
        ServerOptions o = ServerOptions.builder().port(1234).idleTimeout(Duration.ofSeconds(99)).backlog(7)
                .from(source).build();
        assertThat(o.port()).isEqualTo(7001);
        assertThat(o.maxBodySize()).isEqualTo(2L << 20);
        assertThat(o.idleTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.backlog()).as("not configured outside: the code value stays").isEqualTo(7);

        // code set after from() wins again
        assertThat(ServerOptions.builder().from(source).port(1).build().port()).isEqualTo(1);
        // an empty source changes nothing
        assertThat(ServerOptions.builder().port(4321).from(ConfigSource.empty()).build())
                .isEqualTo(ServerOptions.builder().port(4321).build());
    }

    @Test
    void accessLogAndRequestIdsFromEnvironmentAndSystemProperties() {
        ConfigSource env = ConfigSource.of(Map.of("BRISK_ACCESS_LOG", "full", "BRISK_ACCESS_LOG_SAMPLE_RATE", "10",
                "BRISK_REQUEST_IDS", "on"), new Properties(), new Properties());
        ServerOptions o = ServerOptions.builder().from(env).build();
        assertThat(o.accessLog()).isEqualTo(AccessLogMode.FULL);
        assertThat(o.accessLogSampleRate()).isEqualTo(10);
        assertThat(o.requestIds()).isTrue();

        ConfigSource sys = ConfigSource.of(Map.of("BRISK_ACCESS_LOG", "full"),
                props("brisk.access-log", "OFF", "brisk.request-ids", "false"), new Properties());
        ServerOptions s = ServerOptions.builder().accessLog(AccessLogMode.SAMPLED).requestIds(true).from(sys).build();
        assertThat(s.accessLog()).as("system property over environment").isEqualTo(AccessLogMode.OFF);
        assertThat(s.requestIds()).isFalse();

        ConfigSource bad = ConfigSource.of(Map.of("BRISK_ACCESS_LOG", "verbose"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'access-log'").hasMessageContaining("BRISK_ACCESS_LOG")
                .hasMessageContaining("off, full, sampled");
        ConfigSource zero = ConfigSource.of(Map.of("BRISK_ACCESS_LOG_SAMPLE_RATE", "0"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(zero).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("access-log-sample-rate ");
    }

    @Test
    void invalidOutsideValuesNameTheOptionAndItsVariable() {
        ConfigSource badPort = ConfigSource.of(Map.of("BRISK_PORT", "http"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(badPort))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'port'").hasMessageContaining("BRISK_PORT").hasMessageContaining("'http'");
        ConfigSource badTimeout = ConfigSource.of(Map.of(), props("brisk.write-timeout", "soon"), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(badTimeout))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'write-timeout'").hasMessageContaining("BRISK_WRITE_TIMEOUT");
    }

    /**
     * Durations past 365 days are refused when the options are built, from code as from outside: such
     * a timeout once passed validation and then overflowed a nanosecond deadline on every connection.
     */
    @Test
    void durationsAreBoundedAndRangeErrorsNameTheVariable() {
        assertThatThrownBy(() -> ServerOptions.builder().idleTimeout(Duration.ofDays(366)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idle-timeout").hasMessageContaining("BRISK_IDLE_TIMEOUT").hasMessageContaining("365 days");
        assertThatThrownBy(() -> ServerOptions.builder().shutdownTimeout(Duration.ofDays(100_000)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_SHUTDOWN_TIMEOUT");
        assertThatThrownBy(() -> ServerOptions.builder().rateGrace(Duration.ofSeconds(Long.MAX_VALUE / 2)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_RATE_GRACE");
        assertThat(ServerOptions.builder().writeTimeout(ServerOptions.MAX_DURATION).build().writeTimeout())
                .isEqualTo(Duration.ofDays(365));
        ConfigSource ws = ConfigSource.of(Map.of("BRISK_WS_IDLE_TIMEOUT", "9000h"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(ws).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_WS_IDLE_TIMEOUT");
        ConfigSource port = ConfigSource.of(Map.of("BRISK_PORT", "-1"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(port).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_PORT");
        ConfigSource hugePort = ConfigSource.of(Map.of("BRISK_PORT", "99999999999"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(hugePort))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_PORT")
                .hasMessageContaining("'99999999999' is not an integer from 0 to 65535");
        ConfigSource threads = ConfigSource.of(Map.of("BRISK_IO_THREADS", "99999999999"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an integer from");
    }

    @Test
    void sizesFromOutsideAreStillRangeChecked() {
        // an int-sized option too large for an int: refused as given, not as the value it would be cut to
        ConfigSource huge = ConfigSource.of(Map.of("BRISK_MAX_REQUEST_LINE", "4GiB"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(huge).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_MAX_REQUEST_LINE")
                .hasMessageContaining("'4GiB'").hasMessageNotContaining("2147483647");
        ConfigSource body = ConfigSource.of(Map.of("BRISK_MAX_BODY_SIZE", "3GiB"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(body).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("max-body-size ");
        ConfigSource port = ConfigSource.of(Map.of("BRISK_PORT", "70000"), new Properties(), new Properties());
        assertThatThrownBy(() -> ServerOptions.builder().from(port).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("port ");
    }
}
