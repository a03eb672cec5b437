package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.IoMode;
import dev.brisk.ThreadMode;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.RawConnection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * On the blocking engine a refused upload's lingering close (its answer written, its output shut,
 * what the client still sends dropped for up to 2 s) runs on the engine's one lingering thread, not on
 * the connection's: with a single platform thread, the next connections are served while the refused
 * one is still lingering (before, the next one was refused: "no connection thread free").
 */
class BlockingLingerTest {
    @Test
    void aLingeringConnectionHoldsNoThread() {
        try (BriskTestServer t = BriskTestServer.start(cfg -> {
            cfg.options().io(IoMode.BLOCKING).threads(ThreadMode.PLATFORM).platformThreads(1)
                    .shutdownTimeout(Duration.ofSeconds(1));
            cfg.post("/small", ctx -> ctx.text("n=" + ctx.body().length)).maxBodySize(1024);
            cfg.get("/hello", ctx -> ctx.text("hello"));
        }); RawConnection refused = t.raw()) {
            // declared larger than the route allows: 413 at once, then the connection lingers
            refused.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n").send("x".repeat(4096));
            RawConnection.Response r = refused.read();
            assertThat(r.status()).isEqualTo(413);
            long start = System.nanoTime();
            try (RawConnection next = t.raw()) { // the one thread must be free for it
                next.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                RawConnection.Response hello = next.read();
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertThat(hello.status()).as(hello.body()).isEqualTo(200);
                assertThat(hello.body()).isEqualTo("hello");
                assertThat(ms).as("served while the refused upload lingers (up to 2 s)").isLessThan(1_500);
            }
            // still lingering: what the client sends is read and dropped (a closed socket would answer the
            // first piece with a reset, and the next write would fail)
            for (int i = 0; i < 3; i++) {
                refused.send("x".repeat(4096));
                assertThat(t.get("/hello").statusCode()).isEqualTo(200); // a round trip between the pieces
            }
        }
    }
}
