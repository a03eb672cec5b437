package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A loop's spare threads: a task offered when a spare is free runs on it (no new thread), tasks at once
 * get spares of their own, the scan ends those unused for a whole period, and a loop's end ends them
 * all, including one still busy then. This test's thread plays the loop.
 */
class SpareThreadsTest {
    private final ExecutorService virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
    private final SpareThreads spares = new SpareThreads();

    @AfterEach
    void stop() {
        spares.close();
        virtualThreads.shutdownNow();
    }

    /** What the launcher does with an offer. */
    private void run(Runnable offered) {
        ((ConnectionThread.Launch) offered).runOn(virtualThreads, false);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.sleep(1); // polling a condition, bounded by the deadline
        }
    }

    @Test
    void tasksOneAfterAnotherRunOnOneSpare() throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 2_000; i++) {
            run(spares.offer(() -> {
                threads.add(Thread.currentThread());
                ran.incrementAndGet();
            }));
            int expected = i + 1;
            await(() -> ran.get() == expected && spares.free() == 1);
        }
        assertThat(threads).hasSize(1);
        assertThat(threads.iterator().next().isVirtual()).isTrue();
    }

    @Test
    void tasksAtOnceGetSparesOfTheirOwnAndThenReuseThem() throws Exception {
        int n = 10;
        Set<Thread> first = ConcurrentHashMap.newKeySet();
        CountDownLatch allIn = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            run(spares.offer(() -> {
                first.add(Thread.currentThread());
                allIn.countDown();
                try {
                    allIn.await(); // each waits for all the others: only possible on n threads
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        assertThat(allIn.await(10, TimeUnit.SECONDS)).isTrue();
        await(() -> spares.free() == n);
        assertThat(first).hasSize(n);

        Set<Thread> second = ConcurrentHashMap.newKeySet();
        CountDownLatch again = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            run(spares.offer(() -> {
                second.add(Thread.currentThread());
                again.countDown();
            }));
        }
        assertThat(again.await(10, TimeUnit.SECONDS)).isTrue();
        await(() -> spares.free() == n);
        assertThat(second).isSubsetOf(first);
    }

    @Test
    void theScanEndsSparesUnusedForAWholePeriod() throws Exception {
        List<Thread> threads = new ArrayList<>();
        CountDownLatch ran = new CountDownLatch(1);
        run(spares.offer(() -> {
            synchronized (threads) {
                threads.add(Thread.currentThread());
            }
            ran.countDown();
        }));
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        await(() -> spares.free() == 1);
        Thread t;
        synchronized (threads) {
            t = threads.get(0);
        }

        spares.trim(); // used since the last scan: kept
        assertThat(spares.free()).isEqualTo(1);
        assertThat(t.isAlive()).isTrue();

        spares.trim(); // unused for a whole period: ends
        assertThat(spares.free()).isZero();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(t.isAlive()).isFalse();

        CountDownLatch later = new CountDownLatch(1);
        run(spares.offer(later::countDown)); // a later task gets a new spare
        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theLoopsEndEndsFreeSparesAndBusyOnesAsTheyFinish() throws Exception {
        Thread[] threads = new Thread[3];
        CountDownLatch finish = new CountDownLatch(1);
        run(spares.offer(() -> threads[0] = Thread.currentThread()));
        await(() -> spares.free() == 1);
        run(spares.offer(() -> { // takes the free spare and keeps it busy
            threads[1] = Thread.currentThread();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        await(() -> threads[1] != null);
        assertThat(threads[1]).isSameAs(threads[0]);
        run(spares.offer(() -> threads[2] = Thread.currentThread())); // none free: a new spare
        await(() -> spares.free() == 1);
        assertThat(threads[2]).isNotSameAs(threads[1]);

        spares.close();
        threads[2].join(TimeUnit.SECONDS.toMillis(10));
        assertThat(threads[2].isAlive()).as("a free spare ends with the loop").isFalse();
        assertThat(threads[1].isAlive()).isTrue();
        finish.countDown();
        threads[1].join(TimeUnit.SECONDS.toMillis(10));
        assertThat(threads[1].isAlive()).as("a busy spare ends as its task ends").isFalse();
        assertThat(spares.free()).isZero();
    }
}
