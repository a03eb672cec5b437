package dev.brisk.internal.web;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.HttpException;
import dev.brisk.internal.http.FuzzInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link Cookies} with Jazzer: {@code ./brisk fuzz --target cookies} fuzzes it;
 * the default test run (Jazzer's regression mode) runs it on the seeds of {@link #parse()} and on every
 * input kept in {@code src/test/resources/dev/brisk/internal/web/CookiesFuzzTestInputs/parse/}.
 *
 * <p>An input is a {@link FuzzInput} whose payload, read as Latin-1 and cut at each line feed, is the
 * request's {@code Cookie} header values (its selector and split points are not used). The outcome must
 * be what {@link #reference} finds, reading RFC 6265 4.2.1 with regular expressions (the class javadoc of
 * {@link Cookies} says where it is lenient and where strict): the same cookies in the same order, the
 * first of a name winning, or {@code 400} for more than {@link Cookies#MAX_COOKIES} well-formed pairs.
 */
class CookiesFuzzTest {
    static Stream<byte[]> parse() {
        List<byte[]> seeds = new ArrayList<>();
        for (String h : List.of("a=1; b=2", "a=1;b=\"2\"", " a = 1 ;\tb=2\t", "a=1, b=2", "$Version=1; a=1; $Path=/",
                "a=\"\"; b=\"; c=\"x", "a=1\na=2; b=3", "=1; a; a=", "x=\u00e9; y=a\\b", "n=v=w; ;;", "")) {
            seeds.add(FuzzInput.encode(0, new int[0], h.getBytes(StandardCharsets.ISO_8859_1)));
        }
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= Cookies.MAX_COOKIES; i++) {
            many.append("c").append(i).append("=1;");
        }
        seeds.add(FuzzInput.encode(0, new int[0], many.toString().getBytes(StandardCharsets.ISO_8859_1)));
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void parse(byte[] data) {
        List<String> headers = List.of(new String(FuzzInput.of(data).payload(), StandardCharsets.ISO_8859_1).split("\n", -1));
        String got;
        try {
            got = Cookies.parse(headers).toString();
        } catch (HttpException e) {
            got = String.valueOf(e.status());
        }
        String expected = reference(headers);
        if (!got.equals(expected)) {
            throw new AssertionError("Cookie " + headers.stream().map(CookiesFuzzTest::visible).toList() + ": " + got
                    + " but the reference " + expected);
        }
    }

    private static final String TCHAR = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
    private static final String OCTET = "[\\x21\\x23-\\x2B\\x2D-\\x3A\\x3C-\\x5B\\x5D-\\x7E]";
    private static final Pattern PAIR = Pattern.compile("(" + TCHAR + "+)=(?:\"(" + OCTET + "*)\"|(" + OCTET + "*))");
    private static final Pattern OBSOLETE = Pattern.compile("\\$(version|path|domain|port)", Pattern.CASE_INSENSITIVE);

    /** The cookies as {@link Map#toString} of a {@link LinkedHashMap}, or "400". */
    static String reference(List<String> headers) {
        Map<String, String> cookies = new LinkedHashMap<>();
        int count = 0;
        for (String h : headers) {
            for (String element : h.split(";", -1)) {
                Matcher m = PAIR.matcher(element.replaceAll("^[ \\t]+|[ \\t]+\\z", ""));
                if (!m.matches() || OBSOLETE.matcher(m.group(1)).matches()) {
                    continue; // malformed, or an RFC 2965 attribute: skipped
                }
                if (++count > Cookies.MAX_COOKIES) {
                    return "400";
                }
                cookies.putIfAbsent(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
            }
        }
        return cookies.toString();
    }

    private static String visible(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return b.toString();
    }
}
