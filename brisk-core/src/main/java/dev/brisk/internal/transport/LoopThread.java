package dev.brisk.internal.transport;

import java.util.concurrent.Executor;

/**
 * The thread of a selector or io_uring loop: it carries the loop's {@link HandOffs}, so that work the
 * loop hands to virtual threads during a turn can find them without a thread-local lookup.
 */
public final class LoopThread extends Thread {
    final HandOffs handOffs;

    /** {@code tasks}: hands a task to this loop, from any thread (its spare threads ask it for starts). */
    public LoopThread(Runnable loop, String name, Executor tasks) {
        super(loop, name);
        handOffs = new HandOffs(tasks);
    }

    /** The loop, then its launcher's end (the loop's last turn has ended). */
    @Override
    public void run() {
        try {
            super.run();
        } finally {
            handOffs.close();
        }
    }

    /** The loop's periodic scan (every 100 ms): its spare threads unused since the last one end. */
    public void scanned() {
        handOffs.spares.trim();
    }

    /** Starts the virtual threads asked for this turn. This loop's thread, at the end of each turn. */
    public void endTurn() {
        handOffs.flush();
    }
}
