package dev.brisk;

import dev.brisk.internal.web.ParamConversions;
import java.util.function.Predicate;

/**
 * A request value (a query parameter, a header, anything a handler reads as a string) converted to a
 * type, with checks, and then either required or defaulted:
 *
 * <pre>{@code
 * int limit = ctx.queryParam("limit", Integer.class)
 *                .check(n -> n >= 1, "must be at least 1")
 *                .check(n -> n <= 100, "must be at most 100")
 *                .orElse(20);                                  // absent: 20
 * Sort sort = ctx.queryParam("sort", Sort.class).get();      // required
 * }</pre>
 *
 * <p>Types: {@code String}, {@code int}/{@code Integer}, {@code long}/{@code Long},
 * {@code double}/{@code Double}, {@code boolean}/{@code Boolean} ({@code true} or {@code false}, any
 * case), {@code UUID} (8-4-4-4-12 hex), {@code Instant} (ISO-8601, e.g. {@code 2025-01-31T12:00:00Z}),
 * {@code LocalDate} ({@code 2025-01-31}) and any enum (its constant names, any case). Numbers are ASCII
 * digits with an optional sign; doubles must be finite. Another type is a programming error: an
 * {@link IllegalArgumentException}, whether or not the value is present.
 *
 * <p>The value is converted when the parameter is made, and each check runs when it is added, so the
 * first problem is the one reported. Each problem is an {@link HttpException} with status 400 whose
 * message names the parameter and the reason, for example {@code query parameter 'limit': "abc" is not
 * an integer}, {@code query parameter 'limit': "500" must be at most 100}, {@code query parameter
 * 'sort': "up" is not one of ASC, DESC} or {@code query parameter 'q': missing}. Checks apply only to a
 * present value; a default given to {@link #orElse} is not checked.
 *
 * <p>A parameter belongs to one request and one thread, like its {@link Context}.
 *
 * @param <T> the converted type (the box of a primitive)
 */
public final class Param<T> {
    private final String kind;
    private final String name;
    private final String raw;
    private final T value;

    private Param(String kind, String name, String raw, T value) {
        this.kind = kind;
        this.name = name;
        this.raw = raw;
        this.value = value;
    }

    /**
     * Converts {@code raw} to {@code type}; the parameter is absent when {@code raw} is null. Use it for
     * values the context has no typed accessor for, such as a path parameter that needs a check:
     * {@code Param.of("path parameter", "id", ctx.pathParam("id"), Long.class).check(id -> id > 0,
     * "must be positive").get()}.
     *
     * @param kind what the value is, for messages, e.g. {@code "query parameter"} or {@code "form field"}
     * @param name the parameter's name, for messages
     * @param raw the value as received, or null when absent
     * @param type the type to convert to (see the class description for the supported ones)
     * @param <T> the converted type
     * @return the parameter, converted when present
     * @throws HttpException 400 when {@code raw} does not convert to {@code type}
     * @throws IllegalArgumentException when {@code type} is not supported
     */
    public static <T> Param<T> of(String kind, String name, String raw, Class<T> type) {
        if (raw == null) {
            ParamConversions.requireSupported(type);
            return new Param<>(kind, name, null, null);
        }
        return new Param<>(kind, name, raw, ParamConversions.convert(kind, name, raw, type));
    }

    /**
     * Checks the value, when present.
     *
     * @param test what a valid value satisfies
     * @param reason why a value failed, read after the quoted value, e.g. {@code "must be at most 100"}
     * @return this parameter, for more checks and then {@link #get} or {@link #orElse}
     * @throws HttpException 400 naming the parameter, the value and {@code reason} when the value is
     *     present and fails {@code test}
     */
    public Param<T> check(Predicate<? super T> test, String reason) {
        if (raw != null && !test.test(value)) {
            throw ParamConversions.failedCheck(kind, name, raw, reason);
        }
        return this;
    }

    /**
     * The value of a required parameter.
     *
     * @return the converted (and checked) value, never null
     * @throws HttpException 400 naming the parameter when it is absent
     */
    public T get() {
        if (raw == null) {
            throw ParamConversions.missing(kind, name);
        }
        return value;
    }

    /**
     * The value, or {@code fallback} when the parameter is absent.
     *
     * @param fallback the value to use when absent (not checked; may be null)
     * @return the converted (and checked) value, or {@code fallback}
     */
    public T orElse(T fallback) {
        return raw == null ? fallback : value;
    }

    /**
     * Whether the request carries the parameter.
     *
     * @return true when present (also when present but empty)
     */
    public boolean isPresent() {
        return raw != null;
    }

    /**
     * The value as received.
     *
     * @return the string before conversion, or null when absent
     */
    public String raw() {
        return raw;
    }

    /**
     * The parameter for messages.
     *
     * @return e.g. {@code query parameter 'limit'}
     */
    @Override
    public String toString() {
        return kind + " '" + name + "'";
    }
}
