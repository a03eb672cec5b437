package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionControlTest {

    /** A limit the test moves by hand, as an adaptive limit would. */
    private static final class ManualLimit implements ConcurrencyLimit {
        volatile int value;

        ManualLimit(int value) {
            this.value = value;
        }

        @Override
        public int current() {
            return value;
        }

        @Override
        public void onSample(long rttNanos, int inFlight, boolean dropped) {
        }
    }

    /** Every slot held for long, waiters timing out one after another: the queue stays short. */
    @Test
    void ticketsThatGiveUpLeaveTheQueue() {
        AdmissionControl ac = new AdmissionControl(new ManualLimit(1), 4);
        assertThat(ac.tryAcquire()).isTrue();
        for (int i = 0; i < 10_000; i++) {
            AdmissionControl.Ticket t = new AdmissionControl.Ticket(() -> { });
            assertThat(ac.enqueue(t)).isTrue();
            assertThat(t.abandon(ac)).isTrue();
        }
        assertThat(ac.queued()).isZero();
        assertThat(ac.queueLength()).as("tickets kept").isZero();
        List<Integer> granted = new ArrayList<>();
        assertThat(ac.enqueue(new AdmissionControl.Ticket(() -> granted.add(1)))).isTrue();
        ac.release(0, false);
        assertThat(granted).containsExactly(1);
    }

    @Test
    void aFreedSlotGoesToTheOldestWaiter() {
        AdmissionControl ac = new AdmissionControl(new ManualLimit(2), 4);
        assertThat(ac.tryAcquire()).isTrue();
        assertThat(ac.tryAcquire()).isTrue();
        assertThat(ac.tryAcquire()).isFalse();
        List<Integer> granted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int id = i;
            assertThat(ac.enqueue(new AdmissionControl.Ticket(() -> granted.add(id)))).isTrue();
        }
        assertThat(ac.queued()).isEqualTo(3);
        ac.release(0, false);
        ac.release(0, false);
        assertThat(granted).containsExactly(0, 1);
        assertThat(ac.inFlight()).isEqualTo(2);
        assertThat(ac.queued()).isEqualTo(1);
    }

    @Test
    void aLimitCutBelowTheInFlightIsReachedEvenWhileWaitersQueue() {
        // under sustained overload the queue is never empty: slots handed straight on would keep the
        // in-flight count where it was before an adaptive limit came down
        ManualLimit limit = new ManualLimit(4);
        AdmissionControl ac = new AdmissionControl(limit, 8);
        for (int i = 0; i < 4; i++) {
            assertThat(ac.tryAcquire()).isTrue();
        }
        List<Integer> granted = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int id = i;
            assertThat(ac.enqueue(new AdmissionControl.Ticket(() -> granted.add(id)))).isTrue();
        }
        limit.value = 2;
        ac.release(0, false);
        assertThat(ac.inFlight()).isEqualTo(3);
        ac.release(0, false);
        assertThat(ac.inFlight()).isEqualTo(2);
        assertThat(granted).as("nothing handed on above the new limit").isEmpty();
        ac.release(0, false);
        assertThat(granted).as("at the limit, a freed slot is handed on again").containsExactly(0);
        assertThat(ac.inFlight()).isEqualTo(2);
        assertThat(ac.queued()).isEqualTo(7);
        // at or under the limit, a freed slot is handed on as before
        limit.value = 3;
        ac.release(0, false);
        assertThat(granted).containsExactly(0, 1);
        assertThat(ac.inFlight()).isEqualTo(2);
    }
}
