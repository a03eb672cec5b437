package dev.brisk.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Brisk;
import dev.brisk.TlsInfo;
import dev.brisk.testing.Engine;
import dev.brisk.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 17: the server as {@code openssl s_client} sees it: ALPN, SNI, TLS 1.1 refused with a
 * protocol_version alert, a client that does not trust the certificate, a TLS 1.3 key update. {@code .ci/run} installs
 * openssl; without it (a developer's machine) these are skipped, and {@code BRISK_REQUIRE_OPENSSL=1}
 * makes that a failure.
 */
class TlsOpensslTest {
    private static TestKeys.Key server;
    private static TestKeys.Key other;
    private static Brisk app;

    @BeforeAll
    static void start() throws Exception {
        boolean have = Tools.onPath("openssl");
        if (!have && "1".equals(System.getenv("BRISK_REQUIRE_OPENSSL"))) {
            throw new AssertionError("openssl is required (BRISK_REQUIRE_OPENSSL=1) but not on the PATH");
        }
        assumeTrue(have, "openssl is not installed");
        TestKeys.Shared keys = TestKeys.shared();
        server = keys.server();
        other = keys.other();
        app = Brisk.create(cfg -> {
            cfg.options().port(0).host("127.0.0.1").tlsPem(server.certPem(), server.keyPem())
                    .shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/tls", ctx -> {
                TlsInfo t = ctx.tls();
                ctx.text(t.protocol() + " " + t.serverName() + " " + t.applicationProtocol());
            });
        }).start();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** Runs s_client with {@code args}, sending {@code input}; its whole output. */
    private static String sClient(String input, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + app.port()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private static final String GET_TLS = "GET /tls HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

    @Test
    void alpnAndSniAsTheServerSeesThem() throws Exception {
        String out = sClient(GET_TLS, "-alpn", "http/1.1", "-servername", "shop.example.test",
                "-CAfile", server.certPem().toString(), "-verify_return_error", "-ign_eof");
        assertThat(out).contains("ALPN protocol: http/1.1").contains("Verify return code: 0 (ok)")
                .contains("TLSv1.3 shop.example.test http/1.1");
    }

    @Test
    void alpnPrefersH2() throws Exception {
        String out = sClient("", "-alpn", "http/1.1,h2", "-CAfile", server.certPem().toString());
        assertThat(out).contains("ALPN protocol: h2");
    }

    /**
     * TLS 1.2 without forward secrecy or AEAD (a CBC suite here) is not negotiated at all: RFC 9113 9.2.2
     * prohibits it for h2, which a client offering only it got before; an AEAD suite gets h2.
     */
    @Test
    void tls12SuitesWithoutAeadAreNotNegotiated() throws Exception {
        String cbc = sClient("", "-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384", "-alpn", "h2,http/1.1");
        assertThat(cbc).doesNotContain("ALPN protocol: h2").containsIgnoringCase("handshake failure");
        String gcm = sClient("", "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-alpn", "h2,http/1.1");
        assertThat(gcm).contains("ALPN protocol: h2").contains("ECDHE-ECDSA-AES128-GCM-SHA256");
    }

    @Test
    void onlyUnknownProtocolsOfferedIsRefusedWithNoApplicationProtocol() throws Exception {
        String out = sClient("", "-alpn", "spdy/3.1", "-CAfile", server.certPem().toString());
        assertThat(out).containsIgnoringCase("no application protocol");
    }

    @Test
    void tls11IsRefusedWithAProtocolVersionAlert() throws Exception {
        String out = sClient("", "-tls1_1");
        assertThat(out).containsIgnoringCase("alert protocol version");
        assertThat(out).doesNotContain("TLSv1.1 shop");
    }

    /**
     * A TLS 1.3 {@code KeyUpdate} asking for the server's (RFC 8446 4.6.3), between two requests on one
     * connection: the server answers with its own key update (s_client's {@code -msg} shows it received)
     * and the second request, encrypted under the client's new keys, is answered under the server's.
     * s_client takes its {@code K} command only as the first byte of what it reads from its input at
     * once, so the input goes in three pieces, each after the output it waits for.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "BLOCKING_VIRTUAL", "URING"})
    void aKeyUpdateInTheMiddleOfAConnectionIsAnsweredAndTheConnectionGoesOn(Engine engine) throws Exception {
        try (Brisk a = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").tlsPem(server.certPem(), server.keyPem())
                    .shutdownTimeout(Duration.ofSeconds(1));
            cfg.get("/n", ctx -> ctx.text("answer-" + ctx.queryParam("i")));
        }).start()) {
            Process p = new ProcessBuilder("openssl", "s_client", "-connect", "127.0.0.1:" + a.port(), "-tls1_3",
                    "-alpn", "http/1.1", "-msg").redirectErrorStream(true).start();
            try {
                Output out = new Output(p.getInputStream());
                OutputStream in = p.getOutputStream();
                in.write("GET /n?i=1 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
                out.await("answer-1");
                int before = out.count("KeyUpdate");
                in.write("K\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
                out.awaitCount("KeyUpdate", before + 2); // ours sent (>>>), the server's received (<<<)
                in.write("GET /n?i=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
                out.await("answer-2");
                String text = out.text();
                assertThat(text).as("s_client's output").containsPattern("<<< TLS 1.3, Handshake \\[length [0-9a-f]+\\], KeyUpdate")
                        .doesNotContain("fatal"); // close_notify, a warning, ends the connection
            } finally {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** What a process prints, read on a thread of its own, with waits for what is expected (20 s at most). */
    private static final class Output {
        private final ByteArrayOutputStream got = new ByteArrayOutputStream();

        Output(InputStream from) {
            Thread.ofPlatform().daemon().start(() -> {
                byte[] b = new byte[4096];
                try {
                    for (int n; (n = from.read(b)) > 0; ) {
                        synchronized (got) {
                            got.write(b, 0, n);
                            got.notifyAll();
                        }
                    }
                } catch (java.io.IOException e) {
                    // the process ended: what it printed is kept
                }
            });
        }

        String text() {
            synchronized (got) {
                return got.toString(StandardCharsets.ISO_8859_1);
            }
        }

        int count(String what) {
            String t = text();
            int n = 0;
            for (int i = t.indexOf(what); i >= 0; i = t.indexOf(what, i + 1)) {
                n++;
            }
            return n;
        }

        void await(String what) throws InterruptedException {
            awaitCount(what, 1);
        }

        void awaitCount(String what, int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            synchronized (got) {
                while (count(what) < n) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        throw new AssertionError("no " + n + " × \"" + what + "\" within 20 s; output:\n" + text());
                    }
                    got.wait(left);
                }
            }
        }
    }

    @Test
    void aClientThatTrustsAnotherCertificateFailsVerification() throws Exception {
        String out = sClient("", "-CAfile", other.certPem().toString(), "-verify_return_error");
        assertThat(out).contains("verify error");
    }
}
