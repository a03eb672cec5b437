package dev.brisk.internal.http1;

import dev.brisk.ClientDisconnectedException;
import dev.brisk.internal.web.RequestBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A request body sent with {@code Expect: 100-continue}: its handler runs first, and only if it asks
 * for the body does the connection answer {@code 100 Continue} and read it, completing the handler's
 * wait. A handler that answers without asking leaves the body unread, and the connection closes after
 * the answer so the body is never read as a request.
 *
 * <pre>
 *   none ──head with Expect──▶ pending ──body()──▶ continuing ("100 Continue" being written)
 *                               │                    └──written──▶ reading ──▶ delivered / failed
 *                               └──answered without asking──▶ unread (close after the answer)
 * </pre>
 *
 * <p>A streamed body ({@code Route.streamBody}) with {@code Expect: 100-continue} goes the same way,
 * asked for by the handler's first read of its stream (no future then: the stream waits). A buffered
 * body is reserved against the server's budgets before "100 Continue": one that does not fit fails the
 * handler's wait with 503 and the body is never sent.
 *
 * <p>Loop thread only; the handler waits on the future it hands in.
 */
final class DeferredBody {
    static final ByteBuffer CONTINUE_BYTES = ByteBuffer.wrap(
            "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
    /** The current request's body waits for its handler to ask. */
    private boolean pending;
    /** "100 Continue" is being written: a response now means the handler gave up on the body. */
    private boolean continuing;
    private CompletableFuture<RequestBody> waiter;

    /** A new request: deferred or not. */
    void reset(boolean deferred) {
        pending = deferred;
        continuing = false;
    }

    boolean pending() {
        return pending;
    }

    boolean continuing() {
        return continuing;
    }

    /** The handler asked: {@code f} completes with the body; "100 Continue" goes out next. */
    void requested(CompletableFuture<RequestBody> f) {
        waiter = f;
        continuing = true;
    }

    /** "100 Continue" is written: the body is read now. */
    void continued() {
        continuing = false;
    }

    /** The body for the handler waiting on {@code f}, or what went wrong as an unchecked exception. */
    static RequestBody join(Http1Channel channel, CompletableFuture<RequestBody> f) {
        try {
            return channel.await(f); // the body-read timeout, a failure or a close always completes f
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new UncheckedIOException(new IOException("request body failed", e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while waiting for the request body"));
        }
    }

    /** A fresh view of the "100 Continue" answer (the bytes are shared). */
    static ByteBuffer continueAnswer() {
        return CONTINUE_BYTES.duplicate();
    }

    void delivered(RequestBody body) {
        CompletableFuture<RequestBody> f = waiter;
        waiter = null;
        if (f != null) {
            f.complete(body);
        }
    }

    /** Reading failed or was refused: the handler's wait fails with {@code e}; a later ask must not read again. */
    void failed(RuntimeException e) {
        pending = false;
        CompletableFuture<RequestBody> f = waiter;
        waiter = null;
        if (f != null) {
            f.completeExceptionally(e);
        }
    }

    /** The connection closed: a waiting handler learns the client is gone. */
    void closed() {
        CompletableFuture<RequestBody> f = waiter;
        waiter = null;
        if (f != null) {
            f.completeExceptionally(new ClientDisconnectedException(
                    "client closed the connection before the request body arrived"));
        }
    }
}
