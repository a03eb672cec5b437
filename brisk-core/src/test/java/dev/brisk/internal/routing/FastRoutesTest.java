package dev.brisk.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.StaticResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FastRoutesTest {
    private static final Pattern DATE_LINE = Pattern.compile(
            "\r\nDate: ((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                    + "\\d{4} \\d{2}:\\d{2}:\\d{2} GMT)\r\n");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static FastRoutes.Entry find(FastRoutes f, String path) {
        byte[] b = ascii(path);
        return f.find(b, 0, b.length);
    }

    private static final Map<String, StaticResponse> ROUTES = Map.of(
            "/", StaticResponse.text("root"),
            "/health", StaticResponse.text("OK"),
            "/hello", StaticResponse.json("{\"hello\":\"world\"}").withHeader("Cache-Control", "no-store"));

    @Test
    void hitsByASliceOfALargerArray() {
        FastRoutes f = new FastRoutes(ROUTES);
        byte[] line = ascii("GET /health HTTP/1.1\r\nGET /hello?x=1 HTTP/1.1\r\nGET / HTTP/1.1");
        FastRoutes.Entry health = f.find(line, 4, 11);
        assertThat(health).isNotNull();
        assertThat(str(health.bytes(false, FastRoutes.KEEP_ALIVE))).endsWith("\r\n\r\nOK");
        FastRoutes.Entry hello = f.find(line, 26, 32);
        assertThat(hello).isNotNull();
        assertThat(str(hello.bytes(false, FastRoutes.KEEP_ALIVE))).endsWith("\r\n\r\n{\"hello\":\"world\"}");
        int slash = str(line).lastIndexOf("/ HTTP");
        assertThat(str(f.find(line, slash, slash + 1).bytes(false, FastRoutes.KEEP_ALIVE))).endsWith("root");
        assertThat(f.isEmpty()).isFalse();
    }

    @Test
    void misses() {
        FastRoutes f = new FastRoutes(ROUTES);
        for (String miss : List.of("/healthz", "/health/", "/heal", "/HEALTH", "//", "", "/hello?x=1", "health",
                "/hellp", "/olleh")) {
            assertThat(find(f, miss)).as("'%s'", miss).isNull();
        }
        byte[] b = ascii("/health");
        assertThat(f.find(b, 0, 6)).as("a prefix of a key").isNull();
        assertThat(f.find(b, 1, 7)).isNull();
    }

    @Test
    void emptyTableFindsNothing() {
        FastRoutes f = new FastRoutes(Map.of());
        assertThat(f.isEmpty()).isTrue();
        assertThat(find(f, "/")).isNull();
        assertThat(find(f, "")).isNull();
    }

    @Test
    void manyRoutes() {
        Map<String, StaticResponse> routes = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            routes.put("/r/" + i, StaticResponse.text("body-" + i));
        }
        FastRoutes f = new FastRoutes(routes);
        for (int i = 0; i < 1000; i++) {
            FastRoutes.Entry e = find(f, "/r/" + i);
            assertThat(e).as("/r/%d", i).isNotNull();
            assertThat(str(e.bytes(false, FastRoutes.KEEP_ALIVE))).endsWith("\r\n\r\nbody-" + i);
            assertThat(find(f, "/s/" + i)).isNull();
            assertThat(find(f, "/r/" + i + "/")).isNull();
        }
        assertThat(find(f, "/r/1000")).isNull();
    }

    @Test
    void headVariantOmitsTheBodyButKeepsContentLength() {
        FastRoutes f = new FastRoutes(ROUTES);
        FastRoutes.Entry e = find(f, "/hello");
        for (int conn : new int[] {FastRoutes.KEEP_ALIVE, FastRoutes.CLOSE, FastRoutes.KEEP_ALIVE_1_0}) {
            byte[] get = e.bytes(false, conn);
            byte[] head = e.bytes(true, conn);
            String body = "{\"hello\":\"world\"}";
            if (!Arrays.equals(get, 0, head.length, head, 0, head.length)) {
                // the Date second ticked between the two calls
                get = e.bytes(false, conn);
                head = e.bytes(true, conn);
            }
            assertThat(str(get)).isEqualTo(str(head) + body);
            assertThat(str(head)).endsWith("\r\n\r\n").contains("\r\nContent-Length: " + body.length() + "\r\n");
        }
    }

    @Test
    void headLayout() {
        FastRoutes.Entry e = find(new FastRoutes(ROUTES), "/hello");
        String head = str(e.bytes(true, FastRoutes.KEEP_ALIVE));
        List<String> lines = List.of(head.split("\r\n", -1));
        assertThat(lines.get(0)).isEqualTo("HTTP/1.1 200 OK");
        assertThat(lines).contains("Content-Type: application/json", "Content-Length: 17", "Cache-Control: no-store");
        assertThat(lines.subList(lines.size() - 2, lines.size())).containsExactly("", "");
        assertThat(lines).filteredOn(l -> l.startsWith("Date: ")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.startsWith("Connection:")).isEmpty();
        assertThat(head.indexOf("\r\n\r\n")).isEqualTo(head.length() - 4);
    }

    @Test
    void connectionVariants() {
        FastRoutes.Entry e = find(new FastRoutes(ROUTES), "/health");
        assertThat(str(e.bytes(false, FastRoutes.KEEP_ALIVE))).doesNotContain("Connection:");
        assertThat(str(e.bytes(false, FastRoutes.CLOSE))).contains("\r\nConnection: close\r\n")
                .doesNotContain("keep-alive");
        assertThat(str(e.bytes(true, FastRoutes.CLOSE))).contains("\r\nConnection: close\r\n");
        assertThat(str(e.bytes(false, FastRoutes.KEEP_ALIVE_1_0))).contains("\r\nConnection: keep-alive\r\n")
                .doesNotContain("close");
        assertThat(str(e.bytes(true, FastRoutes.KEEP_ALIVE_1_0))).contains("\r\nConnection: keep-alive\r\n");
    }

    @Test
    void otherStatusesAndHeaders() {
        StaticResponse r = StaticResponse.of(404, "text/plain", ascii("nope")).withHeader("X-A", "1").withHeader("X-B", "2");
        String s = str(find(new FastRoutes(Map.of("/missing", r)), "/missing").bytes(false, FastRoutes.KEEP_ALIVE));
        assertThat(s).startsWith("HTTP/1.1 404 Not Found\r\n").contains("\r\nX-A: 1\r\nX-B: 2\r\n").endsWith("\r\n\r\nnope");
    }

    @Test
    void dateLineIsAnImfFixdateOfNow() {
        FastRoutes.Entry e = find(new FastRoutes(ROUTES), "/health");
        for (int variant = 0; variant < 6; variant++) {
            Instant before = Instant.now().minusSeconds(1);
            String s = str(e.bytes(variant % 2 == 1, variant / 2));
            Instant after = Instant.now().plusSeconds(1);
            Matcher m = DATE_LINE.matcher(s);
            assertThat(m.find()).as("IMF-fixdate Date line in %s", s).isTrue();
            Instant date = ZonedDateTime.parse(m.group(1), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            assertThat(date).isBetween(before.minus(Duration.ofSeconds(1)), after);
            assertThat(m.find()).as("one Date line only").isFalse();
        }
    }

    @Test
    void bodylessStatusesAreNeverSentWithABody() {
        for (int status : new int[] {204, 304}) {
            StaticResponse r;
            try {
                r = StaticResponse.of(status, "text/plain", ascii("oops"));
            } catch (IllegalArgumentException refused) {
                continue; // refusing such a response up front is fine too
            }
            FastRoutes.Entry e = find(new FastRoutes(Map.of("/x", r)), "/x");
            String get = str(e.bytes(false, FastRoutes.KEEP_ALIVE));
            assertThat(get).as("status %d", status).endsWith("\r\n\r\n").doesNotContain("oops");
            if (status == 204) {
                assertThat(get).doesNotContain("Content-Length");
            }
        }
    }

    @Test
    void anExtraHeaderGoesAfterTheOthersBeforeTheBody() {
        FastRoutes.Entry hello = find(new FastRoutes(ROUTES), "/hello");
        assertThat(hello.path()).isEqualTo("/hello");
        assertThat(hello.bodyLength(false)).isEqualTo(17);
        assertThat(hello.bodyLength(true)).isZero();
        for (int conn : new int[] {FastRoutes.KEEP_ALIVE, FastRoutes.CLOSE, FastRoutes.KEEP_ALIVE_1_0}) {
            for (boolean head : new boolean[] {false, true}) {
                String plain = str(hello.bytes(head, conn));
                String with = str(hello.bytesWith(head, conn, "X-Request-Id", "abc-1"));
                int blank = plain.indexOf("\r\n\r\n");
                assertThat(with).isEqualTo(plain.substring(0, blank + 2) + "X-Request-Id: abc-1\r\n\r\n"
                        + plain.substring(blank + 4));
                assertThat(with).endsWith(head ? "\r\n\r\n" : "\r\n\r\n{\"hello\":\"world\"}");
            }
        }
    }
}
