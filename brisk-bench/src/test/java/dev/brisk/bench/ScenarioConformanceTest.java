package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
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
        assumeAvailable(name);
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

    /** The servers bench/ws.sh drives echo WebSocket text and binary messages as they came. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"brisk-event-loop", "netty", "vertx"})
    void echoesWebSocketMessages(String name) throws Exception {
        int port = freePort();
        try (BenchServer server = ServerMain.server(name).get(); HttpClient client = HttpClient.newHttpClient()) {
            server.start(port);
            java.util.concurrent.LinkedBlockingQueue<String> got = new java.util.concurrent.LinkedBlockingQueue<>();
            java.net.http.WebSocket ws = client.newWebSocketBuilder().buildAsync(
                    URI.create("ws://127.0.0.1:" + port + "/ws/echo"), new java.net.http.WebSocket.Listener() {
                        private final StringBuilder text = new StringBuilder();
                        private int binary;

                        @Override
                        public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w, CharSequence d, boolean last) {
                            text.append(d);
                            if (last) {
                                got.add(text.toString());
                                text.setLength(0);
                            }
                            w.request(1);
                            return null;
                        }

                        @Override
                        public java.util.concurrent.CompletionStage<?> onBinary(java.net.http.WebSocket w,
                                java.nio.ByteBuffer d, boolean last) {
                            binary += d.remaining();
                            if (last) {
                                got.add("binary " + binary);
                                binary = 0;
                            }
                            w.request(1);
                            return null;
                        }
                    }).get(10, java.util.concurrent.TimeUnit.SECONDS);
            ws.sendText("hello", true).get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(got.poll(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("hello");
            ws.sendBinary(java.nio.ByteBuffer.wrap(new byte[4096]), true).get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(got.poll(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("binary 4096");
            ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "").get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /**
     * The churn scenario sends {@code Connection: close} and counts on the server closing, or at least
     * answering {@code Connection: close} (then wrk closes): one that does neither turns churn into
     * keep-alive. microhttp does neither (checked here, so the day it changes this fails and
     * bench/harness.sh can measure its churn again); the harness skips its churn.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void closesAfterConnectionClose(String name) throws Exception {
        assumeAvailable(name);
        int port = freePort();
        try (BenchServer server = ServerMain.server(name).get()) {
            server.start(port);
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
                assertThat(closed || announced).as(name + " closes, or says it will, after Connection: close")
                        .isEqualTo(!name.equals("microhttp"));
            }
        }
    }

    /** Skips, saying why, a server that cannot run here (the io_uring ones where io_uring is unavailable). */
    private static void assumeAvailable(String name) {
        java.util.Optional<String> why = ServerMain.unavailable(name);
        org.junit.jupiter.api.Assumptions.assumeTrue(why.isEmpty(), () -> name + " skipped: " + why.orElse(""));
    }

    private static HttpResponse<String> get(HttpClient client, String uri) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
