package dev.brisk.internal.ops;

/**
 * A limit on the number of requests in flight, used for load shedding: the engine admits a request only while
 * fewer than {@link #current()} admitted requests are in flight, and reports each admitted request's outcome to
 * {@link #onSample} so that an adaptive limit can follow the server's capacity.
 *
 * <p><b>Thread safety.</b> Implementations must be safe for concurrent use by any number of threads (I/O threads
 * and handler threads at once) without external synchronization. Both methods are on the request path, so they
 * must not block, take locks or allocate; an implementation may trade exactness for that (for example lose a rare
 * update under contention) if it says so, but {@link #current()} must always return a value within its documented
 * bounds.
 *
 * <p><b>Time.</b> Latencies are in nanoseconds from {@link System#nanoTime()}, or from the same clock that an
 * implementation was given, so that an implementation may relate a sample to its own clock.
 */
public interface ConcurrencyLimit {

    /**
     * The current limit on admitted requests in flight: always {@code >= 1}, so that a server is never shut
     * completely. May change between calls; a reader needs no consistency with earlier calls. Cheap enough to call
     * for every request (a plain volatile read in the implementations here).
     *
     * @return the limit, {@code >= 1}
     */
    int current();

    /**
     * Records one completed admitted request. Called exactly once per admitted request, from any thread.
     *
     * @param rttNanos latency from admission to completion, in nanoseconds; negative values (a clock anomaly) are
     *     treated as zero
     * @param inFlight admitted requests in flight when this one completed, counting this one (the count before it
     *     is released); implementations treat it as an estimate and tolerate an off-by-one either way
     * @param dropped {@code true} if the request failed in a way that signals overload (a timeout, or a 5xx caused
     *     by overload); {@code false} for a normal completion, whatever its status
     */
    void onSample(long rttNanos, int inFlight, boolean dropped);
}
