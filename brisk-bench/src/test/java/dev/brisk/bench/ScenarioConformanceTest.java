package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every server in the harness answers every scenario the same way, so the benchmark compares equal work. */
class ScenarioConformanceTest {

    static Stream<String> servers() {
        return ServerMain.names().stream();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void answersEveryScenario(String name) throws Exception {
        int port = freePort();
        try (BenchServer server = ServerMain.server(name).get();
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            server.start(port);
            String base = "http://127.0.0.1:" + port;

            HttpResponse<String> hello = get(client, base + "/hello");
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("Hello, World!");
            assertThat(hello.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");

            HttpResponse<String> json = get(client, base + "/json");
            assertThat(json.statusCode()).isEqualTo(200);
            assertThat(json.body().replace(" ", "")).isEqualTo("{\"message\":\"Hello,World!\"}");
            assertThat(json.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");

            HttpResponse<String> user = get(client, base + "/users/42?active=true");
            assertThat(user.statusCode()).isEqualTo(200);
            assertThat(user.body()).isEqualTo("42");

            String body = "x".repeat(1024);
            HttpResponse<String> echo = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                    .timeout(Duration.ofSeconds(5)).header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(echo.statusCode()).isEqualTo(200);
            assertThat(echo.body()).isEqualTo(body);
            assertThat(echo.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");

            HttpResponse<String> consume = client.send(HttpRequest.newBuilder(URI.create(base + "/consume"))
                    .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(consume.statusCode()).isEqualTo(204);
            assertThat(consume.body()).isEmpty();

            HttpResponse<String> health = get(client, base + "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("OK");
        }
    }

    private static HttpResponse<String> get(HttpClient client, String uri) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
