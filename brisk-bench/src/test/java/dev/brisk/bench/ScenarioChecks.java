package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The checks every harness server must pass (see {@link BenchServer}), against a server already
 * listening on 127.0.0.1; shared with brisk-bench-spark's test through this module's test jar.
 */
public final class ScenarioChecks {
    private ScenarioChecks() {
    }

    /** Every scenario's route answers as {@link BenchServer} says, over HTTP/1.1 (the JDK client). */
    public static void answersEveryScenario(int port) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
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

    /**
     * Sends {@code GET /hello} with {@code Connection: close}: whether the server closed the connection
     * after its answer, or at least announced it would ({@code Connection: close}), within 3 s. The answer
     * itself must be the hello.
     */
    public static boolean closesAfterConnectionClose(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(3000);
            s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            boolean closed = false;
            try {
                byte[] buf = new byte[1024];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    got.write(buf, 0, n);
                }
                closed = true;
            } catch (SocketTimeoutException stillOpen) {
                // the server kept the connection
            }
            String answer = got.toString(StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200").endsWith("Hello, World!");
            boolean announced = answer.toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close\r\n");
            return closed || announced;
        }
    }

    static HttpResponse<String> get(HttpClient client, String uri) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
