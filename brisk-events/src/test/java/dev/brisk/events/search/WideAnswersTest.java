package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The wide-render threads and their bound on answers in flight, with real threads. */
class WideAnswersTest {
    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
    }

    @Test
    void rendersOnItsOwnThreadsAndTheStreamWaitsForTheResult() throws Exception {
        try (WideAnswers wide = new WideAnswers(1, 4)) {
            AtomicReference<String> thread = new AtomicReference<>();
            CountDownLatch go = new CountDownLatch(1);
            InputStream body = wide.submit(() -> {
                thread.set(Thread.currentThread().getName());
                go.await(10, TimeUnit.SECONDS);
                return ascii("0123456789");
            });
            assertThat(body).isNotNull();
            AtomicReference<String> read = new AtomicReference<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                byte[] buf = new byte[4];
                StringBuilder sb = new StringBuilder();
                try {
                    for (int n; (n = body.read(buf, 0, buf.length)) >= 0; ) {
                        sb.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
                    }
                } catch (IOException e) {
                    sb.append(e);
                }
                read.set(sb.toString());
            });
            // the reader blocks on the render: it waits, it does not fail or spin
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reader.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(reader.getState()).isEqualTo(Thread.State.WAITING);
            assertThat(read.get()).isNull();
            go.countDown();
            reader.join(10_000);
            assertThat(read.get()).isEqualTo("0123456789");
            assertThat(thread.get()).startsWith("events-wide-render-");
            assertThat(wide.inFlight()).as("sent, but not yet closed").isEqualTo(1);
            body.close();
            body.close(); // a second close gives nothing back twice
            assertThat(wide.inFlight()).isZero();
        }
    }

    @Test
    void answersInFlightAreBoundedUntilTheirStreamsClose() throws Exception {
        try (WideAnswers wide = new WideAnswers(1, 2)) {
            InputStream a = wide.submit(() -> ascii("a"));
            InputStream b = wide.submit(() -> ascii("b"));
            // both rendered already, neither sent: their bodies still count
            assertThat(a.read()).isEqualTo('a');
            assertThat(b.read()).isEqualTo('b');
            assertThat(wide.submit(() -> ascii("c"))).isNull();
            assertThat(wide.refused()).isEqualTo(1);
            assertThat(wide.inFlight()).isEqualTo(2);
            a.close();
            InputStream c = wide.submit(() -> ascii("c"));
            assertThat(c).isNotNull();
            assertThat(c.read()).isEqualTo('c');
            b.close();
            c.close();
            assertThat(wide.inFlight()).isZero();
            assertThat(wide.admitted()).isEqualTo(3);
        }
    }

    @Test
    void closingBeforeTheRenderCancelsItAndAFailedRenderFailsTheStream() throws Exception {
        try (WideAnswers wide = new WideAnswers(1, 4)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            InputStream stuck = wide.submit(() -> {
                started.countDown();
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return ascii("late");
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            stuck.close(); // the connection went away: the render thread is freed
            assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(wide.inFlight()).isZero();

            InputStream failed = wide.submit(() -> {
                throw new IllegalStateException("boom");
            });
            assertThatThrownBy(failed::read).isInstanceOf(IOException.class).hasMessageContaining("render failed")
                    .hasRootCauseMessage("boom");
            failed.close();
            assertThat(wide.inFlight()).isZero();
        }
    }

    @Test
    void closingStopsWaitingStreams() throws Exception {
        WideAnswers wide = new WideAnswers(1, 4);
        CountDownLatch started = new CountDownLatch(1);
        InputStream running = wide.submit(() -> {
            started.countDown();
            Thread.sleep(30_000);
            return ascii("never");
        });
        InputStream queued = wide.submit(() -> ascii("never run"));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        wide.close();
        assertThatThrownBy(running::read).isInstanceOf(IOException.class);
        assertThatThrownBy(queued::read).isInstanceOf(IOException.class).hasMessageContaining("cancelled");
        running.close();
        queued.close();
        assertThat(wide.inFlight()).isZero();
        assertThat(wide.submit(() -> ascii("late"))).as("closed: refused").isNull();
    }

    @Test
    void aBodyMadeAlreadyTakesASlotButNoRenderThread() throws Exception {
        try (WideAnswers wide = new WideAnswers(1, 1)) {
            InputStream cached = wide.send(ascii("cached"));
            assertThat(cached.readAllBytes()).isEqualTo("cached".getBytes(StandardCharsets.US_ASCII));
            assertThat(wide.submit(() -> ascii("x"))).as("the slot is held until the stream closes").isNull();
            assertThat(wide.send(ascii("y"))).isNull();
            cached.close();
            assertThat(wide.send(ascii("z"))).isNotNull();
            assertThat(wide.admitted()).isEqualTo(2);
            assertThat(wide.refused()).isEqualTo(2);
        }
    }
}
