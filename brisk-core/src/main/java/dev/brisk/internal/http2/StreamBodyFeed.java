package dev.brisk.internal.http2;

import dev.brisk.internal.body.BodyStream;
import dev.brisk.internal.transport.Wire;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Feeds one HTTP/2 stream's request body to a handler that reads it as it arrives (a
 * {@code Route.streamBody()} route): the stream's flow-control window (RFC 9113 6.9) is the
 * {@link BodyStream}'s room, opened by a {@code WINDOW_UPDATE} only as the handler's reads free it, so
 * the client sends no faster than the handler reads and the server holds at most one window per stream.
 *
 * <p>Threads: {@link #more} from the handler's thread, passed to the connection's loop;
 * {@link #awaitBytes} on the handler's thread, which must not be an event loop (it would stall every
 * connection of the loop). The blocking engine never streams HTTP/2 bodies (its streams run on the
 * connection's own thread, which must go on reading frames), so this is the NIO and io_uring engines'.
 */
final class StreamBodyFeed implements BodyStream.Feed {
    private final Http2Connection conn;
    private final Wire wire;
    private final RequestBodies bodies;
    private final Http2Stream stream;

    StreamBodyFeed(Http2Connection conn, Wire wire, RequestBodies bodies, Http2Stream stream) {
        this.conn = conn;
        this.wire = wire;
        this.bodies = bodies;
        this.stream = stream;
    }

    @Override
    public void more(BodyStream body) {
        conn.execute(() -> conn.event(() -> bodies.openWindow(stream)));
    }

    @Override
    public void awaitBytes(BodyStream body, CompletableFuture<Void> f) throws IOException {
        if (wire.inLoop()) {
            throw new IllegalStateException("a streamed request body cannot be read on an event loop: "
                    + "it would stall every connection of the loop; give the route virtual-thread or "
                    + "worker-pool dispatch");
        }
        try {
            f.get(); // completed by bytes, the end, a failure, or the stream's close (which fails the body)
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("request body failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the request body");
        }
    }
}
