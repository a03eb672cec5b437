package dev.brisk.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
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

    /**
     * {@return whether nothing listens on {@code port} at 127.0.0.1 any more} A connection that is refused,
     * or reset while the listener closes, says so; one that is accepted is closed again at once. A
     * condition for {@link #within}: a server's listener closes as its drain begins.
     *
     * @param port the port a server listened on
     */
    public static boolean refused(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
