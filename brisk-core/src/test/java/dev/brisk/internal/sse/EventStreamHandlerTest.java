package dev.brisk.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The app's handler runs exactly once per stream: at the first read, or, for a stream closed before it
 * (the client left first, a HEAD), at the close with the sink already closed, so an {@code onClose}
 * clean-up pairs with every call. Before, a stream closed first never ran its handler: on the blocking
 * engine, an HTTP/2 client that half-closed at once left about half of its streams without it.
 */
@Timeout(10)
class EventStreamHandlerTest {
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicBoolean sent = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);

    private EventStream stream() {
        return new EventStream(null, sink -> {
            runs.incrementAndGet();
            sink.onClose(closed::countDown);
            sent.set(sink.data("a"));
            done.countDown();
        });
    }

    @Test
    void aStreamClosedBeforeItsFirstReadStillRunsItsHandlerOnceWithTheSinkClosed() throws Exception {
        EventStream s = stream();
        s.close();
        assertThat(done.await(5, TimeUnit.SECONDS)).as("the handler ran").isTrue();
        assertThat(closed.await(5, TimeUnit.SECONDS)).as("its onClose ran at once").isTrue();
        assertThat(sent).as("a send on a closed sink").isFalse();
        assertThat(s.read(new byte[16], 0, 16)).as("the body is over").isEqualTo(-1);
        s.close();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aStreamStartedByItsFirstReadRunsItsHandlerOnlyThen() throws Exception {
        EventStream s = stream();
        byte[] b = new byte[64];
        int n = s.read(b, 0, b.length); // starts the handler, which sends one event
        assertThat(new String(b, 0, n, StandardCharsets.UTF_8)).isEqualTo("data: a\n\n");
        s.close(); // the pump let go before the event was taken: the send learns it was not
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(runs).hasValue(1);
    }
}
