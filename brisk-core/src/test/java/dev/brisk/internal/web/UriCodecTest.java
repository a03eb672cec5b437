package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.HttpException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UriCodecTest {

    /** What {@link UriCodec#unsafePath} says of {@code path}'s escapes, judged as the decoder judges them. */
    private static void agreesWithTheDecoder(String path) {
        byte[] b = path.getBytes(StandardCharsets.ISO_8859_1);
        boolean decodes;
        try {
            UriCodec.decode(path, false);
            decodes = true;
        } catch (HttpException.BadRequest e) {
            decodes = false;
        }
        assertThat(UriCodec.unsafePath(b, 0, b.length) == UriCodec.MALFORMED_UTF8).as(path).isEqualTo(!decodes);
    }

    @Test
    void aPathsEscapesAreUtf8ExactlyWhenTheStrictDecoderTakesThem() {
        String[] edges = {"%C2%80", "%C1%BF", "%C0%80", "%E0%A0%80", "%E0%9F%BF", "%ED%9F%BF", "%ED%A0%80",
            "%EF%BF%BF", "%F0%90%80%80", "%F0%8F%BF%BF", "%F4%8F%BF%BF", "%F4%90%80%80", "%F5%80%80%80",
            "%80", "%BF", "%FE", "%FF", "%C3", "%E2%82", "%C3%A9a", "a%C3", "%C3%28", "%E2%28%A1", "caf%C3%A9"};
        for (String e : edges) {
            agreesWithTheDecoder("/w/" + e);
            agreesWithTheDecoder("/" + e + "/x");
        }
        Random random = new Random(7);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder p = new StringBuilder("/");
            int n = 1 + random.nextInt(5);
            for (int i = 0; i < n; i++) {
                int v = random.nextInt(4) == 0 ? 'A' + random.nextInt(58) : 0x80 + random.nextInt(0x80); // no NUL, dot or slash
                if (v < 0x80 && v >= 'a' && v <= 'z') {
                    p.append((char) v);
                } else {
                    p.append('%').append(String.format("%02X", v));
                }
            }
            agreesWithTheDecoder(p.toString());
        }
    }
}
