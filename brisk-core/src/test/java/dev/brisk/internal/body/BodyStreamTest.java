package dev.brisk.internal.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The window's contract: bytes in order, never more than its room, and its memory given back once. */
class BodyStreamTest {
    private static final BodyStream.Feed NO_FEED = new BodyStream.Feed() {
        @Override
        public void more(BodyStream stream) {
        }

        @Override
        public void awaitBytes(BodyStream stream, CompletableFuture<Void> f) {
            throw new AssertionError("the test reads only what is there");
        }
    };

    @Test
    void bytesPastTheRoomAreRefusedAndTheUnreadOnesKept() throws Exception {
        ByteBudget budget = new ByteBudget(1 << 20);
        assertThat(budget.tryReserve(8)).isTrue();
        BodyStream s = new BodyStream(budget, NO_FEED, 100, 8);
        s.append(new byte[] {1, 2, 3, 4, 5, 6}, 0, 6);
        assertThat(s.room()).isEqualTo(2);
        assertThatThrownBy(() -> s.append(new byte[] {7, 8, 9}, 0, 3))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("beyond the stream's window");
        byte[] got = new byte[8];
        assertThat(s.read(got, 0, 8)).isEqualTo(6);
        assertThat(got).startsWith(1, 2, 3, 4, 5, 6);
        // the ring wraps: 8 more bytes fit once the first 6 are read
        s.append(new byte[] {10, 11, 12, 13, 14, 15, 16, 17}, 0, 8);
        s.end();
        assertThat(s.read(got, 0, 8)).isEqualTo(8);
        assertThat(got).containsExactly(10, 11, 12, 13, 14, 15, 16, 17);
        assertThat(s.read(got, 0, 8)).isEqualTo(-1);
        s.release();
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void overTheLimitIs413() throws IOException {
        BodyStream s = new BodyStream(new ByteBudget(1 << 20), NO_FEED, 4, 8);
        assertThatThrownBy(() -> s.append(new byte[5], 0, 5))
                .hasMessageContaining("larger than 4 bytes");
    }
}
