package dev.brisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code Set-Cookie} value a {@link Cookie} renders, and what the builder refuses. */
class CookieTest {

    @Test
    void plainPair() {
        assertThat(Cookie.builder("a", "1").build().headerValue()).isEqualTo("a=1");
        assertThat(Cookie.builder("empty", "").build().headerValue()).isEqualTo("empty=");
        assertThat(Cookie.builder("q", "\"x y\"".replace(" ", "")).build().headerValue()).isEqualTo("q=\"xy\"");
    }

    @Test
    void everyAttributeInOrder() {
        Cookie c = Cookie.builder("__Host-id", "abc123")
                .maxAge(Duration.ofMinutes(90).plusMillis(999))
                .expires(Instant.parse("2030-01-02T03:04:05.678Z"))
                .path("/")
                .secure(true).httpOnly(true).sameSite(Cookie.SameSite.NONE).partitioned(true)
                .build();
        assertThat(c.headerValue()).isEqualTo("__Host-id=abc123; Max-Age=5401; Expires=Wed, 02 Jan 2030 03:04:05 GMT; "
                + "Path=/; Secure; HttpOnly; SameSite=None; Partitioned");
        assertThat(c.toString()).isEqualTo(c.headerValue());
        assertThat(c.expires()).isEqualTo(Instant.parse("2030-01-02T03:04:05Z"));
        assertThat(Cookie.builder("d", "1").domain("Example.com").sameSite(Cookie.SameSite.STRICT).build().headerValue())
                .isEqualTo("d=1; Domain=Example.com; SameSite=Strict");
        assertThat(Cookie.builder("d", "1").domain(".example.com").sameSite(Cookie.SameSite.LAX).build().headerValue())
                .isEqualTo("d=1; Domain=.example.com; SameSite=Lax");
    }

    @Test
    void expireDeletes() {
        assertThat(Cookie.expire("session").path("/app").build().headerValue())
                .isEqualTo("session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/app");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a;b", "a=b", "a,b", "a\r\nSet-Cookie: x", "a\tb", "caf\u00e9", "(a)", "a\"b", "a/b"})
    void badNamesAreRefusedAtTheCall(String name) {
        assertThatThrownBy(() -> Cookie.builder(name, "v")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cookie name must be a token");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a;b", "a b", "a,b", "a\\b", "\"", "\"a", "a\"", "a\"b", "1\r\nSet-Cookie: evil=1", "x\n",
            "x\0", "caf\u00e9", "\"a;b\"", "x\u010d\u010a"})
    void badValuesAreRefusedAtTheCall(String value) {
        assertThatThrownBy(() -> Cookie.builder("n", value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cookie n: the value may hold only printable ASCII");
    }

    @Test
    void controlCharactersAreEscapedInTheMessage() {
        assertThatThrownBy(() -> Cookie.builder("n", "a\r\nb")).hasMessageEndingWith("\"a\\x0d\\x0ab\"");
    }

    @Test
    void nullsAndTooLongAreRefused() {
        assertThatThrownBy(() -> Cookie.builder(null, "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cookie.builder("n", null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Cookie.builder("n", "v".repeat(4095)).build().value()).hasSize(4095);
        assertThatThrownBy(() -> Cookie.builder("n", "v".repeat(4096))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 4096");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "app", "/a;b", "/a\r\nX: 1", "/caf\u00e9", "/\u007f"})
    void badPathsAreRefused(String path) {
        assertThatThrownBy(() -> Cookie.builder("n", "v").path(path)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "a..b", "-a.com", "a-.com", "a b.com", "a;b.com", "caf\u00e9.fr", "a.com\r\n",
            "example.com:8080", "a_b.com"})
    void badDomainsAreRefused(String domain) {
        assertThatThrownBy(() -> Cookie.builder("n", "v").domain(domain)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void combinationsBrowsersRejectAreRefusedAtBuild() {
        assertThatThrownBy(() -> Cookie.builder("n", "v").sameSite(Cookie.SameSite.NONE).build())
                .hasMessageContaining("SameSite=None requires Secure");
        assertThatThrownBy(() -> Cookie.builder("n", "v").partitioned(true).build())
                .hasMessageContaining("Partitioned requires Secure");
        assertThatThrownBy(() -> Cookie.builder("__Secure-n", "v").build()).hasMessageContaining("__Secure-");
        assertThatThrownBy(() -> Cookie.builder("__secure-n", "v").build()).hasMessageContaining("__Secure-");
        assertThatThrownBy(() -> Cookie.builder("__Host-n", "v").secure(true).build()).hasMessageContaining("__Host-");
        assertThatThrownBy(() -> Cookie.builder("__Host-n", "v").secure(true).path("/a").build())
                .hasMessageContaining("__Host-");
        assertThatThrownBy(() -> Cookie.builder("__Host-n", "v").secure(true).path("/").domain("example.com").build())
                .hasMessageContaining("__Host-");
        assertThat(Cookie.builder("__Secure-n", "v").secure(true).build().headerValue()).isEqualTo("__Secure-n=v; Secure");
    }

    @Test
    void badTimesAreRefused() {
        assertThatThrownBy(() -> Cookie.builder("n", "v").maxAge(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cookie.builder("n", "v").expires(Instant.parse("1969-12-31T23:59:59Z")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cookie.builder("n", "v").expires(Instant.parse("+10000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Cookie.builder("n", "v").expires(Instant.parse("9999-12-31T23:59:59Z")).build().headerValue())
                .isEqualTo("n=v; Expires=Fri, 31 Dec 9999 23:59:59 GMT");
    }

    @Test
    void aBuilderCanBeReusedAndUnset() {
        Cookie.Builder b = Cookie.builder("n", "v").path("/").maxAge(Duration.ofSeconds(5));
        Cookie first = b.build();
        Cookie second = b.path(null).maxAge(null).build();
        assertThat(first.headerValue()).isEqualTo("n=v; Max-Age=5; Path=/");
        assertThat(second.headerValue()).isEqualTo("n=v");
        assertThat(first).isNotEqualTo(second).isEqualTo(Cookie.builder("n", "v").path("/").maxAge(Duration.ofSeconds(5)).build());
    }

    /** Review findings: each a value the builder took and then rendered or kept wrongly. */
    @Test
    void fractionsRoundUpNamesWithDollarAreRefusedAndTheLastSecondOf9999Fits() {
        assertThat(Cookie.builder("a", "1").maxAge(Duration.ofMillis(500)).build().toString())
                .as("a positive lifetime never becomes a deletion").contains("Max-Age=1");
        assertThat(Cookie.builder("a", "1").maxAge(Duration.ofMillis(2001)).build().toString()).contains("Max-Age=3");
        assertThat(Cookie.builder("a", "1").maxAge(Duration.ofSeconds(7)).build().toString()).contains("Max-Age=7");
        assertThat(Cookie.builder("a", "1").maxAge(Duration.ZERO).build().toString()).contains("Max-Age=0");
        assertThat(Cookie.builder("a", "1").maxAge(java.time.temporal.ChronoUnit.FOREVER.getDuration()).build().toString())
                .as("forever does not wrap to a deletion").contains("Max-Age=" + Long.MAX_VALUE);
        for (String name : new String[] {"$Path", "$Version", "$x"}) {
            assertThatThrownBy(() -> Cookie.builder(name, "1")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'$'");
        }
        assertThat(Cookie.builder("a$", "1").build().toString()).startsWith("a$=1");
        assertThat(Cookie.builder("a", "1").expires(Instant.parse("9999-12-31T23:59:59.999Z")).build().toString())
                .contains("Expires=Fri, 31 Dec 9999 23:59:59 GMT");
        assertThatThrownBy(() -> Cookie.builder("a", "1").expires(Instant.parse("+10000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SseEvent.of("r").withRetry(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry");
        assertThat(SseEvent.of("r").withRetry(SseEvent.MAX_RETRY).retry()).isEqualTo(Duration.ofDays(365));
    }
}
