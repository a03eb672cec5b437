package dev.brisk.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.SseEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bytes of an event: {@code retry} in whole milliseconds, never rounded down to a reconnect loop. */
class EventStreamFormatTest {
    private static String format(SseEvent e) {
        return new String(EventStream.format(e), StandardCharsets.UTF_8);
    }

    @Test
    void retryIsInMillisecondsRoundedUp() {
        assertThat(format(SseEvent.of("x").withRetry(Duration.ofMillis(1500)))).isEqualTo("retry: 1500\ndata: x\n\n");
        assertThat(format(SseEvent.of("x").withRetry(Duration.ofNanos(500)))).as("not retry: 0").startsWith("retry: 1\n");
        assertThat(format(SseEvent.of("x").withRetry(Duration.ofNanos(1_500_001)))).startsWith("retry: 2\n");
        assertThat(format(SseEvent.of("x").withRetry(Duration.ofSeconds(2)))).startsWith("retry: 2000\n");
        assertThat(format(SseEvent.of("x").withRetry(Duration.ZERO))).startsWith("retry: 0\n");
    }
}
