package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Allowed CORS origins: normalization of what is configured, strict matching of what is sent. */
class OriginsTest {
    private final Origins origins = Origins.of(List.of("https://example.com", "HTTP://Local.Test:8080"),
            List.of("https://*.example.com", "http://localhost:*", "https://*.apps.test:*"));

    @Test
    void exactOriginsMatchTheirSerializedForm() {
        assertThat(origins.allows("https://example.com")).isTrue();
        assertThat(origins.allows("http://local.test:8080")).isTrue();
        assertThat(origins.allows("http://local.test")).isFalse();
        assertThat(origins.allows("http://example.com")).isFalse();
    }

    @Test
    void patternsMatchSubdomainsAndPorts() {
        assertThat(origins.allows("https://a.example.com")).isTrue();
        assertThat(origins.allows("https://a.b-c.example.com")).isTrue();
        assertThat(origins.allows("http://localhost")).isTrue();
        assertThat(origins.allows("http://localhost:5173")).isTrue();
        assertThat(origins.allows("https://x.apps.test")).isTrue();
        assertThat(origins.allows("https://x.apps.test:8443")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com.evil.org", "https://evilexample.com", "https://a.example.com.evil.org",
            "https://a.example.com@evil.org", "https://evil.org#.example.com", "https://evil.org/.example.com",
            "https://evil.org?.example.com", "https://a.example.com.", "https://.example.com", "https://a..example.com",
            "http://a.example.com", "https://a.example.com:8443", "https://a.example.com:443", "HTTPS://A.EXAMPLE.COM",
            "https://a.example.com/", "https://a.example.com ", " https://a.example.com", "https://a_b.example.com",
            "https://-a.example.com", "https://a%2eexample.com", "https://a.example.com:0", "https://a.example.com:99999",
            "null", "NULL", "", "*", "https://example.com/", "https://example.com:443", "https://example.com,https://x.io",
            "http://localhost.evil.org", "http://evil-localhost:80", "http://localhost:080", "http://localhost:",
            "http://[::1]:8080", "file://", "https://example.com\t"})
    void lookalikesAndMalformedOriginsNeverMatch(String origin) {
        assertThat(origins.allows(origin)).as(origin).isFalse();
    }

    @Test
    void nullIsNeverAllowed() {
        assertThat(origins.allows(null)).isFalse();
    }

    @Test
    void configuredOriginsAreNormalized() {
        assertThat(Origins.normalize("HTTPS://Example.COM:443")).isEqualTo("https://example.com");
        assertThat(Origins.normalize("http://example.com:80")).isEqualTo("http://example.com");
        assertThat(Origins.normalize("http://example.com:443")).isEqualTo("http://example.com:443");
        assertThat(Origins.normalize("http://[::1]:8080")).isEqualTo("http://[::1]:8080");
        assertThat(Origins.normalize("chrome-extension://abcdef")).isEqualTo("chrome-extension://abcdef");
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "Null", "*", "https://example.com/", "https://example.com/app", "example.com",
            "https://user@example.com", "https://example.com?x", "https://*.example.com", "https://", "https://a..b",
            "https://example.com:99999", ""})
    void badConfiguredOriginsAreRefused(String origin) {
        assertThatThrownBy(() -> Origins.normalize(origin)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://*.com", "https://*", "https://*example.com", "https://a.*.example.com",
            "*://example.com", "https://example.*", "https://example.com", "https://*.example.com/", "https://*.[::1]",
            "https://*.example.com:x*", "",
            "http://*.0.0.1", "http://*.168.1.1:*", "https://*.1"})
    void badPatternsAreRefused(String pattern) {
        assertThatThrownBy(() -> Origins.checkPattern(pattern)).isInstanceOf(IllegalArgumentException.class);
    }
}
