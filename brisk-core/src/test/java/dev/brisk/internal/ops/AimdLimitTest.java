package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AimdLimitTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;
    private static final long THRESHOLD = 10 * MS;
    private static final long WINDOW = 100 * MS;
    private static final long FAST = MS;
    private static final long SLOW = 50 * MS;

    /** A clock the test moves by hand. Starts at an arbitrary value: only differences matter. */
    static final class FakeClock implements LongSupplier {
        long now;

        FakeClock(long start) {
            now = start;
        }

        @Override
        public long getAsLong() {
            return now;
        }

        void advance(long nanos) {
            now += nanos;
        }
    }

    private final FakeClock clock = new FakeClock(123_456_789_000L);

    private static AimdLimit.Settings settings(int initial, int min, int max) {
        return new AimdLimit.Settings(initial, min, max, 0.9, Duration.ofNanos(THRESHOLD), Duration.ofNanos(WINDOW));
    }

    private AimdLimit aimd(int initial, int min, int max) {
        return new AimdLimit(settings(initial, min, max), clock);
    }

    /** Many fast samples at a busy in-flight count, as within one window of a loaded server. */
    private static void busyFastSamples(AimdLimit limit, int n) {
        for (int i = 0; i < n; i++) {
            limit.onSample(FAST, limit.current(), false);
        }
    }

    private static void slowSamples(AimdLimit limit, int n) {
        for (int i = 0; i < n; i++) {
            limit.onSample(SLOW, limit.current(), false);
        }
    }

    @Nested
    class Settings {
        @Test
        void defaultsAreTheDocumentedOnes() {
            AimdLimit.Settings d = AimdLimit.Settings.defaults();
            assertThat(d.initialLimit()).isEqualTo(100);
            assertThat(d.minLimit()).isEqualTo(10);
            assertThat(d.maxLimit()).isEqualTo(1000);
            assertThat(d.backoffRatio()).isEqualTo(0.9);
            assertThat(d.latencyThreshold()).isEqualTo(Duration.ofSeconds(1));
            assertThat(d.window()).isEqualTo(Duration.ofMillis(100));
            assertThat(new AimdLimit(d).current()).isEqualTo(100);
        }

        @Test
        void rejectsValuesOutOfRange() {
            Duration t = Duration.ofMillis(10);
            Duration w = Duration.ofMillis(100);
            assertThatThrownBy(() -> new AimdLimit.Settings(1, 0, 10, 0.9, t, w))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minLimit");
            assertThatThrownBy(() -> new AimdLimit.Settings(5, 5, 4, 0.9, t, w))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxLimit");
            assertThatThrownBy(() -> new AimdLimit.Settings(4, 5, 10, 0.9, t, w))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialLimit");
            assertThatThrownBy(() -> new AimdLimit.Settings(11, 5, 10, 0.9, t, w))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialLimit");
            for (double ratio : new double[] {0, 1, -0.5, 1.5, Double.NaN}) {
                assertThatThrownBy(() -> new AimdLimit.Settings(5, 1, 10, ratio, t, w))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backoffRatio");
            }
            assertThatThrownBy(() -> new AimdLimit.Settings(5, 1, 10, 0.9, Duration.ZERO, w))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latencyThreshold");
            assertThatThrownBy(() -> new AimdLimit.Settings(5, 1, 10, 0.9, t, Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
            assertThatThrownBy(() -> new AimdLimit.Settings(5, 1, 10, 0.9, null, w))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> new AimdLimit(AimdLimit.Settings.defaults(), null))
                    .isInstanceOf(NullPointerException.class);
            // the edges are allowed
            assertThat(new AimdLimit(new AimdLimit.Settings(1, 1, 1, 0.5, t, Duration.ZERO)).current()).isEqualTo(1);
        }
    }

    @Test
    void startsAtTheInitialLimit() {
        AimdLimit limit = aimd(37, 5, 200);
        assertThat(limit.current()).isEqualTo(37);
        assertThat(limit).hasToString("AimdLimit[limit=37 in [5, 200]]");
    }

    @Test
    void growsByOnePerWindowWhileBusyAndNeverBeyondMax() {
        AimdLimit limit = aimd(20, 5, 25);
        for (int expected = 21; expected <= 25; expected++) {
            busyFastSamples(limit, 1_000);
            assertThat(limit.current()).as("one increase per window").isEqualTo(expected);
            clock.advance(WINDOW / 2);
            busyFastSamples(limit, 1_000);
            assertThat(limit.current()).as("still the same window").isEqualTo(expected);
            clock.advance(WINDOW / 2);
        }
        for (int w = 0; w < 20; w++) {
            busyFastSamples(limit, 100);
            limit.onSample(FAST, Integer.MAX_VALUE, false);
            assertThat(limit.current()).isEqualTo(25);
            clock.advance(WINDOW);
        }
    }

    @Test
    void doesNotGrowWithoutEvidenceThatTheLimitIsInUse() {
        AimdLimit limit = aimd(20, 5, 100);
        for (int w = 0; w < 50; w++) {
            for (int inFlight = 0; inFlight < 10; inFlight++) { // all below half of 20
                limit.onSample(FAST, inFlight, false);
            }
            clock.advance(WINDOW);
        }
        assertThat(limit.current()).isEqualTo(20);
        limit.onSample(FAST, 10, false); // exactly half
        assertThat(limit.current()).isEqualTo(21);
        clock.advance(WINDOW);
        limit.onSample(FAST, 10, false); // 10 < 21 / 2 rounded up
        assertThat(limit.current()).isEqualTo(21);
        limit.onSample(FAST, 11, false);
        assertThat(limit.current()).isEqualTo(22);
    }

    @Test
    void slowSamplesCutMultiplicativelyOncePerWindowDownToMin() {
        AimdLimit limit = aimd(100, 50, 200);
        // floor(l * 0.9) per window, then held at min
        int[] expected = {90, 81, 72, 64, 57, 51, 50, 50, 50};
        for (int e : expected) {
            slowSamples(limit, 1_000);
            assertThat(limit.current()).isEqualTo(e);
            clock.advance(WINDOW - 1);
            slowSamples(limit, 10);
            assertThat(limit.current()).as("not again in the same window").isEqualTo(e);
            clock.advance(1);
        }
    }

    @Test
    void aCutIsAtLeastOneEvenWithARatioJustBelowOne() {
        AimdLimit limit = new AimdLimit(new AimdLimit.Settings(3, 1, 10, Math.nextDown(1.0),
                Duration.ofNanos(THRESHOLD), Duration.ofNanos(WINDOW)), clock);
        limit.onSample(FAST, 3, true);
        assertThat(limit.current()).isEqualTo(2);
    }

    @Test
    void aSampleExactlyAtTheThresholdIsNotSlow() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(THRESHOLD, 100, false);
        assertThat(limit.current()).isEqualTo(101);
        clock.advance(WINDOW);
        limit.onSample(THRESHOLD + 1, 100, false);
        assertThat(limit.current()).isEqualTo(90);
    }

    @Test
    void droppedSamplesCutEvenWhenFast() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(FAST, 1, true);
        assertThat(limit.current()).isEqualTo(90);
        clock.advance(WINDOW);
        limit.onSample(0, 90, true);
        assertThat(limit.current()).isEqualTo(81);
    }

    @Test
    void minOfOneIsReachedButNotPassed() {
        AimdLimit limit = aimd(3, 1, 10);
        int[] expected = {2, 1, 1, 1};
        for (int e : expected) {
            limit.onSample(FAST, 3, true);
            assertThat(limit.current()).isEqualTo(e);
            clock.advance(WINDOW);
        }
        limit.onSample(FAST, 1, false); // a single request in flight is half of one, rounded up
        assertThat(limit.current()).isEqualTo(2);
    }

    @Test
    void overloadAtTheMinimumStillHoldsGrowthBack() {
        AimdLimit limit = aimd(5, 5, 10);
        limit.onSample(SLOW, 5, false);
        assertThat(limit.current()).isEqualTo(5);
        clock.advance(WINDOW - 1);
        busyFastSamples(limit, 10);
        assertThat(limit.current()).isEqualTo(5);
        clock.advance(1);
        busyFastSamples(limit, 10);
        assertThat(limit.current()).isEqualTo(6);
    }

    @Test
    void aBurstOfSlowRequestsAdmittedTogetherCutsOnlyOnce() {
        AimdLimit limit = aimd(100, 1, 200);
        long admitted = clock.now;
        // the whole burst, admitted at once, completes slowly over two seconds: twenty windows
        for (int i = 0; i < 2_000; i++) {
            clock.advance(MS);
            limit.onSample(clock.now - admitted, 100 - i / 20, false);
        }
        assertThat(limit.current()).as("only requests admitted after the cut say anything about it").isEqualTo(90);
        // a request admitted after the cut that is still slow cuts again
        limit.onSample(SLOW, 90, false);
        assertThat(limit.current()).isEqualTo(81);
    }

    @Test
    void slowRequestsAdmittedBeforeTheLastCutAreIgnored() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(SLOW, 100, false);
        assertThat(limit.current()).isEqualTo(90);
        long cut = clock.now;
        clock.advance(2 * WINDOW);
        limit.onSample(clock.now - cut + 1, 90, false); // admitted 1 ns before the cut
        assertThat(limit.current()).isEqualTo(90);
        limit.onSample(clock.now - cut, 90, true); // admitted at the cut: counts, dropped or not
        assertThat(limit.current()).isEqualTo(81);
    }

    @Test
    void doesNotGrowWithinAWindowAfterACut() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(SLOW, 100, false);
        assertThat(limit.current()).isEqualTo(90);
        clock.advance(WINDOW - 1);
        busyFastSamples(limit, 100);
        assertThat(limit.current()).isEqualTo(90);
        clock.advance(1);
        busyFastSamples(limit, 100);
        assertThat(limit.current()).isEqualTo(91);
    }

    @Test
    void aCutIsNotDelayedByARecentIncrease() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(FAST, 100, false);
        assertThat(limit.current()).isEqualTo(101);
        limit.onSample(SLOW / 10, 101, false); // 5 ms: fast
        limit.onSample(THRESHOLD * 2, 101, false);
        assertThat(limit.current()).as("overload is acted on at once").isEqualTo(90);
    }

    @Test
    void negativeLatencyCountsAsZero() {
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(-5 * WINDOW, 100, false);
        assertThat(limit.current()).isEqualTo(101);
        clock.advance(WINDOW);
        limit.onSample(Long.MIN_VALUE, 101, true); // dropped: cuts, and is not "admitted before the last cut"
        assertThat(limit.current()).isEqualTo(90);
    }

    @Test
    void worksAcrossAWrapOfTheClock() {
        clock.now = Long.MAX_VALUE - WINDOW / 2;
        AimdLimit limit = aimd(100, 1, 200);
        limit.onSample(SLOW, 100, false);
        assertThat(limit.current()).isEqualTo(90);
        clock.advance(WINDOW / 2 + 1); // wraps to Long.MIN_VALUE: still within the window
        limit.onSample(SLOW, 90, false);
        busyFastSamples(limit, 10);
        assertThat(limit.current()).isEqualTo(90);
        clock.advance(WINDOW / 2);
        limit.onSample(SLOW, 90, false);
        assertThat(limit.current()).isEqualTo(81);
        clock.advance(WINDOW);
        busyFastSamples(limit, 10);
        assertThat(limit.current()).isEqualTo(82);
    }

    @Test
    void aZeroWindowLetsEverySampleAdjust() {
        AimdLimit limit = new AimdLimit(
                new AimdLimit.Settings(10, 1, 20, 0.5, Duration.ofNanos(THRESHOLD), Duration.ZERO), clock);
        busyFastSamples(limit, 5);
        assertThat(limit.current()).isEqualTo(15);
        limit.onSample(FAST, 15, true);
        assertThat(limit.current()).isEqualTo(7);
        limit.onSample(0, 7, true);
        assertThat(limit.current()).isEqualTo(3);
        // the clock stood still: a request that took 1 ms was admitted before the last cut
        limit.onSample(FAST, 3, true);
        assertThat(limit.current()).isEqualTo(3);
    }

    /**
     * A closed-loop model of a server: clients (at most {@code demand} at a time) send requests as soon as they are
     * admitted; the server shares its capacity among requests in flight, so a request's latency is
     * {@code base * max(1, n / capacity)}, n being the count in flight at its admission. Deterministic: time moves
     * in fixed steps of the fake clock.
     */
    final class Sim {
        static final long STEP = 100 * US;
        static final long BASE = 5 * MS;
        final AimdLimit limit;
        final PriorityQueue<long[]> running = new PriorityQueue<>(Comparator.comparingLong(r -> r[0]));
        int capacity;
        int demand = Integer.MAX_VALUE;
        int inFlight;
        int lowest = Integer.MAX_VALUE;
        int highest;

        /** Latency over 1.1 * base is slow: the limit should settle near the capacity. */
        Sim(int initial, int max, int capacity) {
            this.limit = new AimdLimit(new AimdLimit.Settings(initial, 1, max, 0.9,
                    Duration.ofNanos(BASE + BASE / 10), Duration.ofMillis(10)), clock);
            this.capacity = capacity;
        }

        /** Runs for {@code millis}, recording the range of the limit over the last {@code tailMillis}. */
        Sim run(long millis, long tailMillis) {
            lowest = Integer.MAX_VALUE;
            highest = 0;
            long steps = millis * MS / STEP;
            long tailFrom = steps - tailMillis * MS / STEP;
            for (long s = 0; s < steps; s++) {
                clock.advance(STEP);
                long now = clock.now;
                while (!running.isEmpty() && running.peek()[0] <= now) {
                    long[] done = running.poll();
                    limit.onSample(now - done[1], inFlight, false);
                    inFlight--;
                }
                while (inFlight < Math.min(demand, limit.current())) {
                    inFlight++;
                    long latency = (long) (BASE * Math.max(1.0, (double) inFlight / capacity));
                    running.add(new long[] {now + latency, now});
                }
                if (s >= tailFrom) {
                    lowest = Math.min(lowest, limit.current());
                    highest = Math.max(highest, limit.current());
                }
            }
            return this;
        }

        void assertSettledAround(int target) {
            assertThat(lowest).as("lowest limit near %d", target).isGreaterThanOrEqualTo((int) (target * 0.85));
            assertThat(highest).as("highest limit near %d", target).isLessThanOrEqualTo((int) (target * 1.2));
        }
    }

    @Nested
    class Convergence {
        @Test
        void fromBelow() {
            Sim sim = new Sim(5, 1000, 100).run(10_000, 5_000);
            sim.assertSettledAround(100);
        }

        @Test
        void fromAbove() {
            Sim sim = new Sim(1000, 1000, 100).run(10_000, 5_000);
            sim.assertSettledAround(100);
        }

        @Test
        void downWhenLatencyRisesAndBackUpWhenItFalls() {
            Sim sim = new Sim(100, 1000, 100).run(5_000, 2_000);
            sim.assertSettledAround(100);
            sim.capacity = 40; // the server slows down: latency rises at the same concurrency
            sim.run(5_000, 2_000).assertSettledAround(40);
            sim.capacity = 150; // and recovers
            sim.run(5_000, 2_000).assertSettledAround(150);
        }

        @Test
        void aLightlyLoadedServerGrowsOnlyToTwiceItsConcurrency() {
            Sim sim = new Sim(10, 1000, 100);
            sim.demand = 30;
            sim.run(10_000, 5_000);
            assertThat(sim.lowest).isEqualTo(sim.highest);
            // it grows while 30 in flight is at least half the limit: to 60, then once more to 61
            assertThat(sim.highest).isEqualTo(61);
        }
    }

    @Nested
    class Concurrency {
        private static final int THREADS = 8;

        /** Runs {@code body} on {@link #THREADS} threads released at once; rethrows the first failure. */
        private void onThreads(ThrowingIntConsumer body) throws InterruptedException {
            CountDownLatch start = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        body.accept(id);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "limit-test-" + t);
                thread.start();
                threads.add(thread);
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(thread.isAlive()).as("thread finished").isFalse();
            }
            assertThat(failure.get()).isNull();
        }

        interface ThrowingIntConsumer {
            void accept(int id) throws Exception;
        }

        @Test
        void oneCutPerWindowHoweverManyThreadsSeeSlowSamples() throws InterruptedException {
            AimdLimit limit = aimd(100, 1, 200); // the clock stands still: a single window
            onThreads(id -> slowSamples(limit, 20_000));
            assertThat(limit.current()).isEqualTo(90);
        }

        @Test
        void oneIncreasePerWindowHoweverManyThreadsSeeFastSamples() throws InterruptedException {
            AimdLimit limit = aimd(100, 1, 200);
            onThreads(id -> {
                for (int i = 0; i < 20_000; i++) {
                    limit.onSample(FAST, 200, false);
                }
            });
            assertThat(limit.current()).isEqualTo(101);
        }

        @Test
        void mixedSamplesFromManyThreadsKeepTheLimitInBounds() throws InterruptedException {
            int min = 20;
            int max = 60;
            long threshold = 5 * US;
            // a shared clock that moves 1 us per read, so windows of 20 us pass all the time
            AtomicLong time = new AtomicLong(-5_000 * MS);
            AimdLimit limit = new AimdLimit(new AimdLimit.Settings(40, min, max, 0.9,
                    Duration.ofNanos(threshold), Duration.ofNanos(20 * US)), () -> time.getAndAdd(US));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger outOfBounds = new AtomicInteger();
            AtomicInteger changes = new AtomicInteger();
            AtomicInteger lowestSeen = new AtomicInteger(Integer.MAX_VALUE);
            AtomicInteger highestSeen = new AtomicInteger();
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    int l = limit.current();
                    if (l < min || l > max) {
                        outOfBounds.incrementAndGet();
                    }
                }
            }, "limit-test-reader");
            reader.start();
            long begin = System.nanoTime();
            long deadline = begin + 300 * MS;
            onThreads(id -> {
                SplittableRandom random = new SplittableRandom(id);
                int last = limit.current();
                int seenChanges = 0;
                int lowest = last;
                int highest = last;
                for (int i = 0; i < 20_000_000; i++) {
                    long wall = System.nanoTime();
                    if (wall - deadline > 0) {
                        break;
                    }
                    // alternating 20 ms phases of heavy overload and of calm, to push the limit to both bounds
                    boolean overload = (wall - begin) / (20 * MS) % 2 == 0;
                    int kind = random.nextInt(1000);
                    int inFlight = random.nextInt(max + 1);
                    if (kind < (overload ? 300 : 2)) {
                        limit.onSample(threshold + 1 + random.nextLong(10 * US), inFlight, false);
                    } else if (kind < (overload ? 400 : 3)) {
                        limit.onSample(random.nextLong(threshold), inFlight, true);
                    } else {
                        limit.onSample(random.nextLong(threshold + 1), inFlight, false);
                    }
                    int l = limit.current();
                    if (l < min || l > max) {
                        outOfBounds.incrementAndGet();
                    }
                    if (l != last) {
                        seenChanges++;
                        last = l;
                    }
                    lowest = Math.min(lowest, l);
                    highest = Math.max(highest, l);
                }
                changes.addAndGet(seenChanges);
                int lo = lowest;
                int hi = highest;
                lowestSeen.accumulateAndGet(lo, Math::min);
                highestSeen.accumulateAndGet(hi, Math::max);
            });
            stop.set(true);
            reader.join();
            assertThat(outOfBounds.get()).isZero();
            assertThat(changes.get()).as("the limit moved while hammered").isGreaterThan(100);
            assertThat(lowestSeen.get()).as("pushed down to the minimum, not past it").isEqualTo(min);
            assertThat(highestSeen.get()).as("pushed up to the maximum, not past it").isEqualTo(max);
            int settled = limit.current();
            assertThat(settled).isBetween(min, max);

            // the state is still coherent: one thread now sees exactly the documented steps
            time.addAndGet(1_000 * MS);
            limit.onSample(0, settled, true);
            int cut = Math.max(min, (int) (settled * 0.9));
            assertThat(limit.current()).isEqualTo(cut);
            limit.onSample(0, max, false); // within the window after the cut: no growth
            assertThat(limit.current()).isEqualTo(cut);
            time.addAndGet(1_000 * MS);
            limit.onSample(0, max, false);
            limit.onSample(0, max, false);
            assertThat(limit.current()).isEqualTo(cut + 1);
        }
    }
}
