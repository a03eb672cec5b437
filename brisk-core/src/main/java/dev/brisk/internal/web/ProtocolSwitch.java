package dev.brisk.internal.web;

import dev.brisk.Context;
import dev.brisk.internal.transport.Upgrade;
import java.util.List;

/**
 * A handler's answer "switch this connection to another protocol" (a WebSocket handshake accepted):
 * the {@code 101 Switching Protocols} head's extra fields and the {@link Upgrade} that takes the wire
 * once that head is written.
 *
 * <p>Like {@link HandlerStart}, it travels to the exchange through the Context API, as the value of a
 * request attribute, since the handler may hold a wrapper rather than the {@link Exchange}: the exchange
 * recognizes the type, takes the switch when its connection can make one (HTTP/1.1; not an HTTP/2
 * stream, whose owner says no) and stores nothing as an attribute. {@link #offer} tells the handler
 * whether it was taken, so a wrapper that keeps attributes to itself, or a connection that cannot
 * switch, gets a clear error answer instead of a {@code 101} that never comes.
 *
 * <p>Threads: made and offered on the handler's thread; read by the connection after the exchange is
 * complete (a happens-before edge through the loop's task queue).
 */
public final class ProtocolSwitch {
    /** The attribute name: readable in a wrapper's logs; the value's type is what counts. */
    public static final String ATTRIBUTE = "dev.brisk.protocol-switch";

    private final String protocol;
    private final List<String> headers;
    private final Upgrade upgrade;
    private boolean taken;

    /**
     * @param protocol the {@code Upgrade} token, such as {@code websocket}
     * @param headers name, value... of the {@code 101} head's fields besides {@code Upgrade} and
     *     {@code Connection} (validated by the caller: no CR, LF or NUL)
     * @param upgrade opens the new protocol on the wire once the head is written
     */
    public ProtocolSwitch(String protocol, List<String> headers, Upgrade upgrade) {
        this.protocol = protocol;
        this.headers = List.copyOf(headers);
        this.upgrade = upgrade;
    }

    /**
     * Offers this switch to {@code ctx}'s exchange; true when it was taken (the response is now the
     * {@code 101}, and the exchange's request side stays readable after the response, as the new
     * protocol's view of its opening request).
     */
    public boolean offer(Context ctx) {
        ctx.attribute(ATTRIBUTE, this);
        return taken;
    }

    void taken() {
        taken = true;
    }

    /** The {@code 101} head's fields: {@code Upgrade}, {@code Connection}, then the protocol's own. */
    public List<String> headFields() {
        String[] all = new String[4 + headers.size()];
        all[0] = "Upgrade";
        all[1] = protocol;
        all[2] = "Connection";
        all[3] = "Upgrade";
        for (int i = 0; i < headers.size(); i++) {
            all[4 + i] = headers.get(i);
        }
        return List.of(all);
    }

    public Upgrade upgrade() {
        return upgrade;
    }
}
