package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The example app as a user runs it: its own JVM, the ports from {@code BRISK_PORT} and
 * {@code BRISK_METRICS_PORT}, curl as the client, and SIGTERM to stop it.
 */
class ExampleProcessTest {
    private Process demo;
    private int port;
    private int metricsPort;

    @BeforeEach
    void startDemo() throws Exception {
        try (ServerSocket s = new ServerSocket(0); ServerSocket m = new ServerSocket(0)) {
            port = s.getLocalPort();
            metricsPort = m.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.brisk.examples.ExampleApp");
        pb.environment().put("BRISK_PORT", Integer.toString(port));
        pb.environment().put("BRISK_HOST", "127.0.0.1");
        pb.environment().put("BRISK_METRICS_PORT", Integer.toString(metricsPort));
        pb.redirectErrorStream(true);
        demo = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
        String first = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine() + "\n" + out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(30, TimeUnit.SECONDS);
        assertThat(first).startsWith("Brisk example app listening on http://127.0.0.1:" + port + " ")
                .endsWith("\nMetrics (Prometheus) on http://127.0.0.1:" + metricsPort + "/metrics");
        // keep draining its output so it never blocks on a full pipe
        Thread.ofVirtual().start(() -> {
            try {
                while (out.readLine() != null) {
                    // discard
                }
            } catch (IOException ignored) {
                // process ended
            }
        });
    }

    @AfterEach
    void stopDemo() throws Exception {
        if (demo.isAlive()) {
            demo.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean hasCurl() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, "curl"))) {
                return true;
            }
        }
        return false;
    }

    private String curl(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "-i"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
        return text.replace("\r\n", "\n");
    }

    private static String sha256(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The metrics port outlives the drain: a scrape while a request in flight is being finished after
     * SIGTERM is answered (it used to close at once, its shutdown hook running beside the app's).
     */
    @Test
    void metricsAreServedDuringTheDrain() throws Exception {
        assumeTrue(hasCurl(), "curl is not installed");
        String metricsUrl = "http://127.0.0.1:" + metricsPort + "/metrics";
        double before = metric(curl(metricsUrl), "brisk_bytes_in_total");
        byte[] request = "GET /sleep?ms=3000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (java.net.Socket slow = new java.net.Socket("127.0.0.1", port)) {
            slow.getOutputStream().write(request);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (metric(curl(metricsUrl), "brisk_bytes_in_total") < before + request.length && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(metric(curl(metricsUrl), "brisk_bytes_in_total")).as("the slow request was read")
                    .isGreaterThanOrEqualTo(before + request.length);
            demo.destroy(); // SIGTERM: the drain waits for the slow request
            String during = curl(metricsUrl);
            assertThat(during).as("scraped during the drain").startsWith("HTTP/1.1 200 OK\n");
            assertThat(demo.isAlive()).as("still draining when scraped").isTrue();
            slow.setSoTimeout(10_000);
            String answer = new String(slow.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n").contains("Connection: close\r\n").endsWith("slept 3000 ms");
        }
        assertThat(demo.waitFor(15, TimeUnit.SECONDS)).as("demo stopped after SIGTERM").isTrue();
    }

    /**
     * A request for a sample file sent before SIGTERM is answered with the file during the drain (the
     * files' own shutdown hook used to delete them beside the drain: a 404).
     */
    @Test
    void sampleFilesAreServedDuringTheDrain() throws Exception {
        assumeTrue(hasCurl(), "curl is not installed");
        String metricsUrl = "http://127.0.0.1:" + metricsPort + "/metrics";
        double before = metric(curl(metricsUrl), "brisk_bytes_in_total");
        byte[] requests = ("GET /sleep?ms=3000 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /static/hello.txt HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.getOutputStream().write(requests);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (metric(curl(metricsUrl), "brisk_bytes_in_total") < before + requests.length && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            demo.destroy(); // SIGTERM while the first is being handled and the second waits behind it
            s.setSoTimeout(10_000);
            String answers = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            int second = answers.indexOf("HTTP/1.1 ", 1);
            assertThat(answers.substring(0, Math.max(0, second))).startsWith("HTTP/1.1 200 OK\r\n").endsWith("slept 3000 ms");
            assertThat(answers.substring(Math.max(0, second))).startsWith("HTTP/1.1 200 OK\r\n")
                    .contains("Connection: close\r\n").endsWith("\r\n\r\n" + SampleFiles.HELLO);
        }
        assertThat(demo.waitFor(15, TimeUnit.SECONDS)).as("demo stopped after SIGTERM").isTrue();
    }

    /** The value of {@code name}'s unlabelled sample in a Prometheus scrape (curl's output, head included). */
    private static double metric(String scrape, String name) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError(name + " not in the scrape:\n" + scrape);
    }

    @Test
    void curlAgainstTheExampleAppThenSigterm() throws Exception {
        assumeTrue(hasCurl(), "curl is not installed");
        String base = "http://127.0.0.1:" + port;
        assertThat(curl(base + "/hello")).startsWith("HTTP/1.1 200 OK\n").endsWith("\n\nHello, World!");
        assertThat(curl(base + "/json")).contains("Content-Type: application/json").endsWith("{\"message\":\"Hello, World!\"}");
        assertThat(curl(base + "/users/42?active=true")).endsWith("\n\n42");
        assertThat(curl("-H", "Content-Type: text/plain", "--data-binary", "hi there", base + "/echo"))
                .contains("Content-Type: text/plain\n").endsWith("\n\nhi there");
        assertThat(curl("--data-binary", "x".repeat(1024), base + "/consume")).startsWith("HTTP/1.1 204 No Content\n");
        assertThat(curl(base + "/health")).startsWith("HTTP/1.1 200 OK\n").endsWith("\n\n{\"status\":\"UP\"}");
        assertThat(curl(base + "/ready")).startsWith("HTTP/1.1 200 OK\n").endsWith("\n\n{\"status\":\"UP\"}");
        assertThat(curl("-X", "DELETE", base + "/hello")).startsWith("HTTP/1.1 405").contains("Allow: GET, HEAD, OPTIONS");
        // two requests on one curl connection: keep-alive works with a real client
        String two = curl(base + "/hello", base + "/users/7");
        assertThat(two).contains("Hello, World!").endsWith("\n\n7");
        assertThat(curl("http://127.0.0.1:" + metricsPort + "/metrics")).startsWith("HTTP/1.1 200 OK\n")
                .contains("brisk_requests_total{status_class=\"2xx\"} 9.0\n");
        assertThat(curl(base + "/metrics")).as("not on the app's port").startsWith("HTTP/1.1 404");
        // CORS on /api/hello: the origin https://example.com only; its preflight answered before routing
        assertThat(curl("-H", "Origin: https://example.com", base + "/api/hello")).startsWith("HTTP/1.1 200 OK\n")
                .contains("\nVary: Origin\nAccess-Control-Allow-Origin: https://example.com\n")
                .endsWith("\n\n{\"message\":\"Hello, World!\"}");
        assertThat(curl("-X", "OPTIONS", "-H", "Origin: https://example.com", "-H", "Access-Control-Request-Method: GET",
                base + "/api/hello")).startsWith("HTTP/1.1 204 No Content\n")
                .contains("\nAccess-Control-Allow-Origin: https://example.com\n");
        assertThat(curl("-H", "Origin: https://example.com.evil.org", base + "/api/hello")).startsWith("HTTP/1.1 200 OK\n")
                .doesNotContain("Access-Control-");
        assertThat(curl("-X", "OPTIONS", "-H", "Origin: https://evil.example", "-H", "Access-Control-Request-Method: GET",
                base + "/api/hello")).startsWith("HTTP/1.1 403 Forbidden\n").doesNotContain("Access-Control-");
        // the sample files: a small one, a range of the large one, the precompressed script, compressed JSON
        assertThat(curl(base + "/static/hello.txt")).startsWith("HTTP/1.1 200 OK\n")
                .contains("\nCache-Control: public, max-age=60\n").endsWith("\n\n" + SampleFiles.HELLO);
        assertThat(curl("-r", "1000-1009", base + "/static/big.bin")).startsWith("HTTP/1.1 206 Partial Content\n")
                .contains("\nContent-Range: bytes 1000-1009/1048576\n");
        assertThat(curl("--compressed", base + "/static/app.js")).contains("\nContent-Encoding: gzip\n")
                .endsWith("\n\n" + SampleFiles.appJs());
        assertThat(curl("--compressed", base + "/static/data.json")).contains("\nContent-Encoding: gzip\n")
                .endsWith("\n\n" + SampleFiles.json());
        // forms: urlencoded fields as JSON, and a multipart upload's parts with their SHA-256
        assertThat(curl("-d", "name=Ada+Lovelace&lang=en&lang=fr", base + "/form")).startsWith("HTTP/1.1 200 OK\n")
                .endsWith("\n\n{\"name\":\"Ada Lovelace\",\"lang\":[\"en\",\"fr\"]}");
        Path upload = Files.createTempFile("brisk-upload-", ".txt");
        try {
            Files.writeString(upload, "abc");
            assertThat(curl("-F", "title=notes", "-F", "file=@" + upload + ";filename=abc.txt", base + "/upload"))
                    .startsWith("HTTP/1.1 200 OK\n").endsWith("\n\n[{\"name\":\"title\",\"filename\":null,\"size\":5,"
                            + "\"sha256\":\"" + sha256("notes") + "\"},{\"name\":\"file\",\"filename\":\"abc.txt\","
                            + "\"size\":3,\"sha256\":\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"}]");
        } finally {
            Files.delete(upload);
        }

        // HTTP/2 in the clear with prior knowledge, on the same port as HTTP/1.1
        assertThat(curl("--http2-prior-knowledge", base + "/hello")).startsWith("HTTP/2 200")
                .contains("\ncontent-type: text/plain").endsWith("\n\nHello, World!");
        assertThat(curl("--http2-prior-knowledge", "--data-binary", "hi h2", base + "/echo")).startsWith("HTTP/2 200")
                .endsWith("\n\nhi h2");

        demo.destroy(); // SIGTERM: the shutdown hook closes the server
        assertThat(demo.waitFor(15, TimeUnit.SECONDS)).as("demo stopped after SIGTERM").isTrue();
        try (ServerSocket again = new ServerSocket(port); ServerSocket metricsAgain = new ServerSocket(metricsPort)) {
            assertThat(again.getLocalPort()).isEqualTo(port);
            assertThat(metricsAgain.getLocalPort()).isEqualTo(metricsPort);
        }
    }
}
