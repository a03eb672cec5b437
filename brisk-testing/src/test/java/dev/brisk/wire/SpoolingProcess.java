package dev.brisk.wire;

import dev.brisk.Brisk;
import java.util.concurrent.CountDownLatch;

/**
 * A process of its own for {@link AbandonedSpoolTest}: a server spooling bodies past 64 KiB into
 * {@code args[0]}, whose {@code POST /hold} keeps its body (and its file) until the process ends. It
 * prints {@code port <n>} once listening and {@code held} once a body is in its file, and is never
 * closed: it ends when it is killed.
 */
public final class SpoolingProcess {
    private SpoolingProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        Brisk server = Brisk.create(cfg -> {
            cfg.options().host("127.0.0.1").port(0).bodySpoolThreshold(64 * 1024).bodySpoolDir(args[0]);
            cfg.post("/hold", ctx -> {
                long n = ctx.bodyAsStream().transferTo(java.io.OutputStream.nullOutputStream());
                System.out.println("held " + n);
                System.out.flush();
                never.await();
            }).maxBodySize(8 << 20);
        }).start();
        System.out.println("port " + server.port());
        System.out.flush();
        never.await();
    }
}
