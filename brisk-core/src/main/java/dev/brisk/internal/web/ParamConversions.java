package dev.brisk.internal.web;

import dev.brisk.HttpException;
import dev.brisk.internal.http.Ascii;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Converts request strings (path and query parameters, headers) to the types {@link dev.brisk.Param}
 * supports. The kind of a class is found once by identity comparisons and cached, so a conversion is a
 * lookup and a switch; nothing is reflected on per request. Parsers are strict: ASCII digits only (the
 * JDK's parsers also take other scripts' digits), no {@code NaN}, no surrounding spaces.
 */
public final class ParamConversions {
    /** Longest part of a client's value quoted back in a message. */
    private static final int QUOTE_MAX = 64;

    private enum Kind { STRING, INT, LONG, DOUBLE, BOOLEAN, UUID, ENUM, INSTANT, LOCAL_DATE }

    private static final ClassValue<Kind> KINDS = new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
            return kindOf(type);
        }
    };

    /** An enum's constants and the message part listing them, computed once per enum. */
    private record EnumInfo(Enum<?>[] constants, String allowed) {
    }

    private static final ClassValue<EnumInfo> ENUMS = new ClassValue<>() {
        @Override
        protected EnumInfo computeValue(Class<?> type) {
            Enum<?>[] constants = (Enum<?>[]) type.getEnumConstants();
            String allowed = Arrays.stream(constants).map(Enum::name).collect(Collectors.joining(", "));
            return new EnumInfo(constants, allowed);
        }
    };

    private ParamConversions() {
    }

    private static Kind kindOf(Class<?> type) {
        if (type == String.class) {
            return Kind.STRING;
        } else if (type == Integer.class || type == int.class) {
            return Kind.INT;
        } else if (type == Long.class || type == long.class) {
            return Kind.LONG;
        } else if (type == Double.class || type == double.class) {
            return Kind.DOUBLE;
        } else if (type == Boolean.class || type == boolean.class) {
            return Kind.BOOLEAN;
        } else if (type == UUID.class) {
            return Kind.UUID;
        } else if (type == Instant.class) {
            return Kind.INSTANT;
        } else if (type == LocalDate.class) {
            return Kind.LOCAL_DATE;
        } else if (type.isEnum()) {
            return Kind.ENUM;
        }
        throw new IllegalArgumentException("no parameter conversion to " + type.getName()
                + ": use String, int, long, double, boolean (or their boxes), UUID, Instant, LocalDate or an enum");
    }

    /**
     * Fails unless {@code type} is supported, so a wrong type shows on the first request, not only on
     * the first one that carries the parameter.
     *
     * @throws IllegalArgumentException for an unsupported type (a programming error: a 500)
     */
    public static void requireSupported(Class<?> type) {
        KINDS.get(type);
    }

    /**
     * {@code raw} converted to {@code type}; {@code kind} and {@code name} only make the message.
     *
     * @throws HttpException 400 naming the parameter when {@code raw} does not convert
     * @throws IllegalArgumentException for an unsupported type
     */
    @SuppressWarnings("unchecked")
    public static <T> T convert(String kind, String name, String raw, Class<T> type) {
        Object v = switch (KINDS.get(type)) {
            case STRING -> raw;
            case INT -> (int) integer(kind, name, raw, "an integer", Integer.MIN_VALUE, Integer.MAX_VALUE);
            case LONG -> integer(kind, name, raw, "an integer", Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> decimal(kind, name, raw);
            case BOOLEAN -> {
                if (Ascii.equalsIgnoreCase(raw, "true")) {
                    yield Boolean.TRUE;
                } else if (Ascii.equalsIgnoreCase(raw, "false")) {
                    yield Boolean.FALSE;
                }
                throw bad(kind, name, raw, "is not a boolean (true or false)");
            }
            case UUID -> uuid(kind, name, raw);
            case ENUM -> {
                EnumInfo info = ENUMS.get(type);
                for (Enum<?> c : info.constants()) {
                    if (Ascii.equalsIgnoreCase(raw, c.name())) {
                        yield c;
                    }
                }
                throw bad(kind, name, raw, "is not one of " + info.allowed());
            }
            case INSTANT -> {
                try {
                    yield Instant.parse(raw);
                } catch (DateTimeParseException e) {
                    throw bad(kind, name, raw, "is not an instant (ISO-8601, e.g. 2025-01-31T12:00:00Z)");
                }
            }
            case LOCAL_DATE -> {
                try {
                    yield LocalDate.parse(raw);
                } catch (DateTimeParseException e) {
                    throw bad(kind, name, raw, "is not a date (yyyy-mm-dd)");
                }
            }
        };
        // int.class and friends cannot cast their box: the caller's T is the box anyway
        return (T) v;
    }

    /** An optional sign and ASCII digits, as a long in {@code [min, max]}: beyond it a 400 naming that range. */
    private static long integer(String kind, String name, String raw, String what, long min, long max) {
        int n = raw.length();
        int i = n > 0 && (raw.charAt(0) == '-' || raw.charAt(0) == '+') ? 1 : 0;
        if (i == n) {
            throw bad(kind, name, raw, "is not " + what);
        }
        for (int j = i; j < n; j++) {
            char c = raw.charAt(j);
            if (c < '0' || c > '9') {
                throw bad(kind, name, raw, "is not " + what);
            }
        }
        long v;
        try {
            v = Long.parseLong(raw);
        } catch (NumberFormatException e) { // all digits: too large for a long, so beyond any range here
            throw bad(kind, name, raw, "is out of range (" + min + " to " + max + ")");
        }
        if (v < min || v > max) {
            throw bad(kind, name, raw, "is out of range (" + min + " to " + max + ")");
        }
        return v;
    }

    /** A finite decimal number: sign, digits, '.', exponent; no NaN, Infinity, hex or type suffix. */
    private static double decimal(String kind, String name, String raw) {
        boolean digit = false;
        for (int j = 0; j < raw.length(); j++) {
            char c = raw.charAt(j);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                digit = false;
                break;
            }
        }
        if (digit) {
            double d;
            try {
                d = Double.parseDouble(raw);
            } catch (NumberFormatException e) {
                throw bad(kind, name, raw, "is not a number");
            }
            if (Double.isFinite(d)) {
                return d;
            }
            throw bad(kind, name, raw, "is out of range (beyond " + Double.MAX_VALUE + ")"); // 1e400: a number, too large
        }
        throw bad(kind, name, raw, "is not a number");
    }

    /** The canonical 8-4-4-4-12 hex form only: UUID.fromString also takes shortened groups. */
    private static UUID uuid(String kind, String name, String raw) {
        if (raw.length() == 36) {
            boolean ok = true;
            for (int j = 0; j < 36 && ok; j++) {
                char c = raw.charAt(j);
                ok = j == 8 || j == 13 || j == 18 || j == 23
                        ? c == '-'
                        : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            }
            if (ok) {
                return UUID.fromString(raw);
            }
        }
        throw bad(kind, name, raw, "is not a UUID");
    }

    /** A 400 for a parameter that is required and absent. */
    public static HttpException missing(String kind, String name) {
        return new HttpException.BadRequest(kind + " '" + name + "': missing");
    }

    /** A 400 for a value that failed an app's check; {@code reason} reads after the quoted value. */
    public static HttpException failedCheck(String kind, String name, String raw, String reason) {
        return bad(kind, name, raw, reason);
    }

    private static HttpException bad(String kind, String name, String raw, String reason) {
        return new HttpException.BadRequest(kind + " '" + name + "': " + quote(raw) + " " + reason);
    }

    /**
     * The client's value in quotes, cut short (never inside a surrogate pair) and with control characters
     * escaped, C0, DEL and C1 alike (U+009B is a terminal's CSI): a message, not an echo.
     */
    private static String quote(String raw) {
        StringBuilder sb = new StringBuilder(Math.min(raw.length(), QUOTE_MAX) + 8).append('"');
        int n = Math.min(raw.length(), QUOTE_MAX);
        if (n < raw.length() && n > 0 && Character.isHighSurrogate(raw.charAt(n - 1))) {
            n--;
        }
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else {
                sb.append(c);
            }
        }
        if (raw.length() > QUOTE_MAX) {
            sb.append("...");
        }
        return sb.append('"').toString();
    }
}
