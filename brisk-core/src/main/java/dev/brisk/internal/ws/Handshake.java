package dev.brisk.internal.ws;

import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.Handler;
import dev.brisk.internal.web.ProtocolSwitch;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;

/**
 * The core handler of a WebSocket route: checks the opening handshake (RFC 6455 section 4.2.1),
 * negotiates the subprotocol and permessage-deflate, and answers with a {@link ProtocolSwitch} whose
 * upgrade opens a {@link WebSocketConnection} once the {@code 101} is written. It runs inside the
 * route's middleware, on the route's dispatch, like any handler: middleware may authenticate the
 * handshake, and what it sets as attributes the session sees.
 *
 * <p>Refusals, each with a plain-text reason: 426 (with {@code Upgrade: websocket}) for a request that is
 * not a WebSocket handshake, 426 with {@code Sec-WebSocket-Version: 13} for another version, 400 for a
 * missing or malformed key, an unknown subprotocol, or a connection that cannot switch (HTTP/1.0, HTTP/2),
 * 403 for an origin the route does not allow.
 *
 * <p>Immutable; any handler thread.
 */
final class Handshake implements Handler {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private final WebSocketSpec spec;
    private final WebSockets ws;
    private final Dispatch dispatch;

    Handshake(WebSocketSpec spec, WebSockets ws, Dispatch dispatch) {
        this.spec = spec;
        this.ws = ws;
        this.dispatch = dispatch;
    }

    @Override
    public void handle(Context ctx) {
        if (!hasToken(ctx.headers("Upgrade"), "websocket") || !hasToken(ctx.headers("Connection"), "upgrade")) {
            refuse(ctx, 426, "this is a WebSocket endpoint: send a handshake (Upgrade: websocket, Connection: Upgrade)")
                    .header("Upgrade", "websocket");
            return;
        }
        if (!"GET".equals(ctx.method())) {
            refuse(ctx, 400, "a WebSocket handshake is a GET request");
            return;
        }
        if (ctx.headers("Sec-WebSocket-Version").size() > 1) {
            refuse(ctx, 400, "Sec-WebSocket-Version must be sent once"); // RFC 6455 11.3.5
            return;
        }
        if (!"13".equals(trim(ctx.header("Sec-WebSocket-Version")))) {
            refuse(ctx, 426, "unsupported WebSocket version: Sec-WebSocket-Version must be 13")
                    .header("Sec-WebSocket-Version", "13");
            return;
        }
        if (ctx.headers("Sec-WebSocket-Key").size() > 1) {
            refuse(ctx, 400, "Sec-WebSocket-Key must be sent once"); // RFC 6455 11.3.1
            return;
        }
        String key = trim(ctx.header("Sec-WebSocket-Key"));
        if (!validKey(key)) {
            refuse(ctx, 400, "Sec-WebSocket-Key must be 16 bytes in base64");
            return;
        }
        String origin = ctx.header("Origin");
        if (spec.origins != null && origin != null && ctx.headers("Origin").size() > 1) {
            // which one a browser sent cannot be told (RFC 6454 7.3: one field), as for CORS
            refuse(ctx, 403, "origin not allowed: the request has more than one Origin field");
            return;
        }
        if (spec.origins != null && origin != null && !spec.origins.allows(origin)) {
            refuse(ctx, 403, "origin not allowed: " + origin);
            return;
        }
        String subprotocol = null;
        List<String> offered = tokens(ctx.headers("Sec-WebSocket-Protocol"));
        if (!spec.subprotocols.isEmpty() && !offered.isEmpty()) {
            subprotocol = choose(spec.subprotocols, offered);
            if (subprotocol == null) {
                refuse(ctx, 400, "none of the offered subprotocols is spoken here; this route speaks "
                        + String.join(", ", spec.subprotocols));
                return;
            }
        }
        DeflateOffer deflate = ws.options().compression() && ws.budget().roomForContext(MessageInflater.CONTEXT_BYTES)
                ? DeflateOffer.negotiate(ctx.headers("Sec-WebSocket-Extensions"), ws.options().compressionContextTakeover())
                : null;
        List<String> fields = new ArrayList<>(6);
        fields.add("Sec-WebSocket-Accept");
        fields.add(accept(key));
        if (subprotocol != null) {
            fields.add("Sec-WebSocket-Protocol");
            fields.add(subprotocol);
        }
        if (deflate != null) {
            fields.add("Sec-WebSocket-Extensions");
            fields.add(deflate.response());
        }
        // made now, on the handler's thread, so the session's later reads of them only read
        ctx.path();
        ctx.pathParams();
        ctx.queryParamMap();
        Session session = new Session(ctx, subprotocol, deflate != null);
        ProtocolSwitch next = new ProtocolSwitch("websocket", fields, (wire, buffered) -> WebSocketConnection.open(
                wire, buffered, ws, spec, session, deflate, handlers(wire.blocking())));
        if (!next.offer(ctx)) {
            refuse(ctx, 400, "a WebSocket handshake needs an HTTP/1.1 connection");
        }
    }

    /** Where a session's handlers run: inline on a blocking engine or an event-loop route, else on the dispatch. */
    private HandlerQueue handlers(boolean blockingWire) {
        if (blockingWire || dispatch == Dispatch.EVENT_LOOP) {
            return new HandlerQueue(null, false);
        }
        Executor e = ws.executor(dispatch);
        return new HandlerQueue(e, dispatch == Dispatch.VIRTUAL_THREADS);
    }

    private static Context refuse(Context ctx, int status, String message) {
        return ctx.status(status).text(message + "\n");
    }

    /** The {@code Sec-WebSocket-Accept} value for {@code key}. */
    static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] d = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    private static boolean validKey(String key) {
        if (key == null || key.length() != 24 || !key.endsWith("==")) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }

    /** Whether a comma-separated header (any of its lines) lists {@code token}, in any case. */
    private static boolean hasToken(List<String> values, String token) {
        for (String v : values) {
            for (String t : v.split(",")) {
                if (t.trim().toLowerCase(Locale.ROOT).equals(token)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> tokens(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            for (String t : v.split(",")) {
                String s = t.trim();
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static String choose(List<String> ours, List<String> offered) {
        for (String s : ours) {
            if (offered.contains(s)) {
                return s;
            }
        }
        return null;
    }

    /** Whether {@code s} is an HTTP token (RFC 9110 section 5.6.2). */
    static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
