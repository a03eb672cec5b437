package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.BriskConfig;
import dev.brisk.Context;
import dev.brisk.Cookie;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cookies on the wire: each {@code ctx.cookie(Cookie)} is one {@code Set-Cookie} line, byte for byte; a
 * bad cookie is refused at the call and never reaches the head; the request's {@code Cookie} header is
 * parsed strictly, and hostile ones (control characters, thousands of pairs) get a clear answer.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class CookieWireTest {
    @Parameter
    Engine engine;

    private static final Consumer<BriskConfig> ROUTES = cfg -> {
        cfg.get("/login", ctx -> ctx
                .cookie(Cookie.builder("session", "8f14e45f").path("/").maxAge(Duration.ofHours(1))
                        .httpOnly(true).sameSite(Cookie.SameSite.LAX).build())
                .cookie(Cookie.builder("__Host-csrf", "\"q1w2\"").path("/").secure(true)
                        .sameSite(Cookie.SameSite.STRICT).build())
                .cookie(Cookie.builder("pref", "dark").domain("example.com")
                        .expires(Instant.parse("2031-05-06T07:08:09Z")).build())
                .text("in"));
        cfg.get("/logout", ctx -> ctx.cookie(Cookie.expire("session").path("/").build()).status(204));
        cfg.get("/cookies", ctx -> ctx.text(ctx.cookies().toString()));
        cfg.get("/inject", ctx -> {
            List<String> outcomes = new ArrayList<>();
            for (String value : List.of("a;b", "a\r\nSet-Cookie: evil=1", "a\nX-Injected: 1", "a b", "1; Path=/x")) {
                outcomes.add(attempt(ctx, value));
            }
            ctx.cookie(Cookie.builder("safe", "ok").build());
            ctx.text(String.join(",", outcomes));
        });
        cfg.get("/inject-uncaught", ctx -> {
            ctx.cookie(Cookie.builder("early", "1").build());
            ctx.cookie(Cookie.builder("x", "1\r\nSet-Cookie: evil=1").build());
        });
    };

    private static String attempt(Context ctx, String value) {
        try {
            ctx.cookie(Cookie.builder("n", value).build());
            return "ACCEPTED";
        } catch (IllegalArgumentException e) {
            return "refused";
        }
    }

    /** The whole answer to one request sent with {@code Connection: close}, its {@code Date} value masked. */
    private static String exchange(BriskTestServer t, String request) {
        try (RawConnection c = t.raw()) {
            c.send(request);
            return c.readAll().replaceFirst("\r\nDate: [^\r]*\r\n", "\r\nDate: *\r\n");
        }
    }

    private BriskTestServer start() {
        return Wire.start(engine, ROUTES);
    }

    @Test
    void eachCookieIsOneSetCookieLine() {
        try (BriskTestServer t = start()) {
            assertThat(exchange(t, "GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).isEqualTo(
                    "HTTP/1.1 200 OK\r\n"
                    + "Date: *\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 2\r\n"
                    + "Connection: close\r\n"
                    + "Set-Cookie: session=8f14e45f; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax\r\n"
                    + "Set-Cookie: __Host-csrf=\"q1w2\"; Path=/; Secure; SameSite=Strict\r\n"
                    + "Set-Cookie: pref=dark; Expires=Tue, 06 May 2031 07:08:09 GMT; Domain=example.com\r\n"
                    + "\r\n"
                    + "in");
        }
    }

    @Test
    void expiringACookie() {
        try (BriskTestServer t = start()) {
            assertThat(exchange(t, "GET /logout HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).isEqualTo(
                    "HTTP/1.1 204 No Content\r\n"
                    + "Date: *\r\n"
                    + "Connection: close\r\n"
                    + "Set-Cookie: session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/\r\n"
                    + "\r\n");
        }
    }

    @Test
    void aValueWithSemicolonOrCrLfIsRefusedAtTheCallAndNeverWritten() {
        try (BriskTestServer t = start()) {
            assertThat(exchange(t, "GET /inject HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).isEqualTo(
                    "HTTP/1.1 200 OK\r\n"
                    + "Date: *\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 39\r\n"
                    + "Connection: close\r\n"
                    + "Set-Cookie: safe=ok\r\n"
                    + "\r\n"
                    + "refused,refused,refused,refused,refused");
        }
    }

    @Test
    void anUncaughtRefusalIsA500WithoutTheHandlersCookies() {
        try (BriskTestServer t = start()) {
            String wire = exchange(t, "GET /inject-uncaught HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(wire).startsWith("HTTP/1.1 500 Internal Server Error\r\n")
                    .doesNotContain("Set-Cookie").doesNotContain("evil");
        }
    }

    @Test
    void requestCookiesParsedStrictlyMalformedPairsSkipped() {
        try (BriskTestServer t = start()) {
            String wire = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Cookie: a=1; b=\"2\"; bad pair; c=x,y; =nameless; d=4;e=5\r\n"
                    + "Cookie: a=ignored; f=6\r\n\r\n");
            assertThat(wire).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n{a=1, b=2, d=4, e=5, f=6}");
        }
    }

    @Test
    void tabAndObsTextInACookieSkipThatPairOnly() {
        try (BriskTestServer t = start()) {
            String wire = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Cookie: a=1\tx; b=caf\u00e9; c=3\r\n\r\n");
            assertThat(wire).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n{c=3}");
        }
    }

    @Test
    void controlCharactersInTheCookieHeaderAre400BeforeTheApp() {
        try (BriskTestServer t = start()) {
            for (String ctl : List.of("\u0001", "\u0000", "\u007f", "\u001b", "\r")) {
                String wire = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\n"
                        + "Cookie: a=1" + ctl + "; b=2\r\n\r\n");
                assertThat(wire).as("control 0x%02x", (int) ctl.charAt(0)).isEqualTo(
                        "HTTP/1.1 400 Bad Request\r\n"
                        + "Date: *\r\n"
                        + "Content-Type: text/plain; charset=utf-8\r\n"
                        + "Content-Length: 34\r\n"
                        + "Connection: close\r\n"
                        + "\r\n"
                        + "Invalid character in header value\n");
            }
        }
    }

    private static String pairs(int n, String pair) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : "; ").append(pair.replace("#", Integer.toString(i)));
        }
        return b.toString();
    }

    @Test
    void tenThousandPairsOverTheHeadLimitAre431() {
        try (BriskTestServer t = start()) {
            String wire = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\nCookie: " + pairs(10_000, "c#=v") + "\r\n\r\n");
            assertThat(wire).startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n");
        }
    }

    @Test
    void tenThousandPairsWithinARaisedHeadLimitAre400NamingTheLimit() {
        try (BriskTestServer t = Wire.start(engine, cfg -> {
            cfg.options().maxHeaderSize(1 << 20);
            ROUTES.accept(cfg);
        })) {
            String wire = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: "
                    + pairs(10_000, "c#=v") + "\r\n\r\n");
            assertThat(wire).isEqualTo(
                    "HTTP/1.1 400 Bad Request\r\n"
                    + "Date: *\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 31\r\n"
                    + "Connection: close\r\n"
                    + "\r\n"
                    + "Too many cookies: more than 200");
            // ten thousand malformed pairs cost nothing and hide nothing
            String malformed = exchange(t, "GET /cookies HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: "
                    + pairs(10_000, "c# =v") + "; ok=1\r\n\r\n");
            assertThat(malformed).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\n{ok=1}");
        }
    }
}
