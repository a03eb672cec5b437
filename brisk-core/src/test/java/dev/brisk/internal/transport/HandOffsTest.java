package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A loop turn's virtual-thread starts: held until the turn ends, then each task on a thread of its own. */
class HandOffsTest {
    private final ExecutorService virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
    private final Executor executor = HandOffs.executor(virtualThreads);

    @AfterEach
    void stop() {
        virtualThreads.shutdownNow();
    }

    /** Runs {@code turn} on a loop thread, then ends its turn there, as the loops do. */
    private void onLoop(Runnable turn) throws InterruptedException {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        LoopThread loop = new LoopThread(() -> {
            try {
                turn.run();
            } catch (Throwable t) {
                failed.set(t);
            }
            ((LoopThread) Thread.currentThread()).endTurn();
        }, "test-loop", task -> {
            throw new AssertionError("no task is handed to this loop");
        });
        loop.start();
        loop.join(10_000);
        assertThat(loop.isAlive()).isFalse();
        assertThat(failed.get()).isNull();
    }

    @Test
    void aTurnsTasksStartOnlyWhenItEndsAndEachOnAVirtualThreadOfItsOwn() throws Exception {
        int n = 5;
        CountDownLatch allRunning = new CountDownLatch(n);
        CountDownLatch done = new CountDownLatch(n);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        onLoop(() -> {
            for (int i = 0; i < n; i++) {
                executor.execute(() -> {
                    threads.add(Thread.currentThread());
                    allRunning.countDown();
                    try {
                        // every task waits for all the others: run one after another, they never would
                        if (allRunning.await(10, TimeUnit.SECONDS)) {
                            done.countDown();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertThat(threads).as("nothing starts before the turn ends").isEmpty();
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads).hasSize(n).allMatch(Thread::isVirtual);
        assertThat(threads.stream().distinct().count()).isEqualTo(n);
    }

    @Test
    void aSingleTaskAndTasksFromOtherThreadsStartAtOnce() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        executor.execute(ran::countDown); // not a loop thread: no turn to wait for
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();

        AtomicReference<Thread> on = new AtomicReference<>();
        CountDownLatch one = new CountDownLatch(1);
        onLoop(() -> executor.execute(() -> {
            on.set(Thread.currentThread());
            one.countDown();
        }));
        assertThat(one.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(on.get().isVirtual()).isTrue();
    }

    @Test
    void aStoppedExecutorRefusesAtOnceOnTheLoop() throws Exception {
        virtualThreads.shutdown();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        onLoop(() -> {
            try {
                executor.execute(() -> { });
            } catch (RejectedExecutionException e) {
                refused.set(e);
            }
        });
        assertThat(refused.get()).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void aTurnOfManyTasksGrowsItsBatch() throws Exception {
        int n = 100;
        CountDownLatch done = new CountDownLatch(n);
        onLoop(() -> {
            for (int i = 0; i < n; i++) {
                executor.execute(done::countDown);
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * A turn's plain starts (tasks without a kept thread), one or many, are made by the loop itself as the
     * turn ends, in the order the loop asked: into the loop's own submission queue, where the launcher's
     * wake-up waits too (see {@link HandOffs}); made by a carrier they would wait behind every thread a
     * carrier woke.
     */
    @Test
    void aTurnsPlainStartsAreMadeInOrderByTheLoop() throws Exception {
        List<String> startedBy = new CopyOnWriteArrayList<>();
        List<Integer> ran = new CopyOnWriteArrayList<>();
        // the factory is asked for the thread by whoever starts it: it records that thread
        ExecutorService recording = Executors.newThreadPerTaskExecutor(task -> {
            startedBy.add(Thread.currentThread().getName());
            return Thread.ofVirtual().unstarted(task);
        });
        Executor turns = HandOffs.executor(recording);
        CountDownLatch done = new CountDownLatch(4);
        onLoop(() -> turns.execute(done::countDown)); // a turn of one
        onLoop(() -> {
            for (int i = 0; i < 3; i++) {
                int n = i;
                turns.execute(() -> {
                    ran.add(n);
                    done.countDown();
                });
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        recording.shutdownNow();
        assertThat(startedBy).containsOnly("test-loop").hasSize(4);
        assertThat(ran).containsExactlyInAnyOrder(0, 1, 2);
    }

    /**
     * Many short turns, the launcher busy or parked or about to take the last offer as each ends: every
     * start is made, none twice, and no start waits for a later turn (the last turns add nothing more).
     */
    @Test
    void manyTurnsLoseNoStart() throws Exception {
        int turns = 20_000;
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        CountDownLatch all = new CountDownLatch(turns * 2);
        onLoop(() -> {
            LoopThread me = (LoopThread) Thread.currentThread();
            for (int i = 0; i < turns; i++) {
                for (int k = 0; k < 2; k++) {
                    executor.execute(() -> {
                        started.incrementAndGet();
                        all.countDown();
                    });
                }
                me.endTurn();
            }
        });
        assertThat(all.await(20, TimeUnit.SECONDS)).as("every start made").isTrue();
        assertThat(started.get()).isEqualTo(turns * 2);
    }
}
