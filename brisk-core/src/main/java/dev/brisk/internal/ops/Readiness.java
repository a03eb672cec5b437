package dev.brisk.internal.ops;

/**
 * Whether the app wants traffic: the app's own flag ({@code Brisk.ready}) and whether shutdown has
 * begun. Shutdown wins for good: once it has begun, setting the flag changes nothing. Thread-safe.
 */
public final class Readiness {
    private volatile boolean appReady = true;
    private volatile boolean shuttingDown;

    /** The app's own flag; any thread, any time. */
    public void set(boolean ready) {
        appReady = ready;
    }

    public boolean appReady() {
        return appReady;
    }

    /** Called once, first thing in graceful shutdown. */
    public void shutdownStarted() {
        shuttingDown = true;
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    /** Ready for traffic: the app says so and shutdown has not begun. Checks are not included. */
    public boolean ready() {
        return appReady && !shuttingDown;
    }
}
