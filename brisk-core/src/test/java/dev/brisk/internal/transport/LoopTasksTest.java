package dev.brisk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The loop's task queue: first in first out per adding thread, nothing lost, a linked task re-added. */
class LoopTasksTest {
    @Test
    void tasksRunInTheOrderTheyWereAdded() {
        LoopTasks q = new LoopTasks();
        List<Integer> ran = new ArrayList<>();
        assertThat(q.isEmpty()).isTrue();
        for (int i = 0; i < 5; i++) {
            int n = i;
            q.add(() -> ran.add(n));
        }
        q.poll().run();
        q.poll().run();
        q.add(() -> ran.add(5)); // added while the loop holds taken ones: still after them
        Runnable t;
        while ((t = q.poll()) != null) {
            t.run();
        }
        assertThat(ran).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(q.isEmpty()).isTrue();
    }

    /** A turn runs the tasks there when it began: one that posts itself again runs once per turn, not forever. */
    @Test
    void aTurnTakesOnlyTheTasksAddedBeforeIt() {
        LoopTasks q = new LoopTasks();
        int[] runs = new int[1];
        LoopTasks.Linked again = new LoopTasks.Linked() {
            @Override
            public void run() {
                runs[0]++;
                q.add(this);
            }
        };
        List<Integer> ran = new ArrayList<>();
        q.add(() -> ran.add(0));
        q.add(again);
        q.add(() -> ran.add(1));
        for (int turn = 1; turn <= 3; turn++) {
            q.beginTurn();
            Runnable t;
            while ((t = q.pollTurn()) != null) {
                t.run();
                q.add(() -> ran.add(9)); // added during the turn: the next turn's
            }
            assertThat(runs[0]).as("turn %d", turn).isEqualTo(turn);
            assertThat(q.isEmpty()).isFalse();
        }
        assertThat(ran.subList(0, 2)).containsExactly(0, 1);
    }

    @Test
    void aLinkedTaskIsItsOwnNodeAndMayBeAddedAgainOnceTaken() {
        LoopTasks q = new LoopTasks();
        int[] runs = new int[1];
        LoopTasks.Linked task = new LoopTasks.Linked() {
            @Override
            public void run() {
                runs[0]++;
            }
        };
        for (int i = 0; i < 3; i++) {
            q.add(() -> { });
            q.add(task);
            q.poll().run();
            Runnable taken = q.poll();
            assertThat(taken).isSameAs(task);
            taken.run();
            assertThat(q.poll()).isNull();
        }
        assertThat(runs[0]).isEqualTo(3);
    }

    @Test
    void manyAddersLoseNothingAndEachAddersTasksKeepTheirOrder() throws Exception {
        LoopTasks q = new LoopTasks();
        int adders = 4;
        int each = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        int[][] seen = new int[adders][1];
        boolean[] ordered = {true};
        for (int a = 0; a < adders; a++) {
            int adder = a;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    int n = i;
                    q.add(() -> {
                        ordered[0] &= seen[adder][0] == n;
                        seen[adder][0]++;
                    });
                }
            }));
        }
        go.countDown();
        long taken = 0;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (taken < (long) adders * each && System.nanoTime() < deadline) {
            Runnable t = q.poll();
            if (t == null) {
                Thread.onSpinWait();
                continue;
            }
            t.run();
            taken++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(taken).isEqualTo((long) adders * each);
        assertThat(ordered[0]).isTrue();
        assertThat(q.poll()).isNull();
    }
}
