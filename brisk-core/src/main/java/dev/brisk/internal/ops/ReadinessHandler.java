package dev.brisk.internal.ops;

import dev.brisk.Context;
import dev.brisk.Handler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The readiness route: 200 {@code {"status":"UP"}} when {@link Readiness#ready} and every check
 * passes, else 503 naming the reason (see {@code HealthConfig}). Without checks it never blocks and
 * may run on an event loop; with checks it waits for them and must run on a thread that may block.
 */
public final class ReadinessHandler implements Handler {
    private static final String JSON = "application/json";
    private static final byte[] UP = ascii("{\"status\":\"UP\"}");
    private static final byte[] SHUTTING_DOWN = ascii("{\"status\":\"DOWN\",\"reason\":\"shutting_down\"}");
    private static final byte[] NOT_READY = ascii("{\"status\":\"DOWN\",\"reason\":\"not_ready\"}");

    private final Readiness readiness;
    private final NamedCheck[] checks;
    private final long timeoutNanos;

    public ReadinessHandler(Readiness readiness, List<NamedCheck> checks, Duration timeout) {
        this.readiness = readiness;
        this.checks = checks.toArray(new NamedCheck[0]);
        this.timeoutNanos = timeout.toNanos();
    }

    /** Whether answering may block (it waits for checks). */
    public boolean blocks() {
        return checks.length > 0;
    }

    @Override
    public void handle(Context ctx) {
        ctx.header("Cache-Control", "no-store").contentType(JSON);
        byte[] refusal = refusal();
        if (refusal != null) {
            ctx.status(503).bytes(refusal);
            return;
        }
        if (checks.length == 0) {
            ctx.bytes(UP);
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        @SuppressWarnings("unchecked")
        CompletableFuture<Boolean>[] runs = new CompletableFuture[checks.length];
        for (int i = 0; i < checks.length; i++) {
            runs[i] = checks[i].start(); // all at once: the probe waits for the slowest, not the sum
        }
        StringBuilder failed = null;
        for (int i = 0; i < checks.length; i++) {
            NamedCheck.Outcome o = checks[i].await(runs[i], deadline);
            if (o != NamedCheck.Outcome.UP) {
                failed = failed == null ? new StringBuilder("{\"status\":\"DOWN\",\"reason\":\"checks_failed\",\"failed\":{")
                        : failed.append(',');
                failed.append('"').append(checks[i].name()).append("\":\"").append(o.json).append('"');
            }
        }
        refusal = refusal(); // shutdown may have begun while the checks ran
        if (refusal != null) {
            ctx.status(503).bytes(refusal);
        } else if (failed != null) {
            ctx.status(503).bytes(ascii(failed.append("}}").toString()));
        } else {
            ctx.bytes(UP);
        }
    }

    private byte[] refusal() {
        return readiness.shuttingDown() ? SHUTTING_DOWN : readiness.appReady() ? null : NOT_READY;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
