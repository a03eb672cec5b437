package dev.brisk.internal.ws;

import dev.brisk.Context;
import dev.brisk.WebSocketSession;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link WebSocketSession}: sends go to its {@link WebSocketConnection}; the request side reads the
 * opening request's {@link Context} (its exchange owns its head, so it stays readable after the
 * {@code 101}; nothing writes it any more, and its lazily made values were made during the handshake).
 *
 * <p>Any thread.
 */
final class Session implements WebSocketSession {
    private final Context request;
    private final String subprotocol;
    private final boolean compressed;
    private final String remote;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile WebSocketConnection connection;

    Session(Context request, String subprotocol, boolean compressed) {
        this.request = request;
        this.subprotocol = subprotocol;
        this.compressed = compressed;
        this.remote = request.remoteAddress();
    }

    void connection(WebSocketConnection c) {
        connection = c;
    }

    @Override
    public CompletableFuture<Void> sendText(String text) {
        if (text == null) {
            throw new IllegalArgumentException("text must not be null");
        }
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return connection.send(FrameParser.TEXT, b, 0, b.length);
    }

    @Override
    public CompletableFuture<Void> sendBinary(byte[] data) {
        if (data == null) {
            throw new IllegalArgumentException("data must not be null");
        }
        return connection.send(FrameParser.BINARY, data, 0, data.length);
    }

    @Override
    public void close(int code, String reason) {
        if (code != 1000 && (code < 3000 || code > 4999)) {
            throw new IllegalArgumentException("an application closes with 1000 or 3000-4999: " + code);
        }
        connection.closeBy(code, reason == null ? "" : reason);
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public long bufferedAmount() {
        return connection.bufferedAmount();
    }

    @Override
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public boolean compressed() {
        return compressed;
    }

    @Override
    public String remoteAddress() {
        return remote;
    }

    @Override
    public String path() {
        return request.path();
    }

    @Override
    public String pathParam(String name) {
        return request.pathParam(name);
    }

    @Override
    public Map<String, String> pathParams() {
        return request.pathParams();
    }

    @Override
    public String queryParam(String name) {
        return request.queryParam(name);
    }

    @Override
    public String header(String name) {
        return request.header(name);
    }

    @Override
    public Object attribute(String name) {
        Object v = attributes.get(name);
        return v != null ? v : request.attribute(name);
    }

    @Override
    public WebSocketSession attribute(String name, Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
        return this;
    }

    @Override
    public String toString() {
        return "WebSocketSession[" + request.path() + " from " + remote + "]";
    }
}
