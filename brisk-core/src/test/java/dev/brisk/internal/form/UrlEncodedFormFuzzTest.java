package dev.brisk.internal.form;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.HttpException;
import dev.brisk.internal.http.FuzzInput;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link UrlEncodedForm} with Jazzer: {@code ./brisk fuzz --target urlencoded}
 * fuzzes it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #decode()} and
 * on every input kept in {@code src/test/resources/dev/brisk/internal/form/UrlEncodedFormFuzzTestInputs/decode/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks the body's charset ({@link #CHARSETS}) and the
 * most fields ({@link #MAX_PAIRS}); the payload is the body. The outcome must be what {@link #reference}
 * finds, reading the WHATWG urlencoded parser with the JDK's own pieces ({@link String#split}, a regular
 * expression for each escape, {@link java.net.URLDecoder}) and a charset check of its own (the bytes are
 * valid when decoding them with replacement and encoding the text again gives the same bytes): the same
 * fields in the same order, or the same status ({@code 400} for a malformed escape or bytes not valid in
 * the charset, {@code 413} for too many fields), whichever comes first in the body.
 */
class UrlEncodedFormFuzzTest {
    static final Charset[] CHARSETS = {StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1, Charset.forName("windows-1252")};
    static final int[] MAX_PAIRS = {1000, 1, 3};

    static Stream<byte[]> decode() {
        List<byte[]> seeds = new ArrayList<>();
        for (String body : List.of("a=1&b=2", "a=1+2&a=%C3%A9%26%3D&&empty=&bare&%E2%82%AC=euro", "", "&&&", "=",
                "%", "%4", "%4g=1", "a=%", "x=%80", "x=%C3", "x=%ED%A0%80", "%81=1", "a=b=c", "+=+", "a&b&c&d")) {
            for (int s = 0; s < CHARSETS.length * MAX_PAIRS.length; s += 2) {
                seeds.add(FuzzInput.encode(s, new int[0], body.getBytes(StandardCharsets.ISO_8859_1)));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        Charset charset = CHARSETS[in.selector() % CHARSETS.length];
        int maxPairs = MAX_PAIRS[(in.selector() / CHARSETS.length) % MAX_PAIRS.length];
        String got;
        try {
            got = UrlEncodedForm.parse(in.payload(), charset, maxPairs, new FormMemory(null)).toString();
        } catch (HttpException e) {
            got = String.valueOf(e.status());
        }
        String expected = reference(in.payload(), charset, maxPairs);
        if (!got.equals(expected)) {
            throw new AssertionError("body " + Arrays.toString(in.payload()) + " in " + charset + ", at most " + maxPairs
                    + " fields: " + got + " but the reference " + expected);
        }
    }

    /** The fields as {@link Map#toString} of a {@link LinkedHashMap} of lists, or "400" / "413". */
    static String reference(byte[] body, Charset charset, int maxPairs) {
        String text = new String(body, StandardCharsets.ISO_8859_1); // one char per byte, so escapes stay bytes
        Map<String, List<String>> fields = new LinkedHashMap<>();
        int pairs = 0;
        for (String pair : text.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            if (++pairs > maxPairs) {
                return "413";
            }
            int eq = pair.indexOf('=');
            String name = referenceDecode(eq < 0 ? pair : pair.substring(0, eq), charset);
            if (name == null) {
                return "400";
            }
            String value = eq < 0 ? "" : referenceDecode(pair.substring(eq + 1), charset);
            if (value == null) {
                return "400";
            }
            fields.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return fields.toString();
    }

    /** {@code s} ('+' a space, "%XX" a byte) in {@code charset}, or null when it is malformed or not valid there. */
    private static String referenceDecode(String s, Charset charset) {
        if (s.replaceAll("%[0-9A-Fa-f]{2}", "").indexOf('%') >= 0) {
            return null; // a '%' that does not begin an escape
        }
        // URLDecoder needs every byte as an escape to keep raw bytes above 127 as bytes of the charset
        StringBuilder escaped = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                escaped.append(c);
            } else if (c == '%') {
                escaped.append(s, i, i + 3); // checked above: two hex digits follow
                i += 2;
            } else {
                escaped.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        String decoded = java.net.URLDecoder.decode(escaped.toString(), charset);
        byte[] raw = rawBytes(s);
        return Arrays.equals(decoded.getBytes(charset), raw) ? decoded : null;
    }

    /** The bytes {@code s} stands for: '+' a space, "%XX" its byte, any other char its own Latin-1 byte. */
    private static byte[] rawBytes(String s) {
        byte[] out = new byte[s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                out[n++] = ' ';
            } else if (c == '%') {
                out[n++] = (byte) Integer.parseInt(s, i + 1, i + 3, 16);
                i += 2;
            } else {
                out[n++] = (byte) c;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
