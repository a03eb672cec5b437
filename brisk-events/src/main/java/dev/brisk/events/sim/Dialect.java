package dev.brisk.events.sim;

import java.util.Locale;

/**
 * The two vocabularies the provider's feed comes in. They carry the same data: dialect A names a
 * session a {@code plan} of a {@code base_plan} inside {@code planList}, dialect B an {@code event}
 * of a {@code base_event} inside {@code eventList}.
 */
public enum Dialect {
    /** {@code <planList><output><base_plan><plan><zone/>}. */
    A,
    /** {@code <eventList><output><base_event><event><zone/>}. */
    B;

    /**
     * The dialect named {@code name} ({@code A} or {@code B}, any case).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Dialect parse(String name) {
        return switch (name.trim().toUpperCase(Locale.ROOT)) {
            case "A" -> A;
            case "B" -> B;
            default -> throw new IllegalArgumentException("dialect must be A or B: " + name);
        };
    }
}
