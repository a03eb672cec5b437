package dev.brisk.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.WebSocketSession;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * WebSocket and Server-Sent Events over TLS ({@code wss://}, {@code https://}): the upgrade happens on
 * the TLS wire, which the WebSocket protocol reads and writes like the plain one; on every engine, with
 * sends from other sessions' threads (a blocking loop's TLS wire is written while its thread waits in a
 * read).
 */
@ParameterizedClass
@EnumSource(Engine.class)
class TlsWebSocketTest {
    @Parameter
    Engine engine;

    /** Text messages a JDK WebSocket receives. */
    private static final class Inbox implements WebSocket.Listener {
        final LinkedBlockingQueue<String> texts = new LinkedBlockingQueue<>();
        private final StringBuilder part = new StringBuilder();
        private long binary;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                texts.add(part.toString());
                part.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            binary += data.remaining();
            if (last) {
                texts.add("binary " + binary);
                binary = 0;
            }
            ws.request(1);
            return null;
        }

        String next() throws InterruptedException {
            String s = texts.poll(10, TimeUnit.SECONDS);
            assertThat(s).as("a message within 10 s").isNotNull();
            return s;
        }
    }

    @Test
    void webSocketsAndEventStreamsWorkOverTls() throws Exception {
        TestKeys.Shared keys = TestKeys.shared();
        SSLContext trust = keys.server().trustingContext();
        Set<WebSocketSession> room = ConcurrentHashMap.newKeySet();
        CountDownLatch two = new CountDownLatch(2);
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().tlsPem(keys.server().certPem(), keys.server().keyPem());
            cfg.ws("/room", w -> w
                    .onOpen(s -> {
                        room.add(s);
                        two.countDown();
                    })
                    .onText((s, x) -> room.forEach(o -> o.sendText(x)))
                    .onBinary((s, b) -> s.sendBinary(b))
                    .onClose((s, c, r) -> room.remove(s)));
            cfg.get("/events", ctx -> ctx.sse(sink -> {
                sink.data("secure " + (ctx.tls() != null));
                sink.close();
            }));
        })) {
            HttpClient client = HttpClient.newBuilder().sslContext(trust).connectTimeout(Duration.ofSeconds(5)).build();
            URI uri = URI.create("wss://localhost:" + t.port() + "/room");
            Inbox ia = new Inbox();
            Inbox ib = new Inbox();
            WebSocket a = client.newWebSocketBuilder().buildAsync(uri, ia).get(10, TimeUnit.SECONDS);
            WebSocket b = client.newWebSocketBuilder().buildAsync(uri, ib).get(10, TimeUnit.SECONDS);
            assertThat(two.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 20; i++) {
                a.sendText("m" + i, true).get(5, TimeUnit.SECONDS);
            }
            for (int i = 0; i < 20; i++) {
                assertThat(ib.next()).as("relayed to the other session over TLS").isEqualTo("m" + i);
                assertThat(ia.next()).isEqualTo("m" + i);
            }
            byte[] big = new byte[300_000]; // larger than a TLS record and the buffers: many records each way
            b.sendBinary(ByteBuffer.wrap(big), true).get(10, TimeUnit.SECONDS);
            assertThat(ib.next()).isEqualTo("binary 300000");
            a.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
            b.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);

            HttpResponse<Stream<String>> r = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + t.port() + "/events")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofLines());
            Iterator<String> lines = r.body().iterator();
            assertThat(lines.next()).isEqualTo("data: secure true");
        }
    }
}
