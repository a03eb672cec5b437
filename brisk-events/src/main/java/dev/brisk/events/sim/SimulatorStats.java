package dev.brisk.events.sim;

/**
 * What the simulator did with {@code /feed} requests so far, for assertions. Every request ends in
 * exactly one of the outcomes, so {@code requests} is their sum once no request is in flight.
 *
 * @param requests      {@code /feed} requests received
 * @param served        200 answers with the whole, well-formed document
 * @param notModified   304 answers
 * @param serverErrors  injected 500 answers
 * @param resets        injected resets: connection closed part-way through the body
 * @param unavailable   503 answers while down
 * @param malformed     200 answers with a document that is not well-formed
 * @param badRequests   400 answers (unknown dialect asked for)
 */
public record SimulatorStats(long requests, long served, long notModified, long serverErrors, long resets,
                             long unavailable, long malformed, long badRequests) {

    /** Injected failures: 500s plus resets. */
    public long failures() {
        return serverErrors + resets;
    }
}
