package dev.brisk.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.HttpException;
import org.junit.jupiter.api.Test;

class RequestPathTest {
    @Test
    void splitsIntoSegmentsAndNotesATrailingSlash() {
        assertThat(RequestPath.parse("a/b.txt", false).segments()).containsExactly("a", "b.txt");
        assertThat(RequestPath.parse("a//b/", false).segments()).containsExactly("a", "b");
        assertThat(RequestPath.parse("a//b/", false).trailingSlash()).isTrue();
        assertThat(RequestPath.parse("", false).segments()).isEmpty();
        assertThat(RequestPath.parse("x", false).last()).isEqualTo("x");
        assertThat(RequestPath.parse("%2e%2e", false).segments()).as("decoded once only: a name").containsExactly("%2e%2e");
        assertThat(RequestPath.parse("..a/a..", true).segments()).containsExactly("..a", "a..");
        assertThat(RequestPath.parse("..a", false)).as("a leading dot: hidden").isNull();
    }

    @Test
    void refusesWhatCouldLeaveTheRoot() {
        for (String p : new String[] {"..", ".", "a/../b", "a/./b", "../x", "a/..", "a\\b", "..\\x", "a\u0000b",
                "a\u001fb", "a\u007fb", "\uFFFD\uFFFD/x"}) {
            assertThatThrownBy(() -> RequestPath.parse(p, true)).as(p).isInstanceOf(HttpException.BadRequest.class);
        }
    }

    @Test
    void hiddenSegmentsAreNotFoundUnlessServed() {
        assertThat(RequestPath.parse(".env", false)).isNull();
        assertThat(RequestPath.parse("a/.git/config", false)).isNull();
        assertThat(RequestPath.parse(".env", true).segments()).containsExactly(".env");
        assertThatThrownBy(() -> RequestPath.parse(".git/../x", false)).as("a hidden one is still checked")
                .isInstanceOf(HttpException.BadRequest.class);
    }

    @Test
    void encodesASegmentForALocation() {
        assertThat(RequestPath.encodeSegment("sub")).isEqualTo("sub");
        assertThat(RequestPath.encodeSegment("a b:c?")).isEqualTo("a%20b%3Ac%3F");
        assertThat(RequestPath.encodeSegment("\u00fc")).isEqualTo("%C3%BC");
    }
}
