package dev.brisk.tls;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes. */
final class Wait {
    private Wait() {
    }

    static boolean until(Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
        return true;
    }
}
