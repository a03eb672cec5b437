package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** A WebSocket echo through the JDK's client, on every engine and dispatch. */
@ParameterizedClass
@EnumSource(Engine.class)
class WebSocketEchoTest {
    @Parameter
    Engine engine;

    private BriskTestServer start(Dispatch dispatch) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.ws("/echo", ws -> ws
                    .onText((s, text) -> s.sendText(text))
                    .onBinary((s, data) -> s.sendBinary(data))).dispatch(dispatch);
        });
    }

    private static URI ws(BriskTestServer t, String path) {
        return URI.create("ws://127.0.0.1:" + t.port() + path);
    }

    @Test
    void echoesTextAndBinaryOnEveryDispatch() throws Exception {
        for (Dispatch d : Dispatch.values()) {
            try (BriskTestServer t = start(d); JdkWsClient c = JdkWsClient.connect(ws(t, "/echo"))) {
                c.socket.sendText("hello", true).get(5, TimeUnit.SECONDS);
                assertThat(c.nextText()).as(d.name()).isEqualTo("hello");
                c.socket.sendText("grüße, 世界", true).get(5, TimeUnit.SECONDS);
                assertThat(c.nextText()).isEqualTo("grüße, 世界");
                byte[] big = new byte[200_000];
                for (int i = 0; i < big.length; i++) {
                    big[i] = (byte) (i * 31);
                }
                c.socket.sendBinary(java.nio.ByteBuffer.wrap(big), true).get(5, TimeUnit.SECONDS);
                assertThat(c.nextBinary()).isEqualTo(big);
            }
        }
    }

    @Test
    void manyMessagesArriveInOrder() throws Exception {
        try (BriskTestServer t = start(Dispatch.VIRTUAL_THREADS); JdkWsClient c = JdkWsClient.connect(ws(t, "/echo"))) {
            CompletableFuture<?> last = null;
            for (int i = 0; i < 500; i++) {
                last = c.socket.sendText("m" + i, true);
                last.get(5, TimeUnit.SECONDS);
            }
            var got = c.texts(500, 20);
            assertThat(got).hasSize(500);
            for (int i = 0; i < 500; i++) {
                assertThat(got.get(i)).isEqualTo("m" + i);
            }
        }
    }

    /**
     * Messages the client sent in the same write as its close are answered before the server's close,
     * on every dispatch: with handlers on other threads, the close's reply once went out at once, and
     * the echoes still being handled found the session closed (3 of 5 arrived, or none).
     */
    @Test
    void messagesSentWithTheCloseAreAnsweredBeforeTheReply() throws Exception {
        for (Dispatch d : Dispatch.values()) {
            try (BriskTestServer t = start(d); RawWs c = RawWs.open(t.port(), "/echo")) {
                java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < 5; i++) {
                    burst.write(c.frame(true, 0, 1, ("m" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8), true));
                }
                burst.write(c.frame(true, 0, 8, new byte[] {0x03, (byte) 0xe8}, true)); // close 1000
                c.raw(burst.toByteArray());
                java.util.List<String> echoes = new java.util.ArrayList<>();
                RawWs.Frame f;
                while ((f = c.read()).opcode() != 8) {
                    echoes.add(f.text());
                }
                assertThat(echoes).as(d.name()).containsExactly("m0", "m1", "m2", "m3", "m4");
                assertThat(f.closeCode()).isEqualTo(1000);
            }
        }
    }
}
