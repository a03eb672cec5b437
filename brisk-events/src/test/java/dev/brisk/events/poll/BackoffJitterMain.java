package dev.brisk.events.poll;

import java.time.Duration;

/** Prints the first waits of the poller's backoff after failures, computed on the poller's kind of thread. */
public final class BackoffJitterMain {
    private BackoffJitterMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Backoff backoff = Backoff.jittered(Duration.ofSeconds(10), Duration.ofMinutes(5));
        StringBuilder line = new StringBuilder("delays");
        // a thread of its own, like the poller's loop: it never seeded anything itself
        Thread t = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 8; i++) {
                line.append(' ').append(backoff.delay(4).toMillis());
            }
        });
        t.join();
        System.out.println(line);
    }
}
