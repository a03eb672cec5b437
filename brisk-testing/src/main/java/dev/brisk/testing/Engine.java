package dev.brisk.testing;

import dev.brisk.BriskConfig;
import dev.brisk.IoMode;
import dev.brisk.ThreadMode;

/**
 * The engine configurations a conformance test runs against, so the engines cannot drift apart:
 * parameterize a test class with {@code @ParameterizedClass @EnumSource(Engine.class)} and
 * {@link #apply} the engine to each app it starts.
 */
public enum Engine {
    /** Selector loops ({@code io=nio}), handlers on the app's dispatch. */
    NIO,
    /** {@code io=blocking}, a virtual thread per connection. */
    BLOCKING_VIRTUAL,
    /** {@code io=blocking}, a bounded pool of platform threads. */
    BLOCKING_PLATFORM,
    /**
     * io_uring loops ({@code io=uring-only}). Where io_uring cannot be used (a JDK below 22, a kernel
     * without it, a sandbox forbidding it) {@link #apply} aborts the test, so it is reported skipped
     * with the reason, not run on another engine.
     */
    URING;

    /**
     * Sets the engine options on {@code cfg}; call it before the test's own options so a test may refine them.
     *
     * @param cfg the app being declared
     * @throws org.opentest4j.TestAbortedException for {@link #URING} where io_uring cannot be used
     */
    public void apply(BriskConfig cfg) {
        switch (this) {
            case NIO -> cfg.options().io(IoMode.NIO);
            case BLOCKING_VIRTUAL -> cfg.options().io(IoMode.BLOCKING).threads(ThreadMode.VIRTUAL);
            case BLOCKING_PLATFORM -> cfg.options().io(IoMode.BLOCKING).threads(ThreadMode.PLATFORM).platformThreads(64);
            case URING -> {
                IoMode.uringUnavailable().ifPresent(why -> {
                    throw new org.opentest4j.TestAbortedException("io_uring is unavailable here: " + why);
                });
                cfg.options().io(IoMode.URING_ONLY);
            }
        }
    }
}
