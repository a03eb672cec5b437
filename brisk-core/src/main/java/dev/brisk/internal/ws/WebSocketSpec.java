package dev.brisk.internal.ws;

import dev.brisk.WebSocketConfig;
import dev.brisk.internal.web.Origins;
import java.util.ArrayList;
import java.util.List;

/**
 * A WebSocket route as declared ({@link WebSocketConfig}): its handlers, allowed origins and
 * subprotocols. Filled inside {@code cfg.ws(...)}, on the configuring thread; read-only afterwards.
 */
public final class WebSocketSpec implements WebSocketConfig {
    OpenHandler onOpen;
    TextHandler onText;
    BinaryHandler onBinary;
    CloseHandler onClose;
    ErrorHandler onError;
    /** Allowed origins, or null: any. */
    Origins origins;
    List<String> subprotocols = List.of();

    @Override
    public WebSocketConfig onOpen(OpenHandler handler) {
        onOpen = handler;
        return this;
    }

    @Override
    public WebSocketConfig onText(TextHandler handler) {
        onText = handler;
        return this;
    }

    @Override
    public WebSocketConfig onBinary(BinaryHandler handler) {
        onBinary = handler;
        return this;
    }

    @Override
    public WebSocketConfig onClose(CloseHandler handler) {
        onClose = handler;
        return this;
    }

    @Override
    public WebSocketConfig onError(ErrorHandler handler) {
        onError = handler;
        return this;
    }

    @Override
    public WebSocketConfig origins(String... allowed) {
        List<String> exact = new ArrayList<>();
        List<String> patterns = new ArrayList<>();
        for (String o : allowed) {
            if (o == null || o.isBlank()) {
                throw new IllegalArgumentException("origin must not be empty");
            }
            if (o.contains("*")) {
                Origins.checkPattern(o);
                patterns.add(o);
            } else {
                exact.add(o);
            }
        }
        origins = Origins.of(exact, patterns);
        return this;
    }

    /** Checks the declaration is complete; the route's path names it in the error. */
    public void check(String path) {
        if (onOpen == null && onText == null && onBinary == null) {
            throw new IllegalArgumentException("WebSocket route " + path + " declares no handler: onOpen, onText or onBinary");
        }
    }

    @Override
    public WebSocketConfig subprotocols(String... names) {
        List<String> s = new ArrayList<>();
        for (String n : names) {
            if (n == null || n.isEmpty() || !Handshake.isToken(n)) {
                throw new IllegalArgumentException("a subprotocol is an HTTP token: " + n);
            }
            s.add(n);
        }
        subprotocols = List.copyOf(s);
        return this;
    }
}
