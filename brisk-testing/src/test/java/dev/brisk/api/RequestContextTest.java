package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.io.InputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The request side of {@code Context}: query, headers, cookies, body, remote address, attributes. */
class RequestContextTest {
    private static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            cfg.use(next -> ctx -> {
                ctx.attribute("fromMiddleware", "mw-value");
                next.handle(ctx);
            });
            cfg.before(ctx -> ctx.attribute("fromBefore", 42));

            cfg.get("/query", ctx -> ctx.text(render(ctx.queryParamMap())));
            cfg.get("/query/one", ctx -> ctx.text(
                    "name=" + ctx.queryParam("name")
                            + " tag=" + ctx.queryParam("tag")
                            + " tags=" + ctx.queryParams("tag")
                            + " missing=" + ctx.queryParam("missing")
                            + " missingList=" + ctx.queryParams("missing")
                            + " withDefault=" + ctx.queryParam("missing", "dflt")
                            + " presentDefault=" + ctx.queryParam("name", "dflt")
                            + " raw=" + ctx.queryString()));
            cfg.get("/path/{p}", ctx -> ctx.text(ctx.path() + " | " + ctx.method()));

            cfg.get("/headers", ctx -> ctx.text(String.join("\n",
                    "custom=" + ctx.header("x-CUSTOM"),
                    "multiFirst=" + ctx.header("X-MULTI"),
                    "multi=" + ctx.headers("x-multi"),
                    "absent=" + ctx.header("X-Absent"),
                    "absentList=" + ctx.headers("X-Absent"),
                    "names=" + ctx.headerNames())));

            cfg.get("/cookies", ctx -> ctx.text("a=" + ctx.cookie("a") + " b=" + ctx.cookie("b")
                    + " c=" + ctx.cookie("c") + " all=" + ctx.cookies()));

            cfg.post("/echo-bytes", ctx -> ctx.bytes(ctx.body()));
            cfg.post("/body-string", ctx -> ctx.text("<" + ctx.bodyAsString() + ">"));
            cfg.post("/body-stream", ctx -> {
                try (InputStream in = ctx.bodyAsStream()) {
                    byte[] all = in.readAllBytes();
                    ctx.text(all.length + ":" + HexFormat.of().formatHex(all));
                }
            });
            cfg.get("/body-empty", ctx -> ctx.text("len=" + ctx.body().length + " str=<" + ctx.bodyAsString() + ">"
                    + " type=" + ctx.contentType()));
            cfg.post("/body-twice", ctx -> ctx.text(new String(ctx.body(), StandardCharsets.UTF_8)
                    + "|" + ctx.bodyAsString()));

            cfg.get("/json-out", ctx -> ctx.json(Map.of("a", 1)));
            cfg.post("/json-in", ctx -> ctx.text(String.valueOf(ctx.bodyAsJson(Map.class))));

            cfg.get("/remote", ctx -> ctx.text(ctx.remoteAddress()));
            cfg.get("/attribute-leak", ctx -> {
                Object before = ctx.attribute("leak");
                ctx.attribute("leak", "set by an earlier request");
                ctx.text(String.valueOf(before));
            });
            cfg.get("/attributes", ctx -> {
                ctx.attribute("fromHandler", true);
                ctx.text(ctx.attribute("fromMiddleware") + " " + ctx.attribute("fromBefore") + " "
                        + ctx.attribute("fromHandler") + " " + ctx.attribute("never"));
            });
        });
    }

    /** {@code name=<v1>,<v2>; ...} so that empty values stay visible. */
    private static String render(Map<String, List<String>> params) {
        return params.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().stream().map(v -> "<" + v + ">")
                        .collect(Collectors.joining(",")))
                .collect(Collectors.joining("; "));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RawConnection.Response raw(String request) {
        try (RawConnection c = server.raw()) {
            c.send(request);
            return c.read();
        }
    }

    // ---- query ------------------------------------------------------------------------------

    @Test
    void routeTemplateNamesTheMatchedRouteNeverTheRawPath() {
        try (BriskTestServer own = BriskTestServer.start(cfg -> {
            cfg.after(ctx -> ctx.header("X-Route", String.valueOf(ctx.routeTemplate())));
            cfg.get("/orders/{id}/lines/{line}", ctx -> ctx.text(ctx.routeTemplate()));
            cfg.get("/files/*", ctx -> ctx.text(ctx.routeTemplate()));
            cfg.get("/exact", ctx -> ctx.text(ctx.routeTemplate()));
        })) {
            assertThat(own.get("/orders/7/lines/3").body()).isEqualTo("/orders/{id}/lines/{line}");
            assertThat(own.get("/files/a/b.txt").body()).isEqualTo("/files/*");
            assertThat(own.get("/exact").body()).isEqualTo("/exact");
            HttpResponse<String> missing = own.get("/nowhere");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.headers().firstValue("X-Route")).hasValue("null");
        }
    }

    @Test
    void singleMultiAndDefaultQueryParameters() {
        HttpResponse<String> r = server.get("/query/one?name=brisk&tag=a&tag=b&tag=c");
        assertThat(r.body()).isEqualTo("name=brisk tag=a tags=[a, b, c] missing=null missingList=[]"
                + " withDefault=dflt presentDefault=brisk raw=name=brisk&tag=a&tag=b&tag=c");
    }

    @Test
    void noQueryStringGivesEmptyValues() {
        assertThat(server.get("/query/one").body()).isEqualTo("name=null tag=null tags=[] missing=null"
                + " missingList=[] withDefault=dflt presentDefault=dflt raw=");
        assertThat(server.get("/query").body()).isEmpty();
    }

    @Test
    void queryParametersArePlusAndPercentDecoded() {
        HttpResponse<String> r = server.get("/query?q=hello+world&e=%C3%A9t%C3%A9&amp=a%26b&eq=x%3Dy"
                + "&plus=1%2B1&sp=a%20b&na%20me=v");
        assertThat(r.body()).isEqualTo("q=<hello world>; e=<été>; amp=<a&b>; eq=<x=y>; plus=<1+1>; sp=<a b>;"
                + " na me=<v>");
    }

    @Test
    void queryParamMapKeepsFirstAppearanceOrderAndGroupsRepeats() {
        HttpResponse<String> r = server.get("/query?z=1&a=2&m=3&a=4&z=5");
        assertThat(r.body()).isEqualTo("z=<1>,<5>; a=<2>,<4>; m=<3>");
    }

    @Test
    void valuelessAndEmptyQueryParameters() {
        HttpResponse<String> r = server.get("/query?flag&empty=&&x=a=b");
        assertThat(r.body()).isEqualTo("flag=<>; empty=<>; x=<a=b>");
    }

    @Test
    void rawQueryStringIsNotDecoded() {
        assertThat(server.get("/query/one?name=a+b%21").body()).contains("name=a b!").endsWith("raw=name=a+b%21");
    }

    @Test
    void malformedPercentEncodingInTheQueryIs400() {
        assertThat(raw("GET /query?q=%zz HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(400);
        assertThat(raw("GET /query?q=%4 HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(400);
    }

    @Test
    void pathIsDecodedAndMethodIsReported() {
        assertThat(server.get("/path/a%20b?x=1").body()).isEqualTo("/path/a b | GET");
    }

    // ---- headers ----------------------------------------------------------------------------

    @Test
    void headersAreCaseInsensitiveMultiValuedAndNamesKeepTheirOrder() {
        RawConnection.Response r = raw("GET /headers HTTP/1.1\r\n"
                + "Host: x\r\n"
                + "X-Multi: one\r\n"
                + "x-custom: Val ue\r\n"
                + "X-MULTI: two\r\n"
                + "Accept: text/plain\r\n"
                + "x-multi: three\r\n"
                + "\r\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(String.join("\n",
                "custom=Val ue",
                "multiFirst=one",
                "multi=[one, two, three]",
                "absent=null",
                "absentList=[]",
                "names=[Host, X-Multi, x-custom, Accept]"));
    }

    @Test
    void headersSentByTheHttpClientAreVisible() {
        HttpResponse<String> r = server.send(server.request("/headers")
                .header("X-Custom", "from-client").header("X-Multi", "m1").header("X-Multi", "m2").build());
        assertThat(r.body()).contains("custom=from-client", "multiFirst=m1", "multi=[m1, m2]");
    }

    // ---- cookies ----------------------------------------------------------------------------

    @Test
    void cookiesAreParsedAndQuotesStripped() {
        HttpResponse<String> r = server.send(server.request("/cookies").header("Cookie", "a=1; b=\"two\"").build());
        assertThat(r.body()).isEqualTo("a=1 b=two c=null all={a=1, b=two}");
    }

    @Test
    void cookieValuesMayContainEqualsSigns() {
        HttpResponse<String> r = server.send(server.request("/cookies").header("Cookie", "a=x==; b=c=d").build());
        assertThat(r.body()).isEqualTo("a=x== b=c=d c=null all={a=x==, b=c=d}");
    }

    @Test
    void noCookieHeaderGivesNoCookies() {
        assertThat(server.get("/cookies").body()).isEqualTo("a=null b=null c=null all={}");
    }

    // ---- body -------------------------------------------------------------------------------

    @Test
    void binaryBodyArrivesUnchanged() {
        byte[] all = new byte[256 * 40];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i * 31 + i / 256);
        }
        HttpResponse<byte[]> r = sendBytes("/echo-bytes", "application/octet-stream", all);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(all);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
    }

    @Test
    void bodyAsStringUsesTheCharsetOfTheContentType() {
        String text = "café €";
        byte[] latin1 = "café".getBytes(StandardCharsets.ISO_8859_1);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

        assertThat(bodyString("text/plain; charset=ISO-8859-1", latin1)).isEqualTo("<café>");
        assertThat(bodyString("text/plain; charset=\"iso-8859-1\"", latin1)).isEqualTo("<café>");
        assertThat(bodyString("text/plain;charset=UTF-8", utf8)).isEqualTo("<café €>");
        assertThat(bodyString("text/plain", utf8)).as("UTF-8 by default").isEqualTo("<café €>");
        // the charset really is applied: UTF-8 bytes read as Latin-1 give mojibake
        assertThat(bodyString("text/plain; charset=ISO-8859-1", "é".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("<Ã©>");
    }

    private static String bodyString(String contentType, byte[] body) {
        HttpResponse<String> r = server.send(server.request("/body-string").header("Content-Type", contentType)
                .POST(BodyPublishers.ofByteArray(body)).build());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    @Test
    void bodyAsStreamGivesTheBodyBytes() {
        byte[] body = {0, 1, 2, (byte) 0xfe, (byte) 0xff, 'a'};
        HttpResponse<String> r = server.send(server.request("/body-stream")
                .POST(BodyPublishers.ofByteArray(body)).build());
        assertThat(r.body()).isEqualTo("6:000102feff61");
    }

    @Test
    void chunkedRequestBodyIsAssembled() {
        RawConnection.Response r = raw("POST /body-stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("5:6162636465");
    }

    @Test
    void bodyMayBeReadMoreThanOnce() {
        HttpResponse<String> r = server.post("/body-twice", "text/plain", "again");
        assertThat(r.body()).isEqualTo("again|again");
    }

    @Test
    void requestWithoutBodyHasAnEmptyBody() {
        assertThat(server.get("/body-empty").body()).isEqualTo("len=0 str=<> type=null");
    }

    private static HttpResponse<byte[]> sendBytes(String path, String contentType, byte[] body) {
        try {
            return server.client().send(server.request(path).header("Content-Type", contentType)
                    .POST(BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---- JSON without a codec ---------------------------------------------------------------

    @Test
    void jsonWithoutACodecIs500() {
        HttpResponse<String> out = server.get("/json-out");
        assertThat(out.statusCode()).isEqualTo(500);
        assertThat(out.body()).isEqualTo("Internal Server Error");

        HttpResponse<String> in = server.post("/json-in", "application/json", "{\"a\":1}");
        assertThat(in.statusCode()).isEqualTo(500);
        assertThat(in.body()).isEqualTo("Internal Server Error").doesNotContain("JsonCodec");
    }

    // ---- connection facts and attributes ----------------------------------------------------

    @Test
    void remoteAddressIsTheLoopbackClientWithItsPort() {
        String remote = server.get("/remote").body();
        assertThat(remote).startsWith("127.0.0.1:");
        int port = Integer.parseInt(remote.substring("127.0.0.1:".length()));
        assertThat(port).isBetween(1, 65535).isNotEqualTo(server.port());
    }

    @Test
    void remoteAddressPortIsTheClientSocketPort() {
        try (RawConnection c = server.raw()) {
            c.send("GET /remote HTTP/1.1\r\nHost: x\r\n\r\n");
            String remote = c.read().body();
            assertThat(remote).startsWith("127.0.0.1:");
            // a second request on the same connection reports the same peer
            c.send("GET /remote HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo(remote);
        }
    }

    @Test
    void attributesFlowFromMiddlewareAndBeforeFiltersToTheHandler() {
        assertThat(server.get("/attributes").body()).isEqualTo("mw-value 42 true null");
    }

    @Test
    void attributesDoNotLeakBetweenRequests() {
        assertThat(server.get("/attribute-leak").body()).isEqualTo("null");
        assertThat(server.get("/attribute-leak").body()).isEqualTo("null");
    }
}
