package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A loop's spare threads: handlers offered one after another run on one spare; many offered in one turn
 * are run by a few spares, not a thread each; a handler that blocks holds none of the others back; an
 * interrupt a handler leaves is not the next one's; the scan ends spares unused for a whole period, and
 * the loop's end ends them all, including one still busy then. A single-thread executor plays the loop.
 */
class SpareThreadsTest {
    private final ExecutorService virtualThreads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
    private final ExecutorService loop = Executors.newSingleThreadExecutor();
    /** As a loop does: each task it is handed is a turn, which ends by starting the spares asked for. */
    private final SpareThreads spares = new SpareThreads(task -> loop.execute(() -> {
        task.run();
        this.spares.startAsked();
    }));
    /** What the loop's executor of virtual threads does with what it is given, at once. */
    private final Executor starter = task -> {
        if (task instanceof ConnectionThread.Launch launch) {
            launch.runOn(virtualThreads, false);
        } else {
            virtualThreads.execute(task);
        }
    };

    @AfterEach
    void stop() throws Exception {
        onLoop(() -> {
            spares.close();
            return null;
        });
        loop.shutdownNow();
        virtualThreads.shutdownNow();
    }

    private <T> T onLoop(Callable<T> c) throws Exception {
        return loop.submit(c).get(10, TimeUnit.SECONDS);
    }

    /** One loop turn: the handlers offered, then the wake-up asked for, if any, made. */
    private void turn(Runnable... handlers) throws Exception {
        List<Runnable> wakes = onLoop(() -> {
            List<Runnable> w = new ArrayList<>();
            for (Runnable h : handlers) {
                Runnable wake = spares.offer(h, starter);
                if (wake != null) {
                    w.add(wake);
                }
            }
            spares.startAsked();
            return w;
        });
        for (Runnable w : wakes) {
            starter.execute(w); // as the launcher does once the turn ends
        }
    }

    private int parked() throws Exception {
        return onLoop(spares::parked);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.sleep(1); // polling a condition, bounded by the deadline
        }
    }

    private void awaitParked(int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (parked() != n) {
            assertThat(System.nanoTime()).as(n + " parked within 10 s").isLessThan(deadline);
            Thread.sleep(1); // polling a condition, bounded by the deadline
        }
    }

    @Test
    void handlersOneAfterAnotherRunOnOneSpare() throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 1_000; i++) {
            turn(() -> {
                threads.add(Thread.currentThread());
                ran.incrementAndGet();
            });
            int expected = i + 1;
            await(() -> ran.get() == expected);
            awaitParked(1);
        }
        assertThat(threads).hasSize(1);
        assertThat(threads.iterator().next().isVirtual()).isTrue();
    }

    /** 200 quick handlers in one turn: run by a spare or two, one after another, not a thread each. */
    @Test
    void manyHandlersInOneTurnShareAFewSpares() throws Exception {
        int n = 200;
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch ran = new CountDownLatch(n);
        Runnable[] handlers = new Runnable[n];
        for (int i = 0; i < n; i++) {
            handlers[i] = () -> {
                threads.add(Thread.currentThread());
                ran.countDown();
            };
        }
        turn(handlers);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads.size()).isLessThanOrEqualTo(n / 4);
    }

    /** The first handler blocks until the last has run: only possible if the others do not wait for it. */
    @Test
    void aBlockedHandlerHoldsNoneBack() throws Exception {
        CountDownLatch lastRan = new CountDownLatch(1);
        CountDownLatch firstDone = new CountDownLatch(1);
        AtomicInteger middle = new AtomicInteger();
        Runnable[] handlers = new Runnable[12];
        handlers[0] = () -> {
            try {
                if (lastRan.await(10, TimeUnit.SECONDS)) {
                    firstDone.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        for (int i = 1; i < 11; i++) {
            handlers[i] = middle::incrementAndGet;
        }
        handlers[11] = lastRan::countDown;
        turn(handlers);
        assertThat(firstDone.await(10, TimeUnit.SECONDS)).isTrue();
        // two spares may share the middle ones: the last can finish before a middle one another spare holds
        await(() -> middle.get() == 10);
        // and again on the same spares, now parked: one blocks, one offered later still runs
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch later = new CountDownLatch(1);
        turn(() -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        turn(later::countDown);
        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
    }

    @Test
    void anInterruptLeftByAHandlerIsNotTheNextOnes() throws Exception {
        AtomicInteger interrupted = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(20);
        Runnable[] handlers = new Runnable[20];
        for (int i = 0; i < 20; i++) {
            handlers[i] = () -> {
                if (Thread.currentThread().isInterrupted()) {
                    interrupted.incrementAndGet();
                }
                Thread.currentThread().interrupt(); // left behind on purpose
                ran.countDown();
            };
        }
        turn(handlers);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.get()).isZero();
    }

    @Test
    void theScanEndsSparesUnusedForAWholePeriod() throws Exception {
        Thread[] seen = new Thread[1];
        CountDownLatch ran = new CountDownLatch(1);
        turn(() -> {
            seen[0] = Thread.currentThread();
            ran.countDown();
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        awaitParked(1);
        Thread t = seen[0];

        onLoop(() -> {
            spares.trim(); // woken since the last scan: kept
            return null;
        });
        assertThat(parked()).isEqualTo(1);
        assertThat(t.isAlive()).isTrue();

        onLoop(() -> {
            spares.trim(); // unused for a whole period: ends
            return null;
        });
        assertThat(parked()).isZero();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(t.isAlive()).isFalse();

        CountDownLatch later = new CountDownLatch(1);
        turn(later::countDown); // a later handler gets a new spare
        assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theLoopsEndEndsParkedSparesAndBusyOnesAsTheyFinish() throws Exception {
        Thread[] threads = new Thread[2];
        CountDownLatch finish = new CountDownLatch(1);
        turn(() -> { // keeps its spare busy
            threads[0] = Thread.currentThread();
            try {
                finish.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await(() -> threads[0] != null);
        turn(() -> threads[1] = Thread.currentThread()); // none searching: another spare, which then parks
        awaitParked(1);
        assertThat(threads[1]).isNotNull().isNotSameAs(threads[0]);

        onLoop(() -> {
            spares.close();
            return null;
        });
        assertThat(parked()).isZero();
        threads[1].join(TimeUnit.SECONDS.toMillis(10));
        assertThat(threads[1].isAlive()).as("a parked spare ends with the loop").isFalse();
        assertThat(threads[0].isAlive()).isTrue();
        finish.countDown();
        threads[0].join(TimeUnit.SECONDS.toMillis(10));
        assertThat(threads[0].isAlive()).as("a busy spare ends as its handler ends").isFalse();
        assertThat(parked()).isZero();
    }

    /**
     * A spare asks its loop to start another for a waiting handler, and the loop ends before it does:
     * the loop's end starts it, so the handler still runs.
     */
    @Test
    void aHandlerWaitingWhenTheLoopEndsStillRuns() throws Exception {
        SpareThreads ending = new SpareThreads(task -> { }); // a loop that has stopped taking tasks
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstIn = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        Runnable wake = onLoop(() -> {
            Runnable w = ending.offer(() -> {
                firstIn.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS); // longer than the test waits for the second
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, starter);
            assertThat(ending.offer(secondRan::countDown, starter)).isNull(); // a spare is already woken
            return w;
        });
        starter.execute(wake);
        assertThat(firstIn.await(10, TimeUnit.SECONDS)).isTrue();
        // the first spare asked the loop for another, for the second handler: the loop never starts it
        assertThat(secondRan.await(200, TimeUnit.MILLISECONDS)).isFalse();
        onLoop(() -> {
            ending.close();
            return null;
        });
        assertThat(secondRan.await(10, TimeUnit.SECONDS)).as("started by the loop's end").isTrue();
        release.countDown();
    }
}
