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
    BLOCKING_PLATFORM;

    /**
     * Sets the engine options on {@code cfg}; call it before the test's own options so a test may refine them.
     *
     * @param cfg the app being declared
     */
    public void apply(BriskConfig cfg) {
        switch (this) {
            case NIO -> cfg.options().io(IoMode.NIO);
            case BLOCKING_VIRTUAL -> cfg.options().io(IoMode.BLOCKING).threads(ThreadMode.VIRTUAL);
            case BLOCKING_PLATFORM -> cfg.options().io(IoMode.BLOCKING).threads(ThreadMode.PLATFORM).platformThreads(64);
        }
    }
}
