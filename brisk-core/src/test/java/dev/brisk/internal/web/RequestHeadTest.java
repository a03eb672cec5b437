package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestHeadTest {
    /** A head at offset 7 of a larger buffer, as a connection's input buffer holds it. */
    private static final String PREFIX = "garbage";
    private static final String HEAD = "Host: x\r\nAccept: a\r\nx-tag: one\r\nX-TAG: two\r\nCookie: a=1; b=\"2\"\r\n"
            + "cookie: a=3;=bad; c\r\n";

    private final byte[] buffer = (PREFIX + HEAD).getBytes(StandardCharsets.ISO_8859_1);
    private final int base = PREFIX.length();
    private final int[] fields = offsets(HEAD);
    private final int count = fields.length / 4;

    /** Four offsets per line "name: value\r\n", relative to the head's start. */
    private static int[] offsets(String head) {
        int[] out = new int[64];
        int n = 0;
        int from = 0;
        while (from < head.length()) {
            int colon = head.indexOf(':', from);
            int end = head.indexOf("\r\n", from);
            out[n++] = from;
            out[n++] = colon;
            out[n++] = colon + 2;
            out[n++] = end;
            from = end + 2;
        }
        return Arrays.copyOf(out, n);
    }

    @Test
    void valuesAreFoundByNameCaseInsensitively() {
        assertThat(RequestHead.value(buffer, base, fields, count, "host")).isEqualTo("x");
        assertThat(RequestHead.value(buffer, base, fields, count, "X-Tag")).isEqualTo("one");
        assertThat(RequestHead.values(buffer, base, fields, count, "x-TAG")).containsExactly("one", "two");
        assertThat(RequestHead.value(buffer, base, fields, count, "X-Ta")).isNull();
        assertThat(RequestHead.values(buffer, base, fields, count, "Missing")).isEmpty();
    }

    @Test
    void namesAreListedOnceInTheOrderSent() {
        List<String> names = RequestHead.names(buffer, base, fields, count);
        assertThat(names).containsExactly("Host", "Accept", "x-tag", "Cookie");
    }

    @Test
    void cookiesFromEveryCookieHeaderFirstValueWinning() {
        Map<String, String> cookies = Cookies.parse(RequestHead.values(buffer, base, fields, count, "Cookie"));
        assertThat(cookies).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"));
    }
}
