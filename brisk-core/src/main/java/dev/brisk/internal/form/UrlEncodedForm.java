package dev.brisk.internal.form;

import dev.brisk.HttpException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses an {@code application/x-www-form-urlencoded} body: {@code name=value} pairs split on
 * {@code &}, {@code +} a space, {@code %XX} a byte, the bytes decoded in the body's charset (UTF-8
 * unless the {@code Content-Type} says otherwise). Strict: a {@code %} not followed by two hex digits,
 * or bytes that are not valid in the charset, are a 400 naming the fault, never a replacement
 * character; more pairs than {@code form-max-parts} are a 413; the decoded pairs are charged to the
 * request-body memory budget ({@link FormMemory}). Empty pairs ({@code a&&b}) are skipped,
 * a pair without {@code =} has the empty value. Stateless.
 */
final class UrlEncodedForm {
    private UrlEncodedForm() {
    }

    /**
     * {@return the fields, in the order first sent, unmodifiable}
     *
     * @param memory charged each pair's strings as they are decoded (a 503 when the budget is spent)
     */
    static Map<String, List<String>> parse(byte[] body, Charset charset, int maxPairs, FormMemory memory) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        byte[] scratch = new byte[Math.min(body.length, 256)];
        int pairs = 0;
        int from = 0;
        while (from <= body.length) {
            int end = indexOf(body, (byte) '&', from, body.length);
            if (end > from) {
                if (++pairs > maxPairs) {
                    throw new HttpException.PayloadTooLarge("Form has more than " + maxPairs + " fields");
                }
                int eq = indexOf(body, (byte) '=', from, end);
                String name = decode(body, from, eq, charset, scratch);
                String value = eq == end ? "" : decode(body, eq + 1, end, charset, scratch);
                memory.charge(memory.cost(name) + memory.cost(value) + FormMemory.ENTRY, "the form's fields");
                map.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            from = end + 1;
        }
        map.replaceAll((k, v) -> Collections.unmodifiableList(v));
        return Collections.unmodifiableMap(map);
    }

    private static int indexOf(byte[] b, byte c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return to;
    }

    private static String decode(byte[] b, int from, int to, Charset charset, byte[] scratch) {
        byte[] out = to - from <= scratch.length ? scratch : new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '+') {
                out[n++] = ' ';
            } else if (c == '%') {
                int hi = i + 2 < to ? Character.digit(b[i + 1], 16) : -1;
                int lo = i + 2 < to ? Character.digit(b[i + 2], 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new HttpException.BadRequest("Malformed percent-encoding in form field at byte " + i
                            + ": '%' must be followed by two hex digits");
                }
                out[n++] = (byte) (hi * 16 + lo);
                i += 2;
            } else {
                out[n++] = c;
            }
        }
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new HttpException.BadRequest("Form field at byte " + from + " is not valid " + charset.name()
                    + " once percent-decoded");
        }
    }
}
