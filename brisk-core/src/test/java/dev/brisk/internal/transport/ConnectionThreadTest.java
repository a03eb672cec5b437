package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A connection's kept thread: every task offered runs once, on the one thread while it is kept, whether
 * the next task comes while the thread is still ending the last one or after it parked; a retired or
 * interrupted thread ends, and later tasks still run.
 */
class ConnectionThreadTest {
    private final ExecutorService virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());

    @AfterEach
    void stop() {
        virtualThreads.shutdownNow();
    }

    /**
     * As a connection offers: the next task only once the last one handed its request back, which here
     * is in the middle of the task (the thread is still running it), or after it ended (it may have
     * parked): both orders, many times.
     */
    @Test
    void everyTaskRunsOnceOnTheOneThread() throws Exception {
        ConnectionThread ct = new ConnectionThread();
        int n = 20_000;
        AtomicInteger ran = new AtomicInteger();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        Semaphore handedBack = new Semaphore(0);
        for (int i = 0; i < n; i++) {
            boolean early = (i & 1) == 0;
            ct.run(() -> {
                threads.add(Thread.currentThread());
                ran.incrementAndGet();
                if (early) {
                    handedBack.release(); // the next offer may come while this task still runs
                    Thread.onSpinWait();
                }
            }, virtualThreads, false);
            if (early) {
                assertThat(handedBack.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            } else {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (ran.get() != i + 1 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ran.get() != n && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(ran.get()).isEqualTo(n);
        assertThat(threads).hasSize(1).allMatch(Thread::isVirtual);
        Thread kept = threads.iterator().next();
        ct.retire();
        kept.join(10_000);
        assertThat(kept.isAlive()).as("a retired thread ends").isFalse();
    }

    @Test
    void aTaskOfferedAfterRetirementRunsOnAThreadOfItsOwn() throws Exception {
        ConnectionThread ct = new ConnectionThread();
        CountDownLatch first = new CountDownLatch(1);
        Thread[] on = new Thread[2];
        ct.run(() -> {
            on[0] = Thread.currentThread();
            first.countDown();
        }, virtualThreads, false);
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        ct.retire();
        on[0].join(10_000);
        assertThat(on[0].isAlive()).isFalse();
        CountDownLatch second = new CountDownLatch(1);
        ct.run(() -> {
            on[1] = Thread.currentThread();
            second.countDown();
        }, virtualThreads, false);
        assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(on[1]).isNotSameAs(on[0]);
    }

    /** A stopping server interrupts its threads: a parked kept thread ends, and the next task gets another. */
    @Test
    void anInterruptedParkedThreadEndsAndTheNextTaskStartsAnother() throws Exception {
        ConnectionThread ct = new ConnectionThread();
        Thread[] on = new Thread[2];
        CountDownLatch first = new CountDownLatch(1);
        ct.run(() -> {
            on[0] = Thread.currentThread();
            first.countDown();
        }, virtualThreads, false);
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        on[0].interrupt();
        on[0].join(10_000);
        assertThat(on[0].isAlive()).isFalse();
        CountDownLatch second = new CountDownLatch(1);
        ct.run(() -> {
            on[1] = Thread.currentThread();
            second.countDown();
        }, virtualThreads, false);
        assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(on[1]).isNotSameAs(on[0]);
        assertThat(on[1].isInterrupted()).isFalse();
    }

    /** The connection's last request (it closes after): its thread ends after the task, never parks. */
    @Test
    void theLastTaskEndsItsThread() throws Exception {
        ConnectionThread ct = new ConnectionThread();
        Thread[] on = new Thread[1];
        CountDownLatch ran = new CountDownLatch(1);
        ct.run(() -> {
            on[0] = Thread.currentThread();
            ran.countDown();
        }, virtualThreads, true);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        on[0].join(10_000);
        assertThat(on[0].isAlive()).as("ended without being retired").isFalse();
    }

    /** A start refused (the server stopped) leaves the task offered, so the caller can still run it. */
    @Test
    void aRefusedStartLeavesTheTaskToRunAnotherWay() throws Exception {
        ConnectionThread ct = new ConnectionThread();
        ExecutorService stopped = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
        stopped.shutdown();
        CountDownLatch ran = new CountDownLatch(1);
        ConnectionThread.Launch launch = (ConnectionThread.Launch) ct.offer(ran::countDown, false);
        assertThatThrownBy(() -> launch.startHere(stopped)).isInstanceOf(RejectedExecutionException.class);
        launch.runUntracked();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
