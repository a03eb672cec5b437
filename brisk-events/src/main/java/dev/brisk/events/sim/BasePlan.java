package dev.brisk.events.sim;

import java.util.List;

/**
 * A base plan (dialect A) / base event (dialect B): what is sold, with its dated sessions.
 *
 * @param baseId      the provider's base id, unique in a catalogue and never reused
 * @param online      {@code sell_mode="online"}; offline bases are in the feed but must be ignored
 * @param title       display title (may hold {@code &}, {@code <}, quotes, non-ASCII)
 * @param organizerId {@code organizer_company_id} (dialect A only)
 * @param plans       at least one plan, plan ids distinct
 */
record BasePlan(int baseId, boolean online, String title, int organizerId, List<Plan> plans) {

    BasePlan {
        plans = List.copyOf(plans);
    }

    BasePlan withPlans(List<Plan> newPlans) {
        return new BasePlan(baseId, online, title, organizerId, newPlans);
    }

    BasePlan withTitle(String newTitle) {
        return new BasePlan(baseId, online, newTitle, organizerId, plans);
    }
}
