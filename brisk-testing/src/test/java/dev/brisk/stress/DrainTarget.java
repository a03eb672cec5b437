package dev.brisk.stress;

import dev.brisk.Brisk;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The app {@link SigtermDrainTest} runs in a process of its own and stops with SIGTERM: {@code /hello},
 * {@code /slow} (a handler that takes a second) and {@code /inflight} (how many {@code /slow} handlers
 * are running). Options come from the environment ({@code BRISK_*}); it prints its port on one line.
 */
public final class DrainTarget {
    private DrainTarget() {
    }

    public static void main(String[] args) {
        AtomicInteger inflight = new AtomicInteger();
        Brisk app = Brisk.create(cfg -> {
            cfg.options().port(0).host("127.0.0.1");
            cfg.get("/hello", ctx -> ctx.text("hello " + ctx.queryParam("n")));
            cfg.get("/slow", ctx -> {
                inflight.incrementAndGet();
                try {
                    Thread.sleep(1_000);
                } finally {
                    inflight.decrementAndGet();
                }
                ctx.text("slow " + ctx.queryParam("n"));
            });
            cfg.get("/inflight", ctx -> ctx.text(Integer.toString(inflight.get())));
        }).start().closeOnShutdown();
        System.out.println("port " + app.port());
        System.out.flush();
    }
}
