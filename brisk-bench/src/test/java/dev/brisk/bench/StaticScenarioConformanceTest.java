package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The harness's static scenarios ({@code static-1k}, {@code static-1m}, {@code static-gzip}) ask every
 * server with a static-file handler for the same files: each must answer them whole, and gzip the
 * JSON file when asked, so the comparison is of equal work.
 */
class StaticScenarioConformanceTest {
    @TempDir
    static Path dir;
    static byte[] small;
    static byte[] big;
    static byte[] json;

    static Stream<String> servers() {
        return Stream.of("brisk-event-loop", "brisk-virtual-threads", "netty", "jetty", "undertow", "vertx");
    }

    @BeforeAll
    static void files() throws Exception {
        small = "a".repeat(1024).getBytes(StandardCharsets.US_ASCII);
        big = new byte[1 << 20];
        new Random(7).nextBytes(big);
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; b.length() < 100_000; i++) {
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"name\":\"event ").append(i).append("\"}");
        }
        json = b.append(']').toString().getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("1k.txt"), small);
        Files.write(dir.resolve("1m.bin"), big);
        Files.write(dir.resolve("data.json"), json);
        System.setProperty("bench.static.dir", dir.toString());
    }

    @AfterAll
    static void clear() {
        System.clearProperty("bench.static.dir");
    }

    @ParameterizedTest
    @MethodSource("servers")
    void servesTheStaticFiles(String name) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (BenchServer server = ServerMain.server(name).get();
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            server.start(port);
            String base = "http://127.0.0.1:" + port + "/static/";
            HttpResponse<byte[]> k = client.send(HttpRequest.newBuilder(URI.create(base + "1k.txt"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(k.statusCode()).isEqualTo(200);
            assertThat(k.body()).isEqualTo(small);

            HttpResponse<byte[]> m = client.send(HttpRequest.newBuilder(URI.create(base + "1m.bin"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(m.statusCode()).isEqualTo(200);
            assertThat(m.body()).isEqualTo(big);

            HttpResponse<byte[]> z = client.send(HttpRequest.newBuilder(URI.create(base + "data.json"))
                    .header("Accept-Encoding", "gzip").timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(z.statusCode()).isEqualTo(200);
            assertThat(z.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(z.body().length).as("compressed").isLessThan(json.length / 2);
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(z.body()))) {
                assertThat(in.readAllBytes()).isEqualTo(json);
            }
        }
    }
}
