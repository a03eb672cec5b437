package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Context;
import dev.brisk.Part;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Forms sent by real clients, on every engine: the JDK HttpClient (urlencoded, and a multipart body it
 * is handed), curl {@code --data-urlencode} and {@code -F} over HTTP/1.1 and over h2c (prior
 * knowledge), to a route that stores the parts and to one that reads them as a stream.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class FormsClientTest {
    @Parameter
    Engine engine;

    @TempDir
    Path dir;

    private BriskTestServer server;

    @BeforeEach
    void start() throws IOException {
        Files.createDirectories(dir.resolve("spool"));
        server = BriskTestServer.start(engine, cfg -> {
            cfg.options().bodySpoolDir(dir.resolve("spool").toString());
            cfg.post("/form", ctx -> ctx.text(ctx.formParamMap().toString()));
            cfg.post("/upload", ctx -> {
                List<String> out = new ArrayList<>();
                for (Part p : ctx.parts()) {
                    try (InputStream in = p.content()) {
                        out.add(line(p, in));
                    }
                }
                ctx.text(String.join("\n", out) + "\n");
            }).maxBodySize(8L << 20);
            cfg.post("/upload-stream", FormsClientTest::streamed).streamBody().maxBodySize(8L << 20);
            cfg.post("/small", ctx -> ctx.text("parts=" + ctx.parts().size())).maxBodySize(100_000);
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static void streamed(Context ctx) throws IOException {
        List<String> out = new ArrayList<>();
        for (Part p : ctx.multipart()) {
            out.add(line(p, p.content()));
        }
        ctx.text(String.join("\n", out) + "\n");
    }

    private static String line(Part p, InputStream in) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] b = new byte[8192];
        long n = 0;
        int r;
        while ((r = in.read(b)) >= 0) {
            sha.update(b, 0, r);
            n += r;
        }
        return p.name() + "|" + p.filename() + "|" + n + "|" + HexFormat.of().formatHex(sha.digest());
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private long spooled() throws IOException {
        return dev.brisk.wire.SpoolFiles.count(dir.resolve("spool"));
    }

    @Test
    void httpClientSendsUrlencodedAndMultipart() throws Exception {
        HttpResponse<String> form = server.post("/form", "application/x-www-form-urlencoded",
                "name=Ada+Lovelace&lang=en&lang=fr&note=%E2%9C%93");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).isEqualTo("{name=[Ada Lovelace], lang=[en, fr], note=[\u2713]}");

        byte[] file = random(700_000, 1);
        String boundary = "jdk-client-boundary-42";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nreport\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r\u00e9sum\u00e9.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        for (String path : new String[] {"/upload", "/upload-stream"}) {
            HttpResponse<String> r = server.send(server.request(path)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build());
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).isEqualTo("title|null|6|" + sha256("report".getBytes(StandardCharsets.UTF_8))
                    + "\nfile|r\u00e9sum\u00e9.bin|700000|" + sha256(file) + "\n");
        }
        assertThat(spooled()).as("temporary files left").isZero();
    }

    @Test
    void curlSendsFormsOverHttp11AndH2c() throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        Path a = dir.resolve("a.txt");
        Files.writeString(a, "hello, upload\n");
        Path big = dir.resolve("big.bin");
        byte[] bigBytes = random(2_000_000, 2);
        Files.write(big, bigBytes);
        byte[] title = "hi \u00e9!".getBytes(StandardCharsets.UTF_8);
        String expected = "title|null|" + title.length + "|" + sha256(title) + "\n"
                + "a|a.txt|14|" + sha256(Files.readAllBytes(a)) + "\n"
                + "big|renamed.bin|2000000|" + sha256(bigBytes) + "\n";
        for (String http : new String[] {"--http1.1", "--http2-prior-knowledge"}) {
            String form = Curl.run(http, "--data-urlencode", "q=a&b c", "--data-urlencode", "r=\u00e9",
                    server.uri("/form").toString());
            assertThat(form).as(http).contains("200").endsWith("{q=[a&b c], r=[\u00e9]}");
            for (String path : new String[] {"/upload", "/upload-stream"}) {
                String out = Curl.run(http, "-F", "title=hi \u00e9!", "-F", "a=@" + a, "-F",
                        "big=@" + big + ";filename=renamed.bin", server.uri(path).toString());
                // curl asks for 100 Continue before a large body over HTTP/1.1: that interim answer comes first
                assertThat(out).as(http + " " + path).contains(http.equals("--http1.1") ? "HTTP/1.1 200" : "HTTP/2 200")
                        .endsWith("\n\n" + expected);
            }
            String bad = Curl.run(http, "-H", "Content-Type: multipart/form-data", "--data-binary", "x",
                    server.uri("/upload").toString());
            assertThat(bad).as(http).contains(" 400").contains("no boundary parameter");
            // the route's own body limit holds on both protocols (HTTP/2 buffers the body under it)
            // (curl reports the HTTP/2 413, sent with RST_STREAM while it still uploads, as a stream error)
            String tooLarge = Curl.run(http, "-F", "big=@" + big, server.uri("/small").toString());
            if (http.equals("--http1.1")) {
                assertThat(tooLarge).contains(" 413").contains("larger than 100000 bytes");
            } else {
                assertThat(tooLarge).as(http).doesNotContain("parts=");
            }
        }
        assertThat(spooled()).as("temporary files left").isZero();
    }
}
