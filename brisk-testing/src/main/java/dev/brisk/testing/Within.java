package dev.brisk.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting for a condition in tests, bounded by a deadline: never a sleep standing in for the condition. */
public final class Within {
    private Within() {
    }

    /**
     * {@return whether {@code condition} held within {@code millis}} Polls it every 10 ms until it holds
     * or the deadline passes.
     *
     * @param millis how long to wait at most
     * @param condition what to wait for; called on this thread
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static boolean within(long millis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10); // polling a condition, bounded by the deadline
        }
        return true;
    }
}
