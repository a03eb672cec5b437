package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** {@link SizeLimitedInputStream}. */
class FeedSizeLimitTest {

    @Test
    void passesUpToTheBound() throws IOException {
        SizeLimitedInputStream in = new SizeLimitedInputStream(new ByteArrayInputStream(new byte[10]), 10);

        assertThat(in.readAllBytes()).hasSize(10);
        assertThat(in.count()).isEqualTo(10);
        assertThat(in.exceeded()).isFalse();
        assertThat(in.read()).isEqualTo(-1);
    }

    @Test
    void failsPastTheBoundAndStaysFailed() throws IOException {
        CountingSource source = new CountingSource(1000);
        SizeLimitedInputStream in = new SizeLimitedInputStream(source, 10);

        assertThat(in.read(new byte[8], 0, 8)).isEqualTo(8);
        assertThat(in.read()).isZero();
        assertThat(in.read()).isZero();
        assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessage("feed is larger than 10 bytes");
        assertThat(in.exceeded()).isTrue();
        assertThatThrownBy(() -> in.read(new byte[100], 0, 100)).isInstanceOf(IOException.class);
        assertThat(source.served).isEqualTo(11); // never more than one byte past the bound
    }

    @Test
    void aLargeReadIsCappedJustPastTheBound() {
        CountingSource source = new CountingSource(1000);
        SizeLimitedInputStream in = new SizeLimitedInputStream(source, 10);

        assertThatThrownBy(() -> in.read(new byte[500], 0, 500)).isInstanceOf(IOException.class);
        assertThat(source.served).isEqualTo(11);
    }

    @Test
    void aZeroBoundAllowsOnlyAnEmptyStream() throws IOException {
        assertThat(new SizeLimitedInputStream(new ByteArrayInputStream(new byte[0]), 0).read()).isEqualTo(-1);
        assertThatThrownBy(() -> new SizeLimitedInputStream(new ByteArrayInputStream(new byte[1]), 0).read())
                .isInstanceOf(IOException.class);
    }

    @Test
    void closingLeavesTheUnderlyingStreamOpen() throws IOException {
        CountingSource source = new CountingSource(5);
        new SizeLimitedInputStream(source, 10).close();
        assertThat(source.closed).isFalse();
    }

    /** Serves zero bytes and counts them. */
    private static final class CountingSource extends InputStream {
        private final int size;
        int served;
        boolean closed;

        CountingSource(int size) {
            this.size = size;
        }

        @Override
        public int read() {
            return served < size ? (served++ & 0) : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = Math.min(len, size - served);
            if (n <= 0) {
                return -1;
            }
            served += n;
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
