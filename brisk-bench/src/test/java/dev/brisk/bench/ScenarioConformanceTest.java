package dev.brisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every server in the harness answers every scenario the same way, so the benchmark compares equal work
 * ({@link ScenarioChecks}; Spark, on a class path of its own, is checked in brisk-bench-spark).
 */
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
        try (BenchServer server = ServerMain.server(name).get()) {
            server.start(port);
            ScenarioChecks.answersEveryScenario(port);
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
            assertThat(ScenarioChecks.closesAfterConnectionClose(port))
                    .as(name + " closes, or says it will, after Connection: close").isEqualTo(!name.equals("microhttp"));
        }
    }

    /** Skips, saying why, a server that cannot run here (the io_uring ones where io_uring is unavailable). */
    private static void assumeAvailable(String name) {
        java.util.Optional<String> why = ServerMain.unavailable(name);
        org.junit.jupiter.api.Assumptions.assumeTrue(why.isEmpty(), () -> name + " skipped: " + why.orElse(""));
    }
}
