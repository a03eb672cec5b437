package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.ServerOptions;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Outside configuration through {@code cfg.configSource(ConfigSource.of(env, system, file))}. */
class ConfigurationTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    @Test
    void maxBodySizeFromTheEnvironmentLimitsTheBody() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.configSource(ConfigSource.of(Map.of("BRISK_MAX_BODY_SIZE", "1KiB"), new Properties(), new Properties()));
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.body().length));
        })) {
            assertThat(s.app().options().maxBodySize()).isEqualTo(1024);

            HttpResponse<String> small = s.post("/upload", "text/plain", "x".repeat(1024));
            assertThat(small.statusCode()).isEqualTo(200);
            assertThat(small.body()).isEqualTo("got 1024");

            HttpResponse<String> big = s.post("/upload", "text/plain", "x".repeat(1025));
            assertThat(big.statusCode()).isEqualTo(413);
        }
    }

    @Test
    void maxBodySizeAlsoLimitsChunkedBodies() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.configSource(ConfigSource.of(Map.of("BRISK_MAX_BODY_SIZE", "16"), new Properties(), new Properties()));
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.body().length));
        })) {
            try (RawConnection c = s.raw()) {
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "10\r\n0123456789abcdef\r\n0\r\n\r\n");
                assertThat(c.read().body()).isEqualTo("got 16");
            }
            try (RawConnection c = s.raw()) {
                c.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "10\r\n0123456789abcdef\r\n1\r\nX\r\n0\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(413);
            }
        }
    }

    @Test
    void portFromTheSourceIsUsed() throws Exception {
        int port = freePort();
        Brisk app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.of(Map.of("BRISK_PORT", String.valueOf(port), "BRISK_HOST", "127.0.0.1"),
                    new Properties(), new Properties()));
            cfg.port(0); // code value, overridden from outside
            cfg.get("/where", ctx -> ctx.text("port " + port));
        }).start();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            assertThat(app.port()).isEqualTo(port);
            assertThat(app.options().host()).isEqualTo("127.0.0.1");
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/where"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo("port " + port);
        } finally {
            app.close();
        }
    }

    /** Adds a handler to the {@code dev.brisk} logger that collects its records into {@code records}. */
    private static java.util.logging.Handler capture(java.util.List<java.util.logging.LogRecord> records) {
        java.util.logging.Handler h = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger.getLogger("dev.brisk").addHandler(h);
        return h;
    }

    /**
     * A misspelt limit leaves the default in force without a word; the app's creation warns, naming the
     * setting meant, and the misspelt one has no effect.
     */
    @Test
    void aMisspeltSettingIsWarnedOfWhenTheAppIsCreated() {
        java.util.List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = capture(records);
        try {
            Brisk app = Brisk.create(cfg -> {
                cfg.configSource(ConfigSource.of(Map.of("BRISK_MAX_CONCURENT_REQUESTS", "4"), new Properties(),
                        new Properties()));
                cfg.get("/x", ctx -> ctx.text("x"));
            });
            assertThat(app.options().maxConcurrentRequests()).isZero(); // the default: the typo did nothing
            assertThat(records).anySatisfy(r -> {
                assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                assertThat(r.getMessage()).isEqualTo("environment variable BRISK_MAX_CONCURENT_REQUESTS is not a "
                        + "Brisk setting and has no effect (did you mean BRISK_MAX_CONCURRENT_REQUESTS?)");
            });
        } finally {
            java.util.logging.Logger.getLogger("dev.brisk").removeHandler(capture);
        }
    }

    /** A TLS setting without a key means the user believes the server speaks TLS: it says it does not. */
    @Test
    void aTlsSettingWithTlsOffIsWarnedOf() {
        java.util.List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = capture(records);
        try {
            Brisk app = Brisk.create(cfg -> {
                cfg.configSource(ConfigSource.of(Map.of("BRISK_TLS_PROTOCOLS", "TLSv1.3"), new Properties(),
                        new Properties()));
                cfg.get("/x", ctx -> ctx.text("x"));
            });
            assertThat(app.options().tls().enabled()).isFalse();
            assertThat(records).extracting(java.util.logging.LogRecord::getMessage).contains("tls-protocols (brisk.tls-protocols / BRISK_TLS_PROTOCOLS) is set but has "
                    + "no effect: TLS is off (no tls-cert and tls-key, nor tls-keystore)");
        } finally {
            java.util.logging.Logger.getLogger("dev.brisk").removeHandler(capture);
        }
    }

    @Test
    void precedenceIsCodeThenFileThenEnvironmentThenSystemProperty() {
        Properties file = props("brisk.max-body-size", "1KiB", "brisk.max-headers", "50", "brisk.backlog", "77");
        Map<String, String> env = Map.of("BRISK_MAX_BODY_SIZE", "2KiB", "BRISK_MAX_HEADERS", "60");
        Properties sys = props("brisk.max-body-size", "3KiB");

        ServerOptions all = options(env, sys, file);
        assertThat(all.maxBodySize()).as("system property wins").isEqualTo(3 * 1024);
        assertThat(all.maxHeaders()).as("environment beats file").isEqualTo(60);
        assertThat(all.backlog()).as("file beats code").isEqualTo(77);
        assertThat(all.maxRequestLine()).as("code value when nobody else sets it").isEqualTo(4096);

        ServerOptions noSys = options(env, new Properties(), file);
        assertThat(noSys.maxBodySize()).isEqualTo(2 * 1024);

        ServerOptions fileOnly = options(Map.of(), new Properties(), file);
        assertThat(fileOnly.maxBodySize()).isEqualTo(1024);
        assertThat(fileOnly.maxHeaders()).isEqualTo(50);

        ServerOptions none = options(Map.of(), new Properties(), new Properties());
        assertThat(none.maxBodySize()).isEqualTo(ServerOptions.DEFAULT_MAX_BODY_SIZE);
        assertThat(none.backlog()).isEqualTo(500);
    }

    /** The resolved options of an app that is declared, not started. */
    private static ServerOptions options(Map<String, String> env, Properties sys, Properties file) {
        Brisk app = Brisk.create(cfg -> {
            cfg.configSource(ConfigSource.of(env, sys, file));
            cfg.options().backlog(500).maxRequestLine(4096);
        });
        try {
            return app.options();
        } finally {
            app.close();
        }
    }

    @Test
    void sourceIsCopiedWhenCreated() {
        Properties sys = props("brisk.max-headers", "10");
        ConfigSource source = ConfigSource.of(Map.of(), sys, new Properties());
        sys.setProperty("brisk.max-headers", "20");
        assertThat(source.get("max-headers")).hasValue("10");
    }

    @Test
    void valuesAreParsedWithUnits() {
        ConfigSource s = ConfigSource.of(Map.of("BRISK_IDLE_TIMEOUT", "2m", "BRISK_MAX_BODY_SIZE", " 3MiB ",
                "BRISK_DISPATCH", "worker-pool"), new Properties(), new Properties());
        Brisk app = Brisk.create(cfg -> cfg.configSource(s));
        try {
            assertThat(app.options().idleTimeout()).isEqualTo(Duration.ofMinutes(2));
            assertThat(app.options().maxBodySize()).isEqualTo(3L * 1024 * 1024);
            assertThat(app.options().dispatch()).isEqualTo(Dispatch.WORKER_POOL);
        } finally {
            app.close();
        }
    }

    @Test
    void invalidValueFailsAtCreateNamingTheOption() {
        ConfigSource bad = ConfigSource.of(Map.of("BRISK_MAX_BODY_SIZE", "lots"), new Properties(), new Properties());
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.configSource(bad)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-body-size")
                .hasMessageContaining("BRISK_MAX_BODY_SIZE");

        ConfigSource outOfRange = ConfigSource.of(Map.of("BRISK_PORT", "70000"), new Properties(), new Properties());
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.configSource(outOfRange)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port");
    }

    @Test
    void dispatchFromTheEnvironmentIsUsed() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.configSource(ConfigSource.of(Map.of("BRISK_DISPATCH", "event-loop"), new Properties(), new Properties()));
            cfg.get("/t", ctx -> ctx.text(Thread.currentThread().getName()));
        })) {
            assertThat(s.get("/t").body()).startsWith("brisk-io-");
        }
    }

    @Test
    void emptySourceKeepsTheCodeValues() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.options().maxBodySize(8);
            cfg.post("/upload", ctx -> ctx.text("got " + ctx.body().length));
        })) {
            assertThat(s.post("/upload", "text/plain", "12345678").body()).isEqualTo("got 8");
            assertThat(s.post("/upload", "text/plain", "123456789").statusCode()).isEqualTo(413);
        }
    }

    @Test
    void aNegativeRouteBodyLimitIsRefusedWhereItIsDeclared() {
        assertThatThrownBy(() -> Brisk.create(cfg -> cfg.post("/upload", ctx -> { }).maxBodySize(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBodySize");
    }

    @Test
    void theBodyOptionsComeFromTheEnvironment() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> cfg.configSource(ConfigSource.of(Map.of(
                "BRISK_BODY_MEMORY_BUDGET", "8MiB", "BRISK_BODY_SPOOL_THRESHOLD", "64KiB",
                "BRISK_BODY_SPOOL_DISK", "0", "BRISK_BODY_SPOOL_DIR", "/var/tmp"), new Properties(), new Properties())))) {
            ServerOptions o = s.app().options();
            assertThat(o.bodyMemoryBudget()).isEqualTo(8L << 20);
            assertThat(o.bodySpoolThreshold()).isEqualTo(64L << 10);
            assertThat(o.bodySpoolDisk()).isZero();
            assertThat(o.bodySpoolDir()).isEqualTo("/var/tmp");
        }
    }

    @Test
    void configurationIsFrozenAfterCreate() {
        BriskConfig[] holder = new BriskConfig[1];
        Brisk app = Brisk.create(cfg -> holder[0] = cfg);
        try {
            assertThatThrownBy(() -> holder[0].get("/late", ctx -> { })).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> holder[0].port(1234)).isInstanceOf(IllegalStateException.class);
        } finally {
            app.close();
        }
    }
}
