package dev.brisk.internal.http;

import java.util.List;

/**
 * A list-valued header field (RFC 9110 5.3: {@code If-None-Match}, {@code Accept}, ...) sent as several
 * field lines means what their values joined with commas mean, in order: read so, or a client that splits
 * one (or a proxy that adds one) is answered as if it had sent only the first. Stateless.
 */
public final class FieldLists {
    private FieldLists() {
    }

    /** {@return the values joined with {@code ", "}; null when there is none, the value itself when one} */
    public static String joined(List<String> values) {
        return switch (values.size()) {
            case 0 -> null;
            case 1 -> values.get(0);
            default -> String.join(", ", values);
        };
    }
}
