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
}
