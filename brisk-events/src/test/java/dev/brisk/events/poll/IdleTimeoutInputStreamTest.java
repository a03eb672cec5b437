package dev.brisk.events.poll;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A feed body is bounded twice: by the time between two pieces (the read timeout), and by the time the
 * whole body takes, so a provider that trickles just inside the read timeout cannot hold the one poller
 * for as long as the size bound lets it. The watchdog's checks come from a timer, as in the poller.
 */
class IdleTimeoutInputStreamTest {
    /** A provider sending a byte every {@code gapMillis}, for ever; a wait interrupted is an I/O failure. */
    private static InputStream trickle(long gapMillis) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    Thread.sleep(gapMillis);
                } catch (InterruptedException e) {
                    throw new InterruptedIOException("interrupted");
                }
                return 'x';
            }
        };
    }

    /** Reads until the stream fails (at most 5 s): the failure's message, and how long it took. */
    private static String readUntilFailure(IdleTimeoutInputStream in, long[] millis) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        long t0 = System.nanoTime();
        try {
            timer.scheduleAtFixedRate(in::expired, 10, 10, TimeUnit.MILLISECONDS);
            while (System.nanoTime() - t0 < 5_000_000_000L) {
                in.read();
            }
            return "no failure in 5 s";
        } catch (IOException e) {
            return e.getMessage();
        } finally {
            millis[0] = (System.nanoTime() - t0) / 1_000_000;
            timer.shutdownNow();
            in.finish();
        }
    }

    @Test
    void aBodyTricklingInsideTheReadTimeoutIsCutAtItsTotalBound() {
        IdleTimeoutInputStream in = new IdleTimeoutInputStream(trickle(20), TimeUnit.SECONDS.toNanos(1),
                TimeUnit.MILLISECONDS.toNanos(300), Thread.currentThread());
        long[] millis = new long[1];
        assertThat(readUntilFailure(in, millis)).isEqualTo("the feed took longer than 300 ms to arrive");
        assertThat(millis[0]).isBetween(300L, 3_000L);
        assertThat(in.why()).isEqualTo("the feed took longer than 300 ms to arrive");
        assertThat(Thread.currentThread().isInterrupted()).as("the timeout's interrupt cleared").isFalse();
    }

    @Test
    void aStalledBodyIsCutAtTheReadTimeout() {
        IdleTimeoutInputStream in = new IdleTimeoutInputStream(trickle(10_000), TimeUnit.MILLISECONDS.toNanos(200),
                TimeUnit.SECONDS.toNanos(60), Thread.currentThread());
        long[] millis = new long[1];
        assertThat(readUntilFailure(in, millis)).isEqualTo("no data from the provider for 200 ms");
        assertThat(millis[0]).isBetween(200L, 3_000L);
    }

    @Test
    void theBodyBoundIsTwentyReadTimeoutsTheSizeAt256KibPerSecondAndAtLeastTenMinutes() {
        assertThat(FeedPoller.bodyBound(Duration.ofSeconds(30), 1 << 20)).isEqualTo(Duration.ofMinutes(10));
        assertThat(FeedPoller.bodyBound(Duration.ofMinutes(1), 1 << 20)).isEqualTo(Duration.ofMinutes(20));
        assertThat(FeedPoller.bodyBound(Duration.ofSeconds(30), 256L << 20)).isEqualTo(Duration.ofSeconds(1024));
    }
}
