package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/** Shared helpers for the stress tests: bounded waits, parallel clients, limits of this machine. */
final class Stress {
    private Stress() {
    }

    /** A task run by one client. */
    @FunctionalInterface
    interface ClientTask {
        void run(int index) throws Exception;
    }

    /**
     * Runs {@code count} clients at once, each on its own virtual thread, released together; fails with
     * the first failures if any client failed or if not all finished within {@code timeout}.
     */
    static void runClients(int count, Duration timeout, ClientTask task) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(count);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            threads.add(Thread.ofVirtual().name("client-" + i).start(() -> {
                try {
                    go.await();
                    task.run(index);
                } catch (Throwable t) {
                    failures.add(new AssertionError("client " + index + ": " + t, t));
                } finally {
                    done.countDown();
                }
            }));
        }
        go.countDown();
        boolean finished = done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            threads.forEach(Thread::interrupt);
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError(failures.size() + " of " + count + " clients failed; first: "
                    + failures.peek(), failures.peek());
            failures.stream().skip(1).limit(5).forEach(e::addSuppressed);
            throw e;
        }
        assertThat(finished).as("all %d clients finished within %s (%d left)", count, timeout, done.getCount())
                .isTrue();
    }

    /** Polls {@code condition} every 10 ms until true or {@code timeout}; returns whether it became true. */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** Waits until {@code app} has no open connection. */
    static void awaitNoConnections(Brisk app, Duration timeout) {
        boolean ok = await(timeout, () -> app.connectionCount() == 0);
        assertThat(ok).as("connectionCount() back to 0 within %s, still %d", timeout, app.connectionCount()).isTrue();
    }

    /** The open-file limit of this JVM, or -1 when unknown. */
    static long maxFileDescriptors() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return os.getMaxFileDescriptorCount();
        }
        return -1;
    }

    /** Open files of this JVM now, or -1 when unknown. */
    static long openFileDescriptors() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return os.getOpenFileDescriptorCount();
        }
        return -1;
    }

    /** Live platform threads the engine names brisk-* (acceptor, I/O loops, workers). */
    static Set<Thread> briskThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("brisk-"))
                .collect(Collectors.toSet());
    }

    /** Waits until no brisk-* thread is alive that was not in {@code before}. */
    static void awaitNoNewBriskThreads(Set<Thread> before, Duration timeout) {
        assertThat(await(timeout, () -> before.containsAll(briskThreads())))
                .as("engine threads left behind: %s", briskThreads()).isTrue();
    }

    /** A loopback port that was free a moment ago. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }
}
