package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiTest {
    private static final String TCHAR_SPECIALS = "!#$%&'*+-.^_`|~";

    @Test
    void tcharIsExactlyTheRfc9110TokenSet() {
        for (int c = 0; c < 256; c++) {
            boolean expected = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || (c < 128 && TCHAR_SPECIALS.indexOf(c) >= 0);
            assertThat(Ascii.isTchar(c)).as("byte %d", c).isEqualTo(expected);
            assertThat(Ascii.isTchar((byte) c)).as("signed byte %d", (byte) c).isEqualTo(expected);
        }
    }

    @Test
    void fieldCharsAreVisibleAsciiObsTextSpaceAndTab() {
        for (int c = 0; c < 256; c++) {
            boolean expected = c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7e) || c >= 0x80;
            assertThat(Ascii.isFieldChar((byte) c)).as("byte %d", c).isEqualTo(expected);
        }
    }

    @Test
    void targetCharsAreVisibleAsciiOnly() {
        for (int c = 0; c < 256; c++) {
            boolean expected = c >= 0x21 && c <= 0x7e;
            assertThat(Ascii.isTargetChar((byte) c)).as("byte %d", c).isEqualTo(expected);
        }
    }

    @Test
    void equalsIgnoreCaseComparesAgainstLowerCase() {
        byte[] b = "xxContent-LENGTHxx".getBytes(StandardCharsets.US_ASCII);
        assertThat(Ascii.equalsIgnoreCase(b, 2, 14, "content-length")).isTrue();
        assertThat(Ascii.equalsIgnoreCase(b, 2, 13, "content-length")).isFalse();
        assertThat(Ascii.equalsIgnoreCase(b, 2, 14, "content-lengtx")).isFalse();
        assertThat(Ascii.equalsIgnoreCase(b, 0, 0, "")).isTrue();
        // only ASCII letters fold: '@' (0x40) and '[' (0x5b) are not letters
        byte[] edge = {'@', '['};
        assertThat(Ascii.equalsIgnoreCase(edge, 0, 2, "`{")).isFalse();
    }

    @Test
    void latin1DecodesEveryByte() {
        byte[] b = {'a', (byte) 0xe9, (byte) 0xff, 'z'};
        assertThat(Ascii.latin1(b, 1, 3)).isEqualTo("\u00e9\u00ff");
        assertThat(Ascii.latin1(b, 0, 0)).isEmpty();
    }

}
