package dev.brisk.events;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.UUID;

/**
 * One sellable event with its latest known online values: a plan of a base plan in the provider's
 * feed (dialect A) or an event of a base event (dialect B).
 *
 * <p>Identity is (baseId, planId): plan ids repeat under different base plans. {@link #id()} is a
 * name-based UUID of that pair, so it is the same across restarts and instances.
 *
 * @param id       {@link #idOf(String, String)} of baseId and planId
 * @param baseId   the provider's base plan / base event id
 * @param planId   the provider's plan / event id
 * @param title    the base plan's title
 * @param start    local start date-time
 * @param end      local end date-time, never before start
 * @param minPrice lowest zone price
 * @param maxPrice highest zone price, never below minPrice
 */
public record Event(UUID id, String baseId, String planId, String title, LocalDateTime start,
                    LocalDateTime end, double minPrice, double maxPrice) {
    /**
     * The longest base or plan id stored, in chars (the store's columns hold 200 characters; a longer
     * id in the feed is a bad record, so that one such record cannot make a whole poll's write fail).
     */
    public static final int MAX_ID_LENGTH = 200;

    public Event {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(baseId, "baseId");
        Objects.requireNonNull(planId, "planId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("end " + end + " is before start " + start);
        }
        if (!(minPrice <= maxPrice)) {
            throw new IllegalArgumentException("min price " + minPrice + " above max price " + maxPrice);
        }
    }

    /** An event whose id is derived from its base and plan ids. */
    public static Event of(String baseId, String planId, String title, LocalDateTime start,
                           LocalDateTime end, double minPrice, double maxPrice) {
        return new Event(idOf(baseId, planId), baseId, planId, title, start, end, minPrice, maxPrice);
    }

    /**
     * The stable id of (baseId, planId): a version 3 (name-based) UUID of both ids, the base id
     * length-prefixed so that ("1:2", "3") and ("1", "2:3") never collide.
     */
    public static UUID idOf(String baseId, String planId) {
        String name = baseId.length() + ":" + baseId + ":" + planId;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether every value a search shows is the same (the id being the same). */
    public boolean sameValues(Event other) {
        return title.equals(other.title) && start.equals(other.start) && end.equals(other.end)
                && Double.compare(minPrice, other.minPrice) == 0 && Double.compare(maxPrice, other.maxPrice) == 0;
    }
}
