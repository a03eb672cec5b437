package dev.brisk.events.poll;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.ChildJvm;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void intervalWhileHealthyThenExponentialWithJitterUpToTheCap() {
        Backoff b = new Backoff(Duration.ofSeconds(10), Duration.ofMinutes(5), new Random(1));
        assertThat(b.delay(0)).isEqualTo(Duration.ofSeconds(10));
        for (int i = 0; i < 200; i++) {
            assertThat(b.delay(1)).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(10));
            assertThat(b.delay(2)).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(20));
            assertThat(b.delay(4)).isBetween(Duration.ofSeconds(40), Duration.ofSeconds(80));
            assertThat(b.delay(10)).isBetween(Duration.ofMinutes(5).dividedBy(2), Duration.ofMinutes(5));
            assertThat(b.delay(1_000)).isBetween(Duration.ofMinutes(5).dividedBy(2), Duration.ofMinutes(5));
        }
        // jitter really spreads instances apart
        assertThat(new java.util.HashSet<>(java.util.stream.IntStream.range(0, 50).mapToObj(i -> b.delay(3)).toList()))
                .hasSizeGreaterThan(10);
    }

    @Test
    void instancesInDifferentProcessesDoNotBackOffInLockstep() throws Exception {
        String first;
        String second;
        try (ChildJvm a = new ChildJvm(BackoffJitterMain.class.getName(), Map.of(), "-Xmx64m");
             ChildJvm b = new ChildJvm(BackoffJitterMain.class.getName(), Map.of(), "-Xmx64m")) {
            first = a.await(l -> l.startsWith("delays "), 60);
            second = b.await(l -> l.startsWith("delays "), 60);
        }
        assertThat(first.split(" ")).hasSize(9);
        assertThat(first).as("two JVMs started alike").isNotEqualTo(second);
    }
}
