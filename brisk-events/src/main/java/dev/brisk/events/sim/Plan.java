package dev.brisk.events.sim;

import java.time.LocalDateTime;
import java.util.List;

/**
 * One dated session of a base plan: a {@code plan} in dialect A, an {@code event} in dialect B.
 * Immutable; a generation that keeps a plan keeps the same instance unless its values changed.
 *
 * @param planId   the provider's plan id; unique inside its base plan, may repeat under other bases
 * @param start    local start, before {@code end}
 * @param end      local end
 * @param sellFrom local start of sales
 * @param sellTo   local end of sales
 * @param soldOut  the provider's sold-out flag (informational: it does not make a plan offline)
 * @param zones    at least one zone
 */
record Plan(int planId, LocalDateTime start, LocalDateTime end, LocalDateTime sellFrom,
            LocalDateTime sellTo, boolean soldOut, List<Zone> zones) {

    Plan {
        zones = List.copyOf(zones);
    }

    Plan withZones(List<Zone> newZones) {
        return new Plan(planId, start, end, sellFrom, sellTo, soldOut, newZones);
    }

    /** The lowest zone price, duplicates of a zone id included. */
    int minPriceCents() {
        int min = Integer.MAX_VALUE;
        for (Zone z : zones) {
            min = Math.min(min, z.priceCents());
        }
        return min;
    }

    /** The highest zone price, duplicates of a zone id included. */
    int maxPriceCents() {
        int max = Integer.MIN_VALUE;
        for (Zone z : zones) {
            max = Math.max(max, z.priceCents());
        }
        return max;
    }
}
