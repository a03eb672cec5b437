package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A path parameter is decoded and often names a file ({@code cfg.get("/files/*", ...)}): a request whose
 * path has a {@code .} or {@code ..} segment (a dot written as {@code %2E}, segments split at {@code /} or
 * {@code %2F}, and a backslash as {@code %5C} too) or an encoded NUL reaches no route; it is a {@code 400} saying why. Browsers and curl
 * resolve dot segments before sending, so only a raw client sends one (curl {@code --path-as-is}, this
 * test's socket). Names with dots in them are still names. A path that does not decode (a malformed
 * escape, escapes that are not UTF-8) is a {@code 400} too, before any route or error handler sees it.
 */
class PathSafetyTest {
    private static final String DOTS = "400 | Dot segments ('.' or '..') are not allowed in a path";
    private static final String NUL = "400 | An encoded NUL (%00) is not allowed in a path";
    private static final String ESCAPE = "400 | Malformed percent-encoding";
    private static final String UTF8 = "400 | Malformed UTF-8 in path";

    private static BriskTestServer start() {
        return BriskTestServer.start(cfg -> {
            cfg.get("/w/*", ctx -> ctx.text("rest=" + ctx.pathParam("*")));
            cfg.get("/p/{name}/x", ctx -> ctx.text("name=" + ctx.pathParam("name")));
            cfg.get("/hello", ctx -> ctx.text("hello"));
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/w/a/../../etc/passwd   | " + DOTS,
        "/w/%2e%2e/x             | " + DOTS,
        "/w/%2E%2E/x             | " + DOTS,
        "/w/.%2e/x               | " + DOTS,
        "/w/./x                  | " + DOTS,
        "/w/%2e                  | " + DOTS,
        "/w/a%2f..%2fetc         | " + DOTS,
        "/w/a%2F%2e%2e%2Fetc     | " + DOTS,
        "/w/..                   | " + DOTS,
        "/w/..%5cetc             | " + DOTS,
        "/w/a%5C..%5Cb           | " + DOTS,
        "/p/../x                 | " + DOTS,
        "/w/../hello             | " + DOTS,
        "/w/a%00b                | " + NUL,
        "/p/%00/x                | " + NUL,
        "/w/a..b                 | 200 | rest=a..b",
        "/w/.hidden/x.y          | 200 | rest=.hidden/x.y",
        "/w/...                  | 200 | rest=...",
        "/w/%2e%2e%2e            | 200 | rest=...",
        "/w/a.%2e.b              | 200 | rest=a...b",
        "/p/..a/x                | 200 | name=..a",
        "/w/%252e%252e           | 200 | rest=%2e%2e",
        // a path that does not decode, whether a route would match it or not (an error handler would meet it)
        "/nowhere%ZZ             | " + ESCAPE,
        "/hello%                 | " + ESCAPE,
        "/w/a%2                  | " + ESCAPE,
        "/w/%g0                  | " + ESCAPE,
        "/%FF                    | " + UTF8,
        "/w/%C0%AF               | " + UTF8,
        "/w/%E2%82               | " + UTF8,
        "/w/caf%C3%A9/%E2%82%AC  | 200 | rest=café/€",
        "/w/%7e%41               | 200 | rest=~A",
    })
    void dotSegmentsAndNulsAreRefusedBeforeAnyRoute(String path, int status, String body) {
        try (BriskTestServer t = start(); RawConnection c = t.raw()) {
            c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.status()).as(path).isEqualTo(status);
            assertThat(r.body()).as(path).isEqualTo(body);
            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"); // a refusal keeps the connection
            assertThat(c.read().body()).isEqualTo("hello");
        }
    }
}
