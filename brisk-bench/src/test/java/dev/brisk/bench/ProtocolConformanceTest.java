package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The servers the harness runs on its HTTP/2 and TLS scenarios speak those protocols for real, with the
 * same answers: h2c with prior knowledge on the plain port ({@code curl --http2-prior-knowledge}), h2 and
 * HTTP/1.1 over TLS by ALPN on the TLS port (the JDK {@code HttpClient}, trusting the run's throwaway key),
 * and HTTP/1.1 still on the plain port beside them.
 */
class ProtocolConformanceTest {
    @TempDir
    static Path keys;
    private static BenchTls key;
    private static SSLContext trusting;

    @BeforeAll
    static void makeKey() throws Exception {
        key = BenchTls.create(keys);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(key.keyStore());
        trusting = SSLContext.getInstance("TLS");
        trusting.init(null, tmf.getTrustManagers(), null);
    }

    static Stream<String> http2Servers() {
        // a server that cannot run here (io_uring unavailable) is ScenarioConformanceTest's to report
        return ServerMain.h2cNames().stream().filter(name -> ServerMain.unavailable(name).isEmpty());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void theKeyIsWrittenInBothForms() throws Exception {
        assertThat(Files.readString(key.certPem())).startsWith("-----BEGIN CERTIFICATE-----\n");
        assertThat(Files.readString(key.keyPem())).startsWith("-----BEGIN PRIVATE KEY-----\n");
        assertThat(key.chain()).hasSize(1);
        assertThat(key.chain().getFirst().getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(key.privateKey().getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void everyHttp2ServerSpeaksTlsAndTheOthersRefuseIt() throws Exception {
        assertThat(ServerMain.tlsNames()).containsExactlyInAnyOrderElementsOf(ServerMain.h2cNames());
        assertThat(ServerMain.names()).containsAll(ServerMain.h2cNames());
        for (String other : ServerMain.names()) {
            if (!ServerMain.tlsNames().contains(other)) {
                BenchServer server = ServerMain.server(other).get();
                assertThatThrownBy(() -> server.start(freePort(), new BenchTls(freePort(), keys)))
                        .as(other + " has no TLS listener").isInstanceOf(UnsupportedOperationException.class);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("http2Servers")
    void servesH2cH2AndHttp11OverTls(String name) throws Exception {
        int port = freePort();
        BenchTls tls = new BenchTls(freePort(), keys);
        try (BenchServer server = ServerMain.server(name).get();
             HttpClient client = HttpClient.newBuilder().sslContext(trusting)
                     .connectTimeout(Duration.ofSeconds(5)).build()) {
            server.start(port, tls);
            String https = "https://127.0.0.1:" + tls.port();

            HttpResponse<String> h2 = send(client, HttpClient.Version.HTTP_2, https + "/hello");
            assertThat(h2.version()).as("ALPN h2").isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(h2.statusCode()).isEqualTo(200);
            assertThat(h2.body()).isEqualTo("Hello, World!");
            assertThat(h2.headers().firstValue("content-type").orElse("")).startsWith("text/plain");

            HttpResponse<String> h1 = send(client, HttpClient.Version.HTTP_1_1, https + "/users/42?active=true");
            assertThat(h1.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(h1.body()).isEqualTo("42");

            if (onPath("curl")) {
                String http = "http://127.0.0.1:" + port;
                assertThat(curl("--http2-prior-knowledge", http + "/hello")).isEqualTo("Hello, World!\n2");
                assertThat(curl("--http2-prior-knowledge", http + "/users/7")).isEqualTo("7\n2");
                assertThat(curl("--http1.1", http + "/hello")).isEqualTo("Hello, World!\n1.1");
            }
        }
    }

    @Test
    void curlIsHereForTheH2cChecks() {
        // the h2c half of servesH2cH2AndHttp11OverTls needs curl; .ci/run installs it
        assumeTrue(System.getenv("CI") != null, "outside CI curl is optional");
        assertThat(onPath("curl")).as("curl on the PATH").isTrue();
    }

    private static HttpResponse<String> send(HttpClient client, HttpClient.Version version, String uri) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).version(version).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** {@code curl -sS --max-time 10 args... -w "\n%{http_version}"}: the body, a newline, the HTTP version. */
    private static String curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "-w", "\n%{http_version}"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(15, TimeUnit.SECONDS)).as("curl finished").isTrue();
        assertThat(p.exitValue()).as("curl exit status; output: " + out).isZero();
        return out;
    }
}
