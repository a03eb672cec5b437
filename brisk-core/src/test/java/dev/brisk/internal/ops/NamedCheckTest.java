package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NamedCheckTest {
    private static long in(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void eachAnswerHasItsOutcome() {
        assertThat(check(() -> true)).isEqualTo(NamedCheck.Outcome.UP);
        assertThat(check(() -> false)).isEqualTo(NamedCheck.Outcome.DOWN);
        assertThat(check(() -> {
            throw new java.io.IOException("no route to host");
        })).isEqualTo(NamedCheck.Outcome.ERROR);
        assertThat(check(() -> {
            throw new StackOverflowError();
        })).as("errors too").isEqualTo(NamedCheck.Outcome.ERROR);
    }

    private static NamedCheck.Outcome check(dev.brisk.HealthCheck c) {
        NamedCheck n = new NamedCheck("c", c);
        return n.await(n.start(), in(5_000));
    }

    @Test
    void aRunInProgressIsSharedAndANewOneStartsOnlyAfterIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        NamedCheck n = new NamedCheck("slow", () -> {
            runs.incrementAndGet();
            return release.await(10, TimeUnit.SECONDS);
        });
        CompletableFuture<Boolean> first = n.start();
        assertThat(n.start()).isSameAs(first);
        assertThat(n.await(first, in(50))).isEqualTo(NamedCheck.Outcome.TIMEOUT);
        assertThat(n.await(n.start(), System.nanoTime())).as("a deadline already past").isEqualTo(NamedCheck.Outcome.TIMEOUT);
        assertThat(n.start()).isSameAs(first);

        release.countDown();
        assertThat(n.await(first, in(5_000))).isEqualTo(NamedCheck.Outcome.UP);
        assertThat(runs.get()).isEqualTo(1);
        CompletableFuture<Boolean> second = n.start();
        assertThat(second).isNotSameAs(first);
        assertThat(n.await(second, in(5_000))).isEqualTo(NamedCheck.Outcome.UP);
        assertThat(runs.get()).isEqualTo(2);
    }
}
