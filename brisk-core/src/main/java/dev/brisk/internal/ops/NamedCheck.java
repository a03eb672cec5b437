package dev.brisk.internal.ops;

import dev.brisk.HealthCheck;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One registered readiness check and its run in progress. {@link #start} runs the check on a new
 * virtual thread unless a run is still going, in which case callers share that run: a hung check
 * holds one thread, however many probes arrive. Logs when the outcome changes. Thread-safe.
 */
public final class NamedCheck {
    private static final System.Logger LOG = System.getLogger("dev.brisk");

    /** A check's answer to one probe; the lower-case name is what the readiness body shows. */
    public enum Outcome {
        UP, DOWN, ERROR, TIMEOUT;

        final String json = name().toLowerCase(java.util.Locale.ROOT);
    }

    private final String name;
    private final HealthCheck check;
    private final AtomicReference<CompletableFuture<Boolean>> run = new AtomicReference<>();
    private volatile Outcome last = Outcome.UP;

    public NamedCheck(String name, HealthCheck check) {
        this.name = name;
        this.check = check;
    }

    public String name() {
        return name;
    }

    /** The current run of the check: the one in progress, else a new one. */
    public CompletableFuture<Boolean> start() {
        while (true) {
            CompletableFuture<Boolean> current = run.get();
            if (current != null && !current.isDone()) {
                return current;
            }
            CompletableFuture<Boolean> next = new CompletableFuture<>();
            if (run.compareAndSet(current, next)) {
                Thread.ofVirtual().name("brisk-health-check").start(() -> {
                    try {
                        next.complete(check.isUp());
                    } catch (Throwable t) {
                        next.completeExceptionally(t);
                    }
                });
                return next;
            }
        }
    }

    /** Waits for {@code running} until {@code deadline} ({@link System#nanoTime}) and names the outcome. */
    public Outcome await(CompletableFuture<Boolean> running, long deadline) {
        Outcome o;
        Throwable cause = null;
        try {
            o = running.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS) ? Outcome.UP : Outcome.DOWN;
        } catch (ExecutionException e) {
            o = Outcome.ERROR;
            cause = e.getCause();
        } catch (TimeoutException e) {
            o = Outcome.TIMEOUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping: no answer in time
            o = Outcome.TIMEOUT;
        }
        Outcome before = last;
        if (o != before) {
            last = o;
            // transitions only: a probe every few seconds must not repeat the same line forever
            String what = o == Outcome.UP ? "passes again" : "fails: " + o.json;
            LOG.log(o == Outcome.UP ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                    "readiness check '" + name + "' " + what + (before == Outcome.UP ? "" : " (was " + before.json + ")"),
                    cause);
        }
        return o;
    }
}
