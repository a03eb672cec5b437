package dev.brisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StaticResponseTest {

    @Test
    void fieldValuesLoseWhiteSpaceAtTheirEndsAndControlsAreRefused() {
        StaticResponse r = StaticResponse.of(200, " text/plain \t", new byte[] {'x'}).withHeader("X-A", "\t a b ");
        assertThat(r.contentType()).isEqualTo("text/plain");
        assertThat(r.headers()).containsExactly("X-A", "a b");
        assertThatThrownBy(() -> r.withHeader("X-B", " a\r\nb ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStaticMountsFieldValuesLoseWhiteSpaceAtTheirEndsToo() {
        StaticFiles f = StaticFiles.classpath("/public").cacheControl(" public, max-age=60 ").contentType("md", "text/markdown\t");
        assertThat(f.cacheControl()).isEqualTo("public, max-age=60");
        assertThat(f.contentTypes()).containsEntry("md", "text/markdown");
    }
}
