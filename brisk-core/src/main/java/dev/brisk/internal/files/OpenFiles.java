package dev.brisk.internal.files;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server-wide bound on files held open for responses (option {@code max-open-files}): a file is
 * counted from the moment it is opened until its body is written or abandoned, however many static
 * mounts the app has. A request that finds no room is answered {@code 503} at once rather than waiting:
 * the files in flight belong to slow readers as often as to busy disks. Thread-safe.
 */
public final class OpenFiles {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final Runnable release = this::release;

    public OpenFiles(int max) {
        this.max = max;
    }

    /** Takes one permit; false when {@code max} files are open already. */
    public boolean tryAcquire() {
        while (true) {
            int n = open.get();
            if (n >= max) {
                return false;
            }
            if (open.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Returns one permit taken by {@link #tryAcquire}. */
    public void release() {
        open.decrementAndGet();
    }

    /** {@return a shared task that returns one permit} */
    public Runnable releaser() {
        return release;
    }

    /** {@return the files open now} */
    public int open() {
        return open.get();
    }

    /** {@return the bound} */
    public int max() {
        return max;
    }
}
