package dev.brisk.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.ServerOptions;
import dev.brisk.internal.body.BodyStore;
import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.body.ByteBudget;
import dev.brisk.internal.http.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Streamed bodies into a handler's window: no byte is left behind with nobody to ask for it. */
class BodyReaderTest {

    /**
     * One copy fills the window, and the handler, on its own thread, reads from it before the connection
     * looks at the window again (it then finds room, so it does not pause). Bytes past the window are
     * still buffered: the handler must be told to ask for them once it has read the window down, or the
     * rest of the body would wait for the body-read timeout (a rare hang seen under load on io_uring, the
     * same on every engine).
     */
    @Test
    void aWindowFilledByOneCopyTellsItsReaderToAskForMore() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        BodyStream.Feed feed = new BodyStream.Feed() {
            @Override
            public void more(BodyStream stream) {
                asked.incrementAndGet();
            }

            @Override
            public void awaitBytes(BodyStream stream, CompletableFuture<Void> f) {
                throw new AssertionError("the test reads only what is there");
            }
        };
        BodyStream window = new BodyStream(new ByteBudget(1 << 20), feed, 1_000, 8);
        RequestParser parser = new RequestParser(8192, 8192, 100, Long.MAX_VALUE);
        byte[] head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(parser.parse(head, 0, head.length)).isTrue();
        ServerOptions options = ServerOptions.builder().build();
        BodyReader reader = new BodyReader(options, new BodyStore(options));
        reader.beginStream(parser, window);

        byte[] body = "abcdefghijkl".getBytes(StandardCharsets.US_ASCII);
        assertThat(reader.read(body, 0, body.length)).as("the window's worth taken").isEqualTo(8);

        byte[] got = new byte[5];
        assertThat(window.read(got, 0, got.length)).isEqualTo(5); // the handler, before the connection looks again
        assertThat(reader.starved()).as("the connection finds room: it does not pause").isFalse();
        assertThat(asked).as("the reader, down to half the window, asked for the rest").hasValue(1);

        assertThat(reader.read(body, 8, body.length)).as("the rest, once asked for").isEqualTo(12);
        assertThat(reader.done()).isTrue();
    }
}
