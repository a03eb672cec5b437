package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyBufferTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void growsPastItsInitialSizeAndKeepsTheBytesInOrder() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(10_000, 16);
        StringBuilder expected = new StringBuilder();
        byte[] src = bytes("--0123456789abcdefghijklmnopqrstuvwxyz--");
        for (int i = 0; i < 100; i++) {
            int len = i % 37;
            out.append(src, 2, len);
            expected.append(new String(src, 2, len, StandardCharsets.US_ASCII));
        }
        assertThat(out.size()).isEqualTo(expected.length());
        assertThat(new String(out.toArray(), StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void toArrayIsExactlyTheAppendedBytes() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(100, 16);
        assertThat(out.toArray()).isEmpty();
        out.append(bytes("abc"), 0, 3);
        assertThat(out.toArray()).containsExactly('a', 'b', 'c');
        out.append(bytes("0123456789abcdef"), 3, 13);
        assertThat(out.toArray()).hasSize(16).startsWith('a', 'b', 'c', '3').endsWith('f');
    }

    @Test
    void appendingPastTheLimitIs413AndAppendsNothing() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(10, 4);
        out.append(bytes("123456"), 0, 6);
        assertThatThrownBy(() -> out.append(bytes("abcde"), 0, 5))
                .isInstanceOfSatisfying(HttpParseException.class, e -> assertThat(e.status()).isEqualTo(413));
        assertThat(out.size()).isEqualTo(6);
        out.append(bytes("abcd"), 0, 4);
        assertThat(new String(out.toArray(), StandardCharsets.US_ASCII)).isEqualTo("123456abcd");
    }

    @Test
    void ensureRoomChecksAgainstWhatIsAlreadyThere() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(1000, 16);
        out.append(new byte[400], 0, 400);
        assertThatCode(() -> out.ensureRoom(600)).doesNotThrowAnyException();
        assertThatThrownBy(() -> out.ensureRoom(601))
                .isInstanceOfSatisfying(HttpParseException.class, e -> assertThat(e.status()).isEqualTo(413));
        assertThatThrownBy(() -> out.ensureRoom(Long.MAX_VALUE / 2)).isInstanceOf(HttpParseException.class);
    }

    @Test
    void limitBelowTheMinimumArraySize() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(5, 1024);
        out.append(bytes("hello"), 0, 5);
        assertThatThrownBy(() -> out.append(bytes("!"), 0, 1)).isInstanceOf(HttpParseException.class);
        assertThat(out.toArray()).containsExactly('h', 'e', 'l', 'l', 'o');
    }

    @Test
    void zeroLimitAcceptsOnlyEmptyAppends() throws HttpParseException {
        BodyBuffer out = new BodyBuffer(0, 16);
        out.append(new byte[3], 1, 0);
        assertThat(out.size()).isZero();
        assertThatThrownBy(() -> out.append(new byte[3], 0, 1)).isInstanceOf(HttpParseException.class);
    }
}
