package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.testing.BriskTestServer;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example app's {@code POST /form} and {@code POST /upload} with real clients: the JDK HttpClient and curl. */
class ExampleFormsTest {
    static BriskTestServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(ExampleApp::routes);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static String curl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return out;
    }

    private static boolean hasCurl() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "curl"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void formAnswersTheFieldsAsJson() throws Exception {
        HttpResponse<String> r = server.post("/form", "application/x-www-form-urlencoded",
                "name=Ada+Lovelace&lang=en&lang=fr&mark=%E2%9C%93&empty=");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo("{\"name\":\"Ada Lovelace\",\"lang\":[\"en\",\"fr\"],\"mark\":\"\u2713\",\"empty\":\"\"}");
        HttpResponse<String> bad = server.post("/form", "application/x-www-form-urlencoded", "name=%E2%9C");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("not valid UTF-8");
        HttpResponse<String> json = server.post("/form", "application/json", "{\"name\":\"Ada\"}");
        assertThat(json.statusCode()).isEqualTo(415);
    }

    @Test
    void uploadAnswersEachPartWithItsSha256FromTheHttpClient() throws Exception {
        byte[] file = random(3 << 20, 1); // past body-spool-threshold: the body waits in a file
        String boundary = "b0undary-from-the-jdk";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ3 report\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"q3.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = server.send(server.request("/upload")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("[{\"name\":\"title\",\"filename\":null,\"size\":9,\"sha256\":\""
                + sha256("Q3 report".getBytes(StandardCharsets.UTF_8)) + "\"},{\"name\":\"doc\",\"filename\":\"q3.bin\","
                + "\"size\":" + file.length + ",\"sha256\":\"" + sha256(file) + "\"}]");
        // a body that is not multipart keeps the benchmark's answer
        HttpResponse<String> raw = server.post("/upload", "application/octet-stream", "12345");
        assertThat(raw.body()).isEqualTo("received 5 bytes");
    }

    @Test
    void curlFormAndUpload() throws Exception {
        assumeTrue(hasCurl(), "curl is not installed");
        String form = curl("--data-urlencode", "q=a&b=c", "-d", "n=1", server.uri("/form").toString());
        assertThat(form).isEqualTo("{\"q\":\"a&b=c\",\"n\":\"1\"}");
        Path small = dir.resolve("notes.txt");
        Files.writeString(small, "hello\n");
        Path big = dir.resolve("big.bin");
        byte[] bigBytes = random(5 << 20, 2);
        Files.write(big, bigBytes);
        String out = curl("-F", "title=caf\u00e9", "-F", "notes=@" + small + ";type=text/plain", "-F", "big=@" + big,
                server.uri("/upload").toString());
        assertThat(out).isEqualTo("[{\"name\":\"title\",\"filename\":null,\"size\":5,\"sha256\":\""
                + sha256("caf\u00e9".getBytes(StandardCharsets.UTF_8)) + "\"},"
                + "{\"name\":\"notes\",\"filename\":\"notes.txt\",\"size\":6,\"sha256\":\""
                + sha256("hello\n".getBytes(StandardCharsets.UTF_8)) + "\"},"
                + "{\"name\":\"big\",\"filename\":\"big.bin\",\"size\":" + bigBytes.length + ",\"sha256\":\""
                + sha256(bigBytes) + "\"}]");
        String missing = curl("-i", "-H", "Content-Type: multipart/form-data; boundary=xyz", "--data-binary",
                "--xyz\r\nContent-Disposition: form-data; name=a\r\n\r\nunclosed", server.uri("/upload").toString());
        assertThat(missing).startsWith("HTTP/1.1 400").contains("closing boundary delimiter");
    }
}
