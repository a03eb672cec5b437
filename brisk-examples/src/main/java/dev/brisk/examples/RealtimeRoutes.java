package dev.brisk.examples;

import dev.brisk.BriskConfig;
import dev.brisk.Context;
import dev.brisk.SseEvent;
import dev.brisk.WebSocketSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The example app's real-time routes, for a browser:
 *
 * <ul>
 *   <li>{@code GET /chat} a page (static HTML and JavaScript, no framework) with a chat room, a live
 *       counter and an echo check; {@code GET /chat.js} its script</li>
 *   <li>{@code /ws/chat} a WebSocket chat room: each session gets a name ({@code user-N}); a text message
 *       goes to every session as {@code {"type":"message","from":...,"text":...}}, and joins and leaves
 *       as {@code {"type":"presence","count":N}}</li>
 *   <li>{@code GET /sse/ticks} Server-Sent Events: a {@code tick} event each second (each
 *       {@code every} ms, 50..60000) whose id and data count up; a browser that reconnects sends
 *       {@code Last-Event-ID} and the count goes on from there</li>
 *   <li>{@code /ws/echo} a WebSocket echo of text and binary messages (tests and benchmarks)</li>
 * </ul>
 *
 * <p>The page and script are served from the classpath by plain routes, read once at start.
 */
public final class RealtimeRoutes {
    /** The longest chat message relayed, in characters; longer ones are cut. */
    static final int MAX_CHAT = 500;

    private final Set<WebSocketSession> room = ConcurrentHashMap.newKeySet();
    private final AtomicLong names = new AtomicLong();

    private RealtimeRoutes() {
    }

    /** Declares the real-time routes on {@code cfg}. */
    public static void routes(BriskConfig cfg) {
        RealtimeRoutes r = new RealtimeRoutes();
        byte[] page = resource("chat.html");
        byte[] script = resource("chat.js");
        cfg.get("/chat", ctx -> ctx.bytes(page).contentType("text/html; charset=utf-8").header("Cache-Control", "no-cache"));
        cfg.get("/chat.js", ctx -> ctx.bytes(script).contentType("text/javascript; charset=utf-8")
                .header("Cache-Control", "no-cache"));
        cfg.ws("/ws/chat", ws -> ws
                .onOpen(r::join)
                .onText(r::say)
                .onClose((s, code, reason) -> r.leave(s)));
        cfg.ws("/ws/echo", ws -> ws
                .onText((s, text) -> s.sendText(text))
                .onBinary((s, data) -> s.sendBinary(data)));
        cfg.get("/sse/ticks", RealtimeRoutes::ticks);
    }

    private void join(WebSocketSession s) {
        String name = "user-" + names.incrementAndGet();
        s.attribute("name", name);
        room.add(s);
        s.sendText("{\"type\":\"welcome\",\"name\":\"" + name + "\"}");
        broadcast("{\"type\":\"presence\",\"count\":" + room.size() + "}");
    }

    private void say(WebSocketSession s, String text) {
        String t = text.length() > MAX_CHAT ? text.substring(0, MAX_CHAT) : text;
        broadcast("{\"type\":\"message\",\"from\":\"" + s.attribute("name") + "\",\"text\":" + jsonString(t) + "}");
    }

    private void leave(WebSocketSession s) {
        if (room.remove(s)) {
            broadcast("{\"type\":\"presence\",\"count\":" + room.size() + "}");
        }
    }

    /** Sends to every open session; one too slow to keep up is closed by its outbound limit, not waited for. */
    private void broadcast(String json) {
        for (WebSocketSession s : room) {
            if (s.isOpen()) {
                s.sendText(json);
            }
        }
    }

    private static void ticks(Context ctx) {
        int every = ctx.queryParam("every") == null ? 1000 : ExampleApp.intParam(ctx, "every", 50, 60_000); // ms
        long first = resumeAfter(ctx.header("Last-Event-ID"));
        ctx.sse(sink -> {
            sink.heartbeat(Duration.ofSeconds(15));
            for (long n = first; ; n++) {
                // each send waits for the client to take the event: a slow client slows only its own stream
                if (!sink.send(SseEvent.of(Long.toString(n)).withEvent("tick").withId(Long.toString(n)))) {
                    return; // the client left
                }
                try {
                    Thread.sleep(every);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** The count after a reconnecting browser's last seen id; 1 for a new one (or an id that is not a count). */
    static long resumeAfter(String lastEventId) {
        if (lastEventId != null && !lastEventId.isEmpty() && lastEventId.length() < 18
                && lastEventId.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Long.parseLong(lastEventId) + 1;
        }
        return 1;
    }

    /** {@code s} as a JSON string literal. */
    static String jsonString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static byte[] resource(String name) {
        try (InputStream in = RealtimeRoutes.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " beside " + RealtimeRoutes.class.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
