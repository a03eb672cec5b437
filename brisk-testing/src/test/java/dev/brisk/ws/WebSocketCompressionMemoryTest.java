package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * permessage-deflate's native memory is bounded by {@code ws-memory}: a session's decompressor (48 KiB)
 * and, with context takeover, its own compressor (272 KiB) are counted while they exist, all contexts
 * together within half of it (so messages always have the other half); compression is agreed only while
 * a decompressor still fits; one that does not fit when its first compressed message comes fails its
 * session with 1013, a compressor that does not fit is replaced by a pooled one. On every engine.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class WebSocketCompressionMemoryTest {
    private static final long KIB = 1024;
    private static final long INFLATER = 48 * KIB;
    private static final long OWN_DEFLATER = 272 * KIB;
    private static final String TEXT = "squeeze this message, squeeze this message, ".repeat(20);

    @Parameter
    Engine engine;

    private BriskTestServer start(boolean contextTakeover) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.options().wsMemory(1024 * KIB).wsCompressionContextTakeover(contextTakeover)
                    .wsCloseTimeout(Duration.ofSeconds(2));
            cfg.ws("/echo", ws -> ws.onText((s, t) -> s.sendText(t))).dispatch(Dispatch.EVENT_LOOP);
        });
    }

    @Test
    void eachDecompressorIsCountedAndOneTheBudgetCannotTakeFailsItsSessionWith1013() throws IOException {
        try (BriskTestServer t = start(false)) {
            LongSupplier held = () -> t.app().metrics().webSocketBufferedBytes();
            List<RawWs> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < 24; i++) { // all agreed: no context is held yet when they shake hands
                    RawWs c = RawWs.open(t.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n");
                    assertThat(c.header("Sec-WebSocket-Extensions")).as(c.head)
                            .isEqualTo("permessage-deflate; server_no_context_takeover");
                    sessions.add(c);
                }
                int fit = (int) (512 * KIB / INFLATER); // 10: contexts get half of ws-memory
                for (int i = 0; i < sessions.size(); i++) {
                    RawWs c = sessions.get(i);
                    c.send(true, 4, 1, RawWs.deflate(TEXT.getBytes(StandardCharsets.UTF_8)));
                    if (i < fit) {
                        assertThat(c.readData().text()).isEqualTo(TEXT);
                        awaitHeld(held, (i + 1) * INFLATER);
                    } else {
                        RawWs.Frame close = c.readClose();
                        assertThat(close.closeCode()).as(close.closeReason()).isEqualTo(1013);
                        assertThat(c.endsWithin(5_000)).isTrue();
                        assertThat(held.getAsLong()).isEqualTo(fit * INFLATER);
                    }
                }
                // no room for another decompressor: a new session is not offered compression, and its messages
                // still have the other half of ws-memory (200 KiB in, 200 KiB out at once)
                try (RawWs plain = RawWs.open(t.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
                    assertThat(plain.status()).isEqualTo(101);
                    assertThat(plain.header("Sec-WebSocket-Extensions")).isNull();
                    plain.text(TEXT);
                    RawWs.Frame f = plain.readData();
                    assertThat(f.rsv1()).isFalse();
                    assertThat(f.text()).isEqualTo(TEXT);
                    String large = "m".repeat(200 * 1024);
                    plain.text(large);
                    assertThat(plain.readData().text()).isEqualTo(large);
                }
            } finally {
                for (RawWs c : sessions) {
                    c.close();
                }
            }
            awaitHeld(held, 0); // each session's end gives its decompressor back
        }
    }

    @Test
    void aSessionKeepsItsOwnCompressorOnlyWhileTheBudgetTakesIt() throws IOException {
        try (BriskTestServer t = start(true)) {
            LongSupplier held = () -> t.app().metrics().webSocketBufferedBytes();
            List<RawWs> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    RawWs c = RawWs.open(t.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n");
                    assertThat(c.header("Sec-WebSocket-Extensions")).as(c.head).isEqualTo("permessage-deflate");
                    sessions.add(c);
                }
                long[] expected = { // contexts within 512 KiB: one kept compressor, then pooled ones
                    INFLATER + OWN_DEFLATER, 2 * INFLATER + OWN_DEFLATER, 3 * INFLATER + OWN_DEFLATER,
                    4 * INFLATER + OWN_DEFLATER, 5 * INFLATER + OWN_DEFLATER, // 512 KiB
                };
                for (int i = 0; i < sessions.size(); i++) {
                    RawWs c = sessions.get(i);
                    for (int round = 0; round < 2; round++) {
                        c.send(true, 4, 1, RawWs.deflate(TEXT.getBytes(StandardCharsets.UTF_8)));
                        RawWs.Frame f = c.readData();
                        assertThat(f.rsv1()).as("compressed, by its own compressor or a pooled one").isTrue();
                        assertThat(f.text()).isEqualTo(TEXT);
                        awaitHeld(held, expected[i]);
                    }
                }
                try (RawWs plain = RawWs.open(t.port(), "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
                    assertThat(plain.header("Sec-WebSocket-Extensions")).as("contexts hold half of ws-memory").isNull();
                }
            } finally {
                for (RawWs c : sessions) {
                    c.close();
                }
            }
            awaitHeld(held, 0);
        }
    }

    /** Waits (at most 10 s) until {@code held} reads {@code expected}, then asserts it. */
    static void awaitHeld(LongSupplier held, long expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (held.getAsLong() != expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        assertThat(held.getAsLong()).as("ws-memory held").isEqualTo(expected);
    }
}
