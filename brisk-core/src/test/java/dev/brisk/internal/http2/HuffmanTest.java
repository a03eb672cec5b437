package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HuffmanTest {
    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    private static String decode(byte[] in) {
        byte[] out = new byte[Huffman.maxDecoded(in.length)];
        int end = Huffman.decode(in, 0, in.length, out, 0);
        return end < 0 ? null : new String(out, 0, end, StandardCharsets.ISO_8859_1);
    }

    private static byte[] encode(String s) {
        byte[] out = new byte[Huffman.encodedLength(s, false)];
        int end = Huffman.encode(s, false, out, 0);
        assertThat(end).isEqualTo(out.length);
        return out;
    }

    /** The Huffman-coded strings of RFC 7541 Appendix C.4 and C.6. */
    @ParameterizedTest
    @CsvSource({
        "www.example.com, f1e3 c2e5 f23a 6ba0 ab90 f4ff",
        "no-cache, a8eb 1064 9cbf",
        "custom-key, 25a8 49e9 5ba9 7d7f",
        "custom-value, 25a8 49e9 5bb8 e8b4 bf",
        "302, 6402",
        "private, aec3 771a 4b",
        "'Mon, 21 Oct 2013 20:13:21 GMT', d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff",
        "https://www.example.com, 9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3",
    })
    void encodesAndDecodesTheRfcExamples(String text, String coded) {
        assertThat(encode(text)).isEqualTo(hex(coded));
        assertThat(decode(hex(coded))).isEqualTo(text);
    }

    @Test
    void everyByteRoundTrips() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            byte[] b = new byte[r.nextInt(64)];
            r.nextBytes(b);
            String s = new String(b, StandardCharsets.ISO_8859_1);
            assertThat(decode(encode(s))).isEqualTo(s);
        }
        StringBuilder all = new StringBuilder();
        for (int c = 0; c < 256; c++) {
            all.append((char) c);
        }
        assertThat(decode(encode(all.toString()))).isEqualTo(all.toString());
    }

    @Test
    void lowerCasesWhileEncodingWhenAsked() {
        String name = "X-Request-Id";
        byte[] out = new byte[Huffman.encodedLength(name, true)];
        Huffman.encode(name, true, out, 0);
        assertThat(decode(out)).isEqualTo("x-request-id");
    }

    @Test
    void refusesBadPadding() {
        // 'a' is 00011 (5 bits): padding must be the 3 high bits of EOS, all ones
        assertThat(decode(new byte[] {(byte) 0b00011111})).isEqualTo("a");
        assertThat(decode(new byte[] {(byte) 0b00011000})).as("padded with zeros").isNull();
        assertThat(decode(new byte[] {(byte) 0b00011111, (byte) 0xff})).as("padding of 11 bits").isNull();
        assertThat(decode(new byte[] {(byte) 0xff})).as("8 bits of padding alone").isNull();
    }

    @Test
    void refusesTheEndOfStringSymbol() {
        // EOS is 30 ones: four bytes of ones hold it whole
        assertThat(decode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff})).isNull();
    }

    @Test
    void emptyDecodesToEmpty() {
        assertThat(decode(new byte[0])).isEmpty();
    }
}
