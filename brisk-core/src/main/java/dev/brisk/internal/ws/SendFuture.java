package dev.brisk.internal.ws;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future a send returns: completed by the {@link Outbound} once the socket took the message's last
 * byte, failed once the session closes before that.
 *
 * <p>Why a subclass: a handler that runs on the thread that also writes its session (a blocking
 * engine's connection thread, or an event-loop route) and waits on the future would wait for itself,
 * since that thread writes only after the handler returns. So a wait ({@link #join}, {@link #get}) first
 * lets the {@link Sender} write what is queued ({@link Sender#beforeWait}): on a blocking wire the wait
 * then returns; on a selector loop a message the socket cannot take at once fails the wait with an
 * {@link IllegalStateException} rather than stop the loop for good. Futures derived from it
 * ({@code thenRun}, {@code exceptionally} and the like) are of this class too, and wait alike.
 */
final class SendFuture<T> extends CompletableFuture<T> {
    private final Sender sender;

    SendFuture(Sender sender) {
        this.sender = sender;
    }

    /** Derived futures ({@code thenRun} and the like) wait the same way. */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new SendFuture<>(sender);
    }

    @Override
    public T join() {
        sender.beforeWait(this);
        return super.join();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        sender.beforeWait(this);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        sender.beforeWait(this);
        return super.get(timeout, unit);
    }
}
