package dev.brisk.internal.form;

import dev.brisk.internal.web.RequestBody;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stored part's content as a stream ({@code Part.content()}). A stored part's memory and file are
 * given back when its handler returns; a stream the handler made the response ({@code ctx.stream(
 * part.content())}) is read after that, while the response is sent, so the exchange {@link #hold holds}
 * the part for it: the part is given back when this stream is closed (the response's sender closes it,
 * whatever happens) instead. A stream never made the response is not held, so one a handler forgets to
 * close costs nothing past its request.
 *
 * <p>Threads: {@link #hold} on the handler's thread before the response is handed over; then the
 * reading and closing thread's.
 */
public final class PartContent extends FilterInputStream {
    private final RequestBody body;
    private final AtomicBoolean held = new AtomicBoolean();

    PartContent(RequestBody body) {
        super(body.stream());
        this.body = body;
    }

    /** The stream is the response's body: its part stays until it is closed. At most once; nothing if given back already. */
    public void hold() {
        if (!held.get() && body.retain()) {
            held.set(true);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            if (held.compareAndSet(true, false)) {
                body.release();
            }
        }
    }
}
