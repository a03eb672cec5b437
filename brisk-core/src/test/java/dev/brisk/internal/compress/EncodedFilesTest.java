package dev.brisk.internal.compress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.Assertions;

/** The kept encodings: per content and coding, views of their own, the least recently used dropped at the bound. */
class EncodedFilesTest {
    private static ByteBuffer bytes(int n, int fill) {
        byte[] b = new byte[n + 8];
        java.util.Arrays.fill(b, (byte) fill);
        return ByteBuffer.wrap(b, 4, n); // a slice of a larger array: kept at its own size
    }

    @Test
    void keptPerContentAndCodingAsReadOnlyViewsOfTheirOwn() {
        EncodedFiles f = new EncodedFiles(1000 + EncodedFiles.ENTRY_OVERHEAD);
        assertThat(f.get("a", Coding.gzip(6))).isNull();
        ByteBuffer kept = f.put("a", Coding.gzip(6), bytes(100, 1));
        assertThat(kept.remaining()).isEqualTo(100);
        assertThat(f.bytes()).as("its bytes and its overhead").isEqualTo(100 + EncodedFiles.ENTRY_OVERHEAD);
        assertThat(f.get("a", Coding.gzip(1))).as("another level").isNull();
        assertThat(f.get("a", Coding.deflate(6))).as("another coding").isNull();
        ByteBuffer one = f.get("a", Coding.gzip(6));
        one.get(new byte[60]);
        ByteBuffer two = f.get("a", Coding.gzip(6));
        assertThat(two.remaining()).as("a reader's position is its own").isEqualTo(100);
        Assertions.assertThatThrownBy(() -> two.put(0, (byte) 9)).isInstanceOf(ReadOnlyBufferException.class);
        assertThat(f.hits()).isEqualTo(2);
        f.put("a", Coding.gzip(6), bytes(50, 2));
        assertThat(f.bytes()).as("replaced").isEqualTo(50 + EncodedFiles.ENTRY_OVERHEAD);
        assertThat(f.get("a", Coding.gzip(6)).get()).isEqualTo((byte) 2);
    }

    @Test
    void theLeastRecentlyUsedGoFirstAndWhatIsLargerThanTheBoundIsNotKept() {
        int o = EncodedFiles.ENTRY_OVERHEAD;
        EncodedFiles f = new EncodedFiles(3 * (100 + o));
        f.put("a", Coding.gzip(6), bytes(100, 1));
        f.put("b", Coding.gzip(6), bytes(100, 2));
        f.put("c", Coding.gzip(6), bytes(100, 3));
        assertThat(f.get("a", Coding.gzip(6))).isNotNull(); // a is now the most recent
        f.put("d", Coding.gzip(6), bytes(150, 4)); // drops b, then c
        assertThat(f.get("b", Coding.gzip(6))).isNull();
        assertThat(f.get("c", Coding.gzip(6))).isNull();
        assertThat(f.get("a", Coding.gzip(6))).isNotNull();
        assertThat(f.get("d", Coding.gzip(6))).isNotNull();
        assertThat(f.bytes()).isEqualTo(250 + 2 * o);
        ByteBuffer big = bytes(300 + 2 * o + 1, 5); // with its overhead, one byte over the bound
        assertThat(f.put("e", Coding.gzip(6), big)).as("not kept: handed back as it was").isSameAs(big);
        assertThat(f.bytes()).isEqualTo(250 + 2 * o);
        assertThat(new EncodedFiles(0).enabled()).isFalse();
    }
}
