package dev.brisk.ws;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@code java.net.http.WebSocket} as a test client: messages (whole, fragments joined) and
 * the close arrive in a queue, read with a bounded wait.
 */
final class JdkWsClient implements AutoCloseable {
    /** A received message (text or binary), or the peer's close (code &gt;= 0). */
    record Event(String text, byte[] binary, int closeCode, String closeReason) {
        boolean isClose() {
            return closeCode >= 0;
        }
    }

    final WebSocket socket;
    final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final StringBuilder text = new StringBuilder();
    private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();
    final CompletableFuture<Void> closed = new CompletableFuture<>();

    private JdkWsClient(URI uri, List<String> subprotocols, String origin) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        WebSocket.Builder b = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        if (!subprotocols.isEmpty()) {
            b.subprotocols(subprotocols.get(0), subprotocols.subList(1, subprotocols.size()).toArray(String[]::new));
        }
        if (origin != null) {
            b.header("Origin", origin);
        }
        socket = b.buildAsync(uri, new Listener()).get(10, TimeUnit.SECONDS);
    }

    static JdkWsClient connect(URI uri) throws Exception {
        return new JdkWsClient(uri, List.of(), null);
    }

    static JdkWsClient connect(URI uri, List<String> subprotocols, String origin) throws Exception {
        return new JdkWsClient(uri, subprotocols, origin);
    }

    private final class Listener implements WebSocket.Listener {
        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                events.add(new Event(text.toString(), null, -1, null));
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            binary.writeBytes(b);
            if (last) {
                events.add(new Event(null, binary.toByteArray(), -1, null));
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            events.add(new Event(null, null, statusCode, reason));
            closed.complete(null);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            events.add(new Event(null, null, 1006, String.valueOf(error)));
            closed.complete(null);
        }
    }

    /** The next event, waiting at most {@code seconds}; fails the test when none came. */
    Event next(int seconds) throws InterruptedException {
        Event e = events.poll(seconds, TimeUnit.SECONDS);
        if (e == null) {
            throw new AssertionError("no WebSocket message within " + seconds + " s");
        }
        return e;
    }

    String nextText() throws InterruptedException {
        Event e = next(10);
        if (e.text() == null) {
            throw new AssertionError("expected a text message, got " + describe(e));
        }
        return e.text();
    }

    byte[] nextBinary() throws InterruptedException {
        Event e = next(10);
        if (e.binary() == null) {
            throw new AssertionError("expected a binary message, got " + describe(e));
        }
        return e.binary();
    }

    /** Every text message that arrives within the wait, up to {@code n}. */
    List<String> texts(int n, int seconds) throws InterruptedException {
        List<String> out = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (out.size() < n) {
            Event e = events.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                break;
            }
            if (e.text() != null) {
                out.add(e.text());
            }
        }
        return out;
    }

    static String describe(Event e) {
        return e.isClose() ? "close " + e.closeCode() + " " + e.closeReason()
                : e.text() != null ? "text " + e.text() : "binary of " + e.binary().length + " bytes";
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        try {
            closed.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            socket.abort();
        }
    }
}
