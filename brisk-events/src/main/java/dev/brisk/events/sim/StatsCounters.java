package dev.brisk.events.sim;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link SimulatorStats}; thread-safe. */
final class StatsCounters {
    final LongAdder requests = new LongAdder();
    final LongAdder served = new LongAdder();
    final LongAdder notModified = new LongAdder();
    final LongAdder serverErrors = new LongAdder();
    final LongAdder resets = new LongAdder();
    final LongAdder unavailable = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder badRequests = new LongAdder();

    /** The counts now (each read separately: a request in flight may show in one and not another). */
    SimulatorStats snapshot() {
        return new SimulatorStats(requests.sum(), served.sum(), notModified.sum(), serverErrors.sum(),
                resets.sum(), unavailable.sum(), malformed.sum(), badRequests.sum());
    }
}
