package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestIdsTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "abc-123", "0af7651916cd43dd8448eb211c80319c", "trace_id.span:01/x+y=@z",
            "A-Z_a-z.0-9"})
    void safeIdsAreKept(String id) {
        assertThat(RequestIds.isValid(id)).isTrue();
        assertThat(find("X-Request-Id", id)).isEqualTo(id);
        assertThat(find("x-request-ID", id)).as("the name is case-insensitive").isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a\tb", "a\"b", "a;b", "a,b", "<script>", "a\\b", "é", "a\u0000b", "a%0d%0a"})
    void anythingElseIsRefused(String id) {
        assertThat(RequestIds.isValid(id)).isFalse();
        assertThat(find("X-Request-Id", id)).isNull();
    }

    @Test
    void atMost128Characters() {
        assertThat(RequestIds.isValid("x".repeat(128))).isTrue();
        assertThat(RequestIds.isValid("x".repeat(129))).isFalse();
        assertThat(find("X-Request-Id", "x".repeat(129))).isNull();
        assertThat(RequestIds.isValid(null)).isFalse();
    }

    @Test
    void nonAsciiBytesAreRefused() {
        byte[] head = "X-Request-Id: ab\u00ffc".getBytes(StandardCharsets.ISO_8859_1);
        int[] fields = {0, 12, 14, head.length};
        assertThat(RequestIds.incoming(head, 0, fields, 1)).isNull();
    }

    @Test
    void theFirstOfSeveralIsUsedAndOtherHeadersAreIgnored() {
        String head = "Host: x\r\nX-Request-Ids: no\r\nX-Request-Id: first\r\nX-Request-Id: second\r\n";
        byte[] b = ("GARBAGE" + head).getBytes(StandardCharsets.ISO_8859_1);
        int[] fields = fields(head); // relative to the request start, which is at 7
        assertThat(RequestIds.incoming(b, 7, fields, 4)).isEqualTo("first");
        assertThat(RequestIds.incoming(b, 7, fields, 2)).isNull();
        assertThat(RequestIds.incomingOrNew(b, 7, fields, 2)).isNotNull().isNotEqualTo("no");
    }

    @Test
    void generatedIdsAreValidAndUnique() {
        Set<String> seen = new HashSet<>();
        String first = RequestIds.generate();
        String prefix = first.substring(0, first.indexOf('-') + 1);
        for (int i = 0; i < 10_000; i++) {
            String id = RequestIds.generate();
            assertThat(RequestIds.isValid(id)).isTrue();
            assertThat(id).startsWith(prefix).hasSizeLessThanOrEqualTo(13 + 16);
            assertThat(seen.add(id)).isTrue();
        }
        assertThat(prefix).matches("[0-9a-f]{12}-");
    }

    private static String find(String name, String value) {
        String head = name + ": " + value + "\r\n";
        byte[] b = head.getBytes(StandardCharsets.UTF_8);
        int colon = name.length();
        int[] fields = {0, colon, colon + 2, b.length - 2};
        return RequestIds.incoming(b, 0, fields, 1);
    }

    /** Field offsets for CRLF-separated {@code name: value} lines. */
    private static int[] fields(String head) {
        String[] lines = head.split("\r\n");
        int[] f = new int[lines.length * 4];
        int at = 0;
        for (int i = 0; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            f[i * 4] = at;
            f[i * 4 + 1] = at + colon;
            f[i * 4 + 2] = at + colon + 2;
            f[i * 4 + 3] = at + lines[i].length();
            at += lines[i].length() + 2;
        }
        return f;
    }
}
