package dev.brisk.events.sim;

import java.util.List;

/**
 * What the provider offers in one generation: immutable, so a request can render or inspect it
 * while the next generation is being built.
 *
 * @param generation 1 for the first catalogue, +1 per churn step
 * @param bases      the base plans in feed order
 */
record Catalogue(long generation, List<BasePlan> bases) {

    Catalogue {
        bases = List.copyOf(bases);
    }

    /** Plan records in the feed, online and offline. */
    int planCount() {
        int n = 0;
        for (BasePlan b : bases) {
            n += b.plans().size();
        }
        return n;
    }

    /** Zone elements in the feed (before bad records are applied). */
    long zoneCount() {
        long n = 0;
        for (BasePlan b : bases) {
            for (Plan p : b.plans()) {
                n += p.zones().size();
            }
        }
        return n;
    }
}
