package dev.brisk.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.ClientAuth;
import dev.brisk.Dispatch;
import dev.brisk.TlsInfo;
import dev.brisk.testing.Engine;
import dev.brisk.testing.Within;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 17, TLS: HTTPS on every engine with PEM files or a PKCS#12 key store, what the handshake
 * settled visible to the app, a plain port beside the TLS one, and the hostile cases (a client that
 * never finishes its handshake, plaintext on the TLS port, a renegotiation) closed cleanly and counted.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class TlsTest {
    static Path dir;
    static TestKeys.Key server;
    static TestKeys.Key other;
    static TestKeys.Key client;

    @Parameter
    Engine engine;

    private Brisk app;

    @BeforeAll
    static void keys() throws Exception {
        TestKeys.Shared keys = TestKeys.shared();
        dir = keys.dir();
        server = keys.server();
        other = keys.other();
        client = keys.client();
    }

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    private Brisk start(Consumer<BriskConfig> options) {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            options.accept(cfg);
            cfg.get("/hello", ctx -> ctx.text("hello"));
            cfg.post("/echo", ctx -> ctx.bytes(ctx.body())).maxBodySize(8 << 20);
            cfg.get("/tls", ctx -> {
                TlsInfo t = ctx.tls();
                ctx.text(t == null ? "plain" : t.protocol() + " " + t.serverName() + " " + t.applicationProtocol()
                        + " " + t.peerCertificates().size());
            });
        }).start();
        return app;
    }

    /** A 413 the engine gives before any middleware runs carries the route's CORS headers over HTTP/2 too. */
    @Test
    void theEnginesRefusalsCarryCorsHeadersOverHttp2() throws Exception {
        dev.brisk.Cors cors = dev.brisk.Cors.builder().allowOrigin("https://example.com").build();
        start(cfg -> {
            cfg.options().tlsPem(server.certPem(), server.keyPem());
            cfg.group("/api", g -> {
                g.use(cors);
                g.post("/notes", ctx -> ctx.text("noted")).maxBodySize(100);
            });
        });
        HttpResponse<String> r = https(server.trustingContext(), HttpClient.Version.HTTP_2).send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/api/notes"))
                        .timeout(Duration.ofSeconds(10)).header("Origin", "https://example.com")
                        .POST(HttpRequest.BodyPublishers.ofString("x".repeat(200))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.headers().firstValue("access-control-allow-origin")).hasValue("https://example.com");
        assertThat(r.headers().allValues("vary")).containsExactly("Origin");
        assertThat(r.body()).isEqualTo("Request body is larger than 100 bytes\n");
    }

    /** Over HTTP/2 as over HTTP/1.1, the engine's refusal of a request with a whole head follows its {@code Accept}. */
    @Test
    void anEngineRefusalOverHttp2IsJsonWhenTheClientAsksForIt() throws Exception {
        start(cfg -> {
            cfg.options().tlsPem(server.certPem(), server.keyPem());
            cfg.post("/small", ctx -> ctx.text("noted")).maxBodySize(100);
        });
        HttpResponse<String> r = https(server.trustingContext(), HttpClient.Version.HTTP_2).send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/small"))
                        .timeout(Duration.ofSeconds(10)).header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("x".repeat(200))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo(
                "{\"status\":413,\"error\":\"Content Too Large\",\"message\":\"Request body is larger than 100 bytes\"}");
    }

    private Brisk startPem() {
        return start(cfg -> cfg.options().tlsPem(server.certPem(), server.keyPem()));
    }

    private static HttpClient https(SSLContext ctx, HttpClient.Version version) {
        return HttpClient.newBuilder().sslContext(ctx).version(version).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpResponse<String> get(HttpClient c, String url) throws Exception {
        return c.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private SSLSocket socket(SSLContext ctx, String... protocols) throws IOException {
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket();
        s.connect(new InetSocketAddress("127.0.0.1", app.port()), 5_000);
        s.setSoTimeout(10_000);
        SSLParameters p = s.getSSLParameters();
        p.setServerNames(List.of(new SNIHostName("localhost")));
        if (protocols.length > 0) {
            p.setProtocols(protocols);
        }
        s.setSSLParameters(p);
        return s;
    }

    /** Reads one response with a Content-Length body from {@code in}, as text. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            String h = head.toString(StandardCharsets.ISO_8859_1);
            if (h.endsWith("\r\n\r\n")) {
                int at = h.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
                int len = Integer.parseInt(h.substring(at + 16, h.indexOf("\r\n", at)).trim());
                return h + new String(in.readNBytes(len), StandardCharsets.ISO_8859_1);
            }
        }
        throw new IOException("the connection ended before a whole head: " + head);
    }

    @Test
    void httpsWithPemFilesServesRequestsAndTellsTheAppAboutTheHandshake() throws Exception {
        startPem();
        HttpClient c = https(server.trustingContext(), HttpClient.Version.HTTP_2);
        HttpResponse<String> r = get(c, "https://localhost:" + app.port() + "/hello");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("hello");
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2); // h2 agreed by ALPN
        assertThat(get(c, "https://localhost:" + app.port() + "/tls").body()).isEqualTo("TLSv1.3 localhost h2 0");
        assertThat(app.metrics().tlsHandshakes()).isGreaterThanOrEqualTo(1);
        assertThat(app.metrics().tlsHandshakeFailures()).isZero();
    }

    @Test
    void aPkcs12KeyStoreServesToo() throws Exception {
        start(cfg -> cfg.options().tlsKeyStore(server.p12(), TestKeys.PASSWORD));
        HttpResponse<String> r = get(https(server.trustingContext(), HttpClient.Version.HTTP_1_1),
                "https://localhost:" + app.port() + "/hello");
        assertThat(r.body()).isEqualTo("hello");
    }

    @Test
    void largeBodiesCrossManyRecordsBothWaysOnOneKeepAliveConnection() throws Exception {
        startPem();
        HttpClient c = https(server.trustingContext(), HttpClient.Version.HTTP_1_1);
        byte[] body = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(body);
        for (int i = 0; i < 3; i++) {
            HttpResponse<byte[]> r = c.send(HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/echo"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(body);
        }
        assertThat(app.metrics().tlsHandshakes()).as("one connection, kept alive").isEqualTo(1);
    }

    @Test
    void aStaticFileGoesThroughTheTlsWireInPieces() throws Exception {
        Path web = dir.resolve(engine + "-web");
        Files.createDirectories(web);
        byte[] big = new byte[1024 * 1024 + 3];
        new java.util.Random(11).nextBytes(big);
        Files.write(web.resolve("big.bin"), big);
        start(cfg -> {
            cfg.options().tlsPem(server.certPem(), server.keyPem());
            cfg.staticFiles("/static", dev.brisk.StaticFiles.directory(web));
        });
        HttpResponse<byte[]> r = https(server.trustingContext(), HttpClient.Version.HTTP_1_1).send(
                HttpRequest.newBuilder(URI.create("https://localhost:" + app.port() + "/static/big.bin")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(big);
    }

    @Test
    void tls12WorksAndTheSniNameReachesTheApp() throws Exception {
        startPem();
        try (SSLSocket s = socket(server.trustingContext(), "TLSv1.2")) {
            SSLParameters p = s.getSSLParameters();
            p.setServerNames(List.of(new SNIHostName("api.example.test")));
            s.setSSLParameters(p);
            s.getOutputStream().write("GET /tls HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(s.getInputStream())).endsWith("TLSv1.2 api.example.test null 0");
        }
    }

    @Test
    void closingSendsCloseNotify() throws Exception {
        startPem();
        try (SSLSocket s = socket(server.trustingContext())) {
            s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            assertThat(readResponse(in)).endsWith("hello");
            // without close_notify first, the JDK's SSLSocket throws here ("closing inbound before receiving
            // peer's close_notify"); with it, the stream simply ends
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /**
     * A drain over TLS: requests that arrived while a handler held the connection's thread (a blocking
     * engine's, or the loop with event-loop dispatch) are read when the drain is seen, through the TLS
     * wire, without waiting for more records, and answered; only the last answer says close.
     */
    @Test
    void requestsArrivingWhileAHandlerHoldsTheThreadAreAnsweredInADrain() throws Exception {
        // io_uring's listener is closed by its loop, which the handler holds: the drain could not be seen begin
        Assumptions.assumeTrue(engine != Engine.URING, "not io_uring");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(cfg -> {
            cfg.options().tlsPem(server.certPem(), server.keyPem()).shutdownTimeout(Duration.ofSeconds(20));
            cfg.get("/wait", ctx -> {
                entered.countDown();
                release.await(5, TimeUnit.SECONDS);
                ctx.text("done");
            }).dispatch(Dispatch.EVENT_LOOP);
        });
        int port = app.port();
        Thread closer = new Thread(app::close, "test-closer");
        try (SSLSocket s = socket(server.trustingContext())) {
            s.setTcpNoDelay(true); // each record goes out as written
            OutputStream out = s.getOutputStream();
            out.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            out.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)); // a record each
            out.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            closer.start();
            assertThat(Within.within(5_000, () -> Within.refused(port))).as("the drain began").isTrue();
            release.countDown();
            InputStream in = s.getInputStream();
            String first = readResponse(in);
            assertThat(first).endsWith("done").doesNotContainIgnoringCase("connection: close");
            assertThat(readResponse(in)).endsWith("hello").doesNotContainIgnoringCase("connection: close");
            assertThat(readResponse(in)).endsWith("hello").containsIgnoringCase("connection: close");
            assertThat(in.read()).isEqualTo(-1);
        } finally {
            release.countDown();
            closer.join(5_000);
        }
        assertThat(closer.isAlive()).isFalse();
    }

    /**
     * A connection that ends after its answer (the request said {@code Connection: close}, or the client
     * half-closed with its own {@code close_notify}) sends the whole answer and then {@code close_notify}
     * before the socket closes, even when the socket had not taken the last records yet (io_uring's
     * send in flight, a full send buffer): no truncated body, no bare end of stream.
     */
    @Test
    void aConnectionEndingAfterALargeAnswerSendsAllOfItThenCloseNotify() throws Exception {
        byte[] big = new byte[300_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        start(cfg -> {
            cfg.options().tlsPem(server.certPem(), server.keyPem());
            cfg.get("/big", ctx -> ctx.bytes(big));
        });
        for (int round = 0; round < 3; round++) {
            for (boolean halfClose : new boolean[] {false, true}) {
                try (SSLSocket s = socket(server.trustingContext(), "TLSv1.3")) {
                    s.getOutputStream().write(("GET /big HTTP/1.1\r\nHost: x\r\n"
                            + (halfClose ? "" : "Connection: close\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    if (halfClose) {
                        s.shutdownOutput(); // TLS 1.3: close_notify, and the client reads on
                    }
                    InputStream in = s.getInputStream();
                    String r = readResponse(in);
                    assertThat(r.substring(r.indexOf("\r\n\r\n") + 4)).as("the body").hasSize(big.length)
                            .isEqualTo(new String(big, StandardCharsets.ISO_8859_1));
                    // a bare end of stream without close_notify throws here (SSLException)
                    assertThat(in.read()).as("the end, after close_notify").isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void aRenegotiationIsRefused() throws Exception {
        startPem();
        try (SSLSocket s = socket(server.trustingContext(), "TLSv1.2")) {
            OutputStream out = s.getOutputStream();
            out.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(s.getInputStream())).endsWith("hello");
            long failed = app.metrics().tlsHandshakeFailures();
            assertThatThrownBy(() -> {
                s.startHandshake(); // a renegotiation
                out.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                readResponse(s.getInputStream());
            }).isInstanceOf(IOException.class);
            assertThat(Wait.until(Duration.ofSeconds(5), () -> app.metrics().tlsHandshakeFailures() == failed + 1)).isTrue();
        }
    }

    @Test
    void aClientThatNeverFinishesItsHandshakeIsClosedAtTheDeadlineAndCounted() throws Exception {
        start(cfg -> cfg.options().tlsPem(server.certPem(), server.keyPem()).tlsHandshakeTimeout(Duration.ofMillis(300)));
        try (Socket raw = new Socket("127.0.0.1", app.port())) {
            raw.setSoTimeout(5_000);
            long t0 = System.nanoTime();
            byte[] answer = raw.getInputStream().readAllBytes();
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(250L, 3_000L);
            // alert records only (content type 21, 7 bytes each) before the end: user_canceled, then the
            // close_notify that RFC 8446 6.1 says should follow it
            assertThat(answer.length).isLessThanOrEqualTo(14).matches(n -> n % 7 == 0, "whole records");
            for (int at = 0; at < answer.length; at += 7) {
                assertThat(answer[at]).as("record at " + at).isEqualTo((byte) 21);
            }
            if (answer.length > 0) {
                assertThat(answer[answer.length - 1]).as("the last alert: close_notify").isEqualTo((byte) 0);
            }
        }
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.metrics().tlsHandshakeFailures() == 1)).isTrue();
        assertThat(app.metrics().connectionsTimedOut()).isEqualTo(1);
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.connectionCount() == 0)).isTrue();
    }

    @Test
    void plainHttpOnTheTlsPortGetsA400InTheClearThenTheEnd() throws Exception {
        startPem();
        try (Socket raw = new Socket("127.0.0.1", app.port())) {
            raw.setSoTimeout(5_000);
            raw.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // then more, as a client that has not read the answer yet would send: dropped, not a reset
            raw.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            long t0 = System.nanoTime();
            String answer = new String(raw.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("Connection: close\r\n")
                    .endsWith("\r\n\r\nThis port speaks HTTPS: the request was sent as plain HTTP. Use an https:// URL.\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("the end follows the answer").isLessThan(3_000);
        }
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.metrics().tlsHandshakeFailures() == 1)).isTrue();
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.connectionCount() == 0)).isTrue();
        assertThat(app.metrics().requests()).as("nothing reached HTTP").isZero();
        // an HTTP client given the wrong scheme reads the answer too
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> r = get(plain, "http://127.0.0.1:" + app.port() + "/hello");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("This port speaks HTTPS");
        // the port still speaks TLS
        HttpClient tls = https(server.trustingContext(), HttpClient.Version.HTTP_1_1);
        assertThat(get(tls, "https://localhost:" + app.port() + "/tls").statusCode()).isEqualTo(200);
    }

    @Test
    void plainHttpOnTheTlsPortIsDrainedOnlyUpToItsBound() throws Exception {
        start(cfg -> cfg.options().tlsPem(server.certPem(), server.keyPem()).tlsHandshakeTimeout(Duration.ofSeconds(30)));
        try (Socket raw = new Socket("127.0.0.1", app.port())) {
            raw.setSoTimeout(10_000);
            // a request, then more than the 64 KiB the refusal drops before it gives up on the client
            byte[] req = ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            long t0 = System.nanoTime();
            OutputStream out = raw.getOutputStream();
            out.write(req);
            String answer;
            try {
                out.write(new byte[100 * 1024]);
            } catch (IOException cutOff) {
                // closed past its byte bound while this was still writing: the answer is read all the same
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                raw.getInputStream().transferTo(got);
            } catch (IOException reset) {
                // a reset after the bound; what arrived before it is the answer
            }
            answer = got.toString(StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400 Bad Request\r\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("ended at the byte bound, not the 2 s time bound")
                    .isLessThan(1_500);
        }
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.connectionCount() == 0)).isTrue();
    }

    @Test
    void plaintextThatIsNotHttpOnTheTlsPortIsClosedAndCounted() throws Exception {
        startPem();
        try (Socket raw = new Socket("127.0.0.1", app.port())) {
            raw.setSoTimeout(5_000);
            raw.getOutputStream().write("hello?\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] answer = raw.getInputStream().readAllBytes(); // at most an alert record, then the end
            assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("HTTP/1.1");
        }
        assertThat(Wait.until(Duration.ofSeconds(5), () -> app.metrics().tlsHandshakeFailures() == 1)).isTrue();
        assertThat(app.metrics().requests()).as("nothing reached HTTP").isZero();
    }

    @Test
    void aPlainPortServesBesideTheTlsPort() throws Exception {
        start(cfg -> cfg.options().tlsPem(server.certPem(), server.keyPem()).plainPort(0));
        assertThat(app.plainPort()).isPositive().isNotEqualTo(app.port());
        HttpClient plain = HttpClient.newHttpClient();
        assertThat(get(plain, "http://127.0.0.1:" + app.plainPort() + "/tls").body()).isEqualTo("plain");
        HttpClient tls = https(server.trustingContext(), HttpClient.Version.HTTP_1_1);
        assertThat(get(tls, "https://localhost:" + app.port() + "/tls").body()).startsWith("TLSv1.3 localhost");
    }

    @Test
    void clientCertificatesWhenNeeded() throws Exception {
        start(cfg -> cfg.options().tlsPem(server.certPem(), server.keyPem()).tlsClientAuth(ClientAuth.NEED)
                .tlsTrust(client.certPem()));
        HttpClient with = https(TestKeys.context(client, server), HttpClient.Version.HTTP_1_1);
        // an HTTP/1.1-only HttpClient offers no ALPN
        assertThat(get(with, "https://localhost:" + app.port() + "/tls").body()).isEqualTo("TLSv1.3 localhost null 1");
        HttpClient without = https(server.trustingContext(), HttpClient.Version.HTTP_1_1);
        assertThatThrownBy(() -> get(without, "https://localhost:" + app.port() + "/tls")).isInstanceOf(IOException.class);
        HttpClient untrusted = https(TestKeys.context(other, server), HttpClient.Version.HTTP_1_1);
        assertThatThrownBy(() -> get(untrusted, "https://localhost:" + app.port() + "/tls")).isInstanceOf(IOException.class);
    }

    @Test
    void changedKeyFilesAreUsedByNewConnectionsWhileOpenOnesGoOn() throws Exception {
        Path cert = dir.resolve(engine + "-live-cert.pem");
        Path key = dir.resolve(engine + "-live-key.pem");
        Files.copy(server.certPem(), cert, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(server.keyPem(), key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        start(cfg -> cfg.options().tlsPem(cert, key).tlsReloadInterval(Duration.ofMillis(50)));
        SSLContext trustsBoth = TestKeys.context(null, server);
        try (SSLSocket open = socket(trustsBoth)) {
            open.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(open.getInputStream())).endsWith("hello");
            assertThat(serial(open)).isEqualTo(server.cert().getSerialNumber());

            // the renewed certificate: written to temporary files, then moved into place
            Path newCert = dir.resolve(engine + "-new-cert.pem");
            Path newKey = dir.resolve(engine + "-new-key.pem");
            Files.copy(other.certPem(), newCert, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(other.keyPem(), newKey, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(newKey, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.move(newCert, cert, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

            // the watcher sees it with no connection arriving: the first one after it gets the new key
            assertThat(Wait.until(Duration.ofSeconds(10), () -> app.metrics().tlsReloads() == 1))
                    .as("reloaded without a connection").isTrue();
            SSLContext trustsOther = TestKeys.context(null, other);
            try (SSLSocket s = socket(trustsOther)) {
                s.startHandshake();
                assertThat(serial(s)).as("the first new connection").isEqualTo(other.cert().getSerialNumber());
            }

            // a half-written key: counted once, logged once, the key in use stays (the two moves above may
            // have been seen between them, a failure of their own: counted from here)
            long failed = app.metrics().tlsReloadFailures();
            Path half = dir.resolve(engine + "-half-key.pem");
            Files.writeString(half, "-----BEGIN PRIVATE KEY-----\nAAAA\n");
            Files.move(half, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            assertThat(Wait.until(Duration.ofSeconds(10), () -> app.metrics().tlsReloadFailures() == failed + 1)).isTrue();
            try (SSLSocket s = socket(trustsOther)) {
                s.startHandshake();
                assertThat(serial(s)).isEqualTo(other.cert().getSerialNumber());
            }
            assertThat(app.metrics().tlsReloads()).isEqualTo(1);

            // the connection opened before goes on with its own
            open.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(open.getInputStream())).endsWith("hello");
        }
    }

    private static java.math.BigInteger serial(SSLSocket s) throws SSLException {
        return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
}
