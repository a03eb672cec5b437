package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A frame header only announces a length: {@code ws-memory} is taken as the bytes come, so sessions that
 * announce large messages and send little cannot spend it and shut every other session out (they held
 * the whole announced length each, and a few hundred KiB sent filled 256 MiB). On every engine.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class WebSocketAnnouncedLengthTest {
    private static final int MIB = 1 << 20;

    @Parameter
    Engine engine;

    @Test
    void announcedButUnsentBytesHoldNoMemory() throws Exception {
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().wsMemory(4L * MIB).wsCloseTimeout(Duration.ofSeconds(2));
            cfg.ws("/echo", ws -> ws.onBinary((s, b) -> s.sendBinary(b))).dispatch(Dispatch.EVENT_LOOP);
        })) {
            LongSupplier held = () -> t.app().metrics().webSocketBufferedBytes();
            byte[] message = new byte[MIB];
            new Random(7).nextBytes(message);
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            RawWs.writeFrame(bytes, new Random(8), true, 0, 2, message, true);
            byte[] frame = bytes.toByteArray();
            int header = frame.length - MIB;
            List<RawWs> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < 10; i++) { // 10 MiB announced against a 4 MiB budget
                    RawWs c = RawWs.open(t.port(), "/echo");
                    c.raw(Arrays.copyOf(frame, header + 1000));
                    stalled.add(c);
                }
                WebSocketCompressionMemoryTest.awaitHeld(held, 10 * 1024); // a 1 KiB buffer each for the 1,000 bytes that came

                try (RawWs other = RawWs.open(t.port(), "/echo")) {
                    other.send(true, 0, 2, "still served".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    assertThat(other.readData().text()).isEqualTo("still served");
                }
                RawWs first = stalled.get(0);
                first.raw(Arrays.copyOfRange(frame, header + 1000, frame.length)); // the rest comes after all
                RawWs.Frame echo = first.readData();
                assertThat(echo.payload()).isEqualTo(message);
            } finally {
                for (RawWs c : stalled) {
                    c.close();
                }
            }
            WebSocketCompressionMemoryTest.awaitHeld(held, 0);
        }
    }
}
