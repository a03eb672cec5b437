package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Cookie;
import dev.brisk.testing.BriskTestServer;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cookies with real clients that keep them: the JDK HttpClient with a CookieManager, and curl's cookie jar. */
class CookieClientTest {
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.post("/login", ctx -> ctx
                    .cookie(Cookie.builder("session", "s3cr3t-" + ctx.queryParam("user")).path("/")
                            .maxAge(Duration.ofHours(1)).httpOnly(true).sameSite(Cookie.SameSite.LAX).build())
                    .cookie(Cookie.builder("__Secure-id", "never-over-http").secure(true).build())
                    .cookie(Cookie.builder("scoped", "1").path("/admin").build())
                    .status(204));
            cfg.post("/logout", ctx -> ctx.cookie(Cookie.expire("session").path("/").build()).status(204));
            cfg.get("/whoami", ctx -> ctx.text("session=" + ctx.cookie("session") + " all=" + ctx.cookies()));
            cfg.get("/admin/whoami", ctx -> ctx.text("all=" + ctx.cookies()));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> send(HttpClient client, String method, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(server.uri(path)).method(method, HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void httpClientKeepsSendsAndDropsTheCookie() throws Exception {
        HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> login = send(client, "POST", "/login?user=ada");
        assertThat(login.statusCode()).isEqualTo(204);
        assertThat(login.headers().allValues("Set-Cookie")).containsExactly(
                "session=s3cr3t-ada; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax",
                "__Secure-id=never-over-http; Secure",
                "scoped=1; Path=/admin");

        // the Secure cookie is not sent over plain HTTP, the /admin one only below /admin; the JDK sends the
        // session cookie in RFC 2965 form ($Version=1; session=...; $Path=...; $Domain=...), whose attributes are skipped
        assertThat(send(client, "GET", "/whoami").body()).isEqualTo("session=s3cr3t-ada all={session=s3cr3t-ada}");
        assertThat(send(client, "GET", "/admin/whoami").body()).contains("scoped=1").contains("session=s3cr3t-ada");

        assertThat(send(client, "POST", "/logout").statusCode()).isEqualTo(204);
        assertThat(send(client, "GET", "/whoami").body()).isEqualTo("session=null all={}");
    }

    @Test
    void tooManyCookiesIsA400ThatSaysSo() throws Exception {
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < 201; i++) {
            h.append(i == 0 ? "" : "; ").append("c").append(i).append("=1");
        }
        HttpResponse<String> r = server.get("/whoami", "Cookie", h.toString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("Too many cookies: more than 200");
        HttpResponse<String> json = server.get("/whoami", "Cookie", h.toString(), "Accept", "application/json");
        assertThat(json.body()).isEqualTo("{\"status\":400,\"error\":\"Bad Request\",\"message\":\"Too many cookies: more than 200\"}");
    }

    @Test
    void curlCookieJarRoundTrip(@TempDir Path dir) throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        Path jar = dir.resolve("jar.txt");
        String base = "http://127.0.0.1:" + server.port();
        assertThat(Curl.run("-X", "POST", "-c", jar.toString(), base + "/login?user=bob"))
                .startsWith("HTTP/1.1 204 No Content\n")
                .contains("\nSet-Cookie: session=s3cr3t-bob; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax\n");
        assertThat(Files.readString(jar)).contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t");
        // curl counts 127.0.0.1 as a secure context, so it sends the Secure cookie too
        assertThat(Curl.run("-b", jar.toString(), base + "/whoami"))
                .endsWith("\n\nsession=s3cr3t-bob all={__Secure-id=never-over-http, session=s3cr3t-bob}");
        assertThat(Curl.run("-X", "POST", "-b", jar.toString(), "-c", jar.toString(), base + "/logout"))
                .contains("\nSet-Cookie: session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/\n");
        assertThat(Curl.run("-b", jar.toString(), base + "/whoami"))
                .endsWith("\n\nsession=null all={__Secure-id=never-over-http}");
        // a hand-written header as curl sends it: ';' without a space, a malformed pair skipped
        assertThat(Curl.run("-b", "a=1;b=\"two\";bad pair;c=3", base + "/whoami"))
                .endsWith("\n\nsession=null all={a=1, b=two, c=3}");
    }
}
