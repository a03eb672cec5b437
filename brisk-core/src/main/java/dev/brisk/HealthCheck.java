package dev.brisk;

/**
 * One readiness check: is a dependency the app needs (database, cache, downstream service) usable
 * right now? Registered with {@link HealthConfig#check}.
 *
 * <p>Contract: a check must be fast (a cached flag, a ping with its own short timeout). It runs on a
 * virtual thread of its own, never on an event loop, so it may block; but a check that has not
 * answered within {@link HealthConfig#checkTimeout} counts as down for that probe, and a check that
 * throws counts as down too. A check runs at most once at a time: probes arriving while it runs share
 * that run's answer, so a hung check costs one thread, not one per probe. It may run concurrently
 * with the app's handlers and from different threads over time.
 */
@FunctionalInterface
public interface HealthCheck {
    /**
     * Checks the dependency, on a virtual thread of its own.
     *
     * @return true when the dependency is usable
     * @throws Exception counted as down ({@code error} in the readiness body)
     */
    boolean isUp() throws Exception;
}
