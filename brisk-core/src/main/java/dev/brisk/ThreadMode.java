package dev.brisk;

/** The threads of the blocking engine ({@code threads} option). */
public enum ThreadMode {
    /** A new virtual thread per connection (the default): cheap to park, so idle connections cost little. */
    VIRTUAL,
    /**
     * A bounded pool of {@code platform-threads} platform threads, one per open connection. When all are
     * taken, new connections wait in the kernel backlog; one accepted but without a thread after
     * {@code connection-wait-timeout} gets a 503 and is closed.
     */
    PLATFORM
}
