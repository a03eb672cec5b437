package dev.brisk.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures the access log: the default {@code System.LoggerFinder} maps {@code System.getLogger("brisk.access")}
 * to the java.util.logging logger of that name, so a handler on it sees every line. Optionally blocked
 * until {@link #release()}. Close it to detach.
 */
final class AccessLogCapture extends Handler implements AutoCloseable {
    // held strongly: java.util.logging keeps loggers only weakly, and would drop the handler with it
    private final Logger logger = Logger.getLogger("brisk.access");
    private final Level levelBefore = logger.getLevel();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final CountDownLatch released;
    private final CountDownLatch blocked = new CountDownLatch(1);

    private AccessLogCapture(boolean block) {
        this.released = new CountDownLatch(block ? 1 : 0);
        logger.setLevel(Level.INFO);
        logger.setUseParentHandlers(false); // keep the test output clean
        logger.addHandler(this);
    }

    static AccessLogCapture start() {
        return new AccessLogCapture(false);
    }

    /** A capture whose first write blocks the log's thread until {@link #release()}. */
    static AccessLogCapture blocking() {
        return new AccessLogCapture(true);
    }

    @Override
    public void publish(LogRecord r) {
        blocked.countDown();
        try {
            released.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        // no assertion here: it would throw on the log's thread, not the test's
        lines.add(r.getLevel() == Level.INFO ? r.getMessage() : "wrong level " + r.getLevel() + ": " + r.getMessage());
    }

    void awaitBlocked() throws InterruptedException {
        assertThat(blocked.await(10, TimeUnit.SECONDS)).as("the log thread reached the handler").isTrue();
    }

    void release() {
        released.countDown();
    }

    List<String> lines() {
        return new ArrayList<>(lines);
    }

    /** Waits until {@code n} lines were written, then a little more to see that no other one comes. */
    List<String> await(int n) throws InterruptedException {
        for (int i = 0; i < 1000 && lines.size() < n; i++) {
            Thread.sleep(10);
        }
        Thread.sleep(50);
        assertThat(lines).hasSize(n);
        return lines();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(true);
        logger.setLevel(levelBefore);
    }
}
