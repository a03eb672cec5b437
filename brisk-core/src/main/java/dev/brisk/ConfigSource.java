package dev.brisk;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where options come from outside the code, for every module. An option named {@code max-body-size}
 * is read from the system property {@code brisk.max-body-size}, else the environment variable
 * {@code BRISK_MAX_BODY_SIZE}, else the key {@code brisk.max-body-size} of a {@code brisk.properties}
 * file, else the value set in code. Precedence: code &lt; file &lt; environment &lt; system property.
 *
 * <p>The file is {@code brisk.properties} in the working directory, or the path given by
 * {@code brisk.config} / {@code BRISK_CONFIG}. Durations are written {@code 500ms}, {@code 10s},
 * {@code 2m}, {@code 1h} (a bare number is milliseconds); sizes {@code 512}, {@code 8KiB},
 * {@code 10MiB}, {@code 1GiB} (also {@code k}, {@code m}, {@code g}, {@code KB}, {@code MB}).
 */
public final class ConfigSource {
    private final Map<String, String> env;
    private final Properties system;
    private final Properties file;
    /** Every option name asked for so far: what {@link #likelyTypos} compares the given names with. */
    private final Set<String> asked = ConcurrentHashMap.newKeySet();

    private ConfigSource(Map<String, String> env, Properties system, Properties file) {
        this.env = env;
        this.system = system;
        this.file = file;
    }

    /**
     * Reads the process environment, the system properties and the properties file.
     *
     * @return a source over a snapshot of the file; environment and system properties are read live
     * @throws UncheckedIOException when the file exists but cannot be read
     * @throws IllegalArgumentException when {@code brisk.config} names a file that does not exist or
     *     is not a regular file, or the file holds a malformed unicode escape
     */
    public static ConfigSource load() {
        Map<String, String> env = System.getenv();
        Properties sys = System.getProperties();
        String path = sys.getProperty("brisk.config", env.get("BRISK_CONFIG"));
        Path file = Path.of(path != null ? path : "brisk.properties");
        Properties props = new Properties();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                props.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            } catch (IllegalArgumentException e) { // a malformed unicode escape: say in which file
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
            }
        } else if (path != null) {
            throw new IllegalArgumentException((Files.exists(file) ? "config file is not a regular file: "
                    : "config file not found: ") + file);
        }
        return new ConfigSource(env, sys, props);
    }

    /**
     * A source over the given maps, for tests and embedding.
     *
     * @param env stands for the environment variables ({@code BRISK_*} names); copied
     * @param system stands for the system properties ({@code brisk.*} keys); copied
     * @param file stands for the properties file ({@code brisk.*} keys); copied
     * @return a source over copies of the maps
     */
    public static ConfigSource of(Map<String, String> env, Properties system, Properties file) {
        return new ConfigSource(Map.copyOf(env), copy(system), copy(file));
    }

    /**
     * A source that supplies nothing: every option keeps its value from code.
     *
     * @return an empty source
     */
    public static ConfigSource empty() {
        return new ConfigSource(Map.of(), new Properties(), new Properties());
    }

    private static Properties copy(Properties p) {
        Properties c = new Properties();
        c.putAll(p);
        return c;
    }

    /**
     * The environment variable for an option: {@code max-body-size} → {@code BRISK_MAX_BODY_SIZE}.
     *
     * @param option the option's name
     * @return the variable's name
     */
    public static String envName(String option) {
        return "BRISK_" + option.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * The raw value of an option, from the highest-precedence place that has it.
     *
     * @param option the option's name, such as {@code max-body-size}
     * @return the value, trimmed, or empty when no place sets it
     */
    public Optional<String> get(String option) {
        asked.add(option);
        String v = system.getProperty("brisk." + option);
        if (v == null) {
            v = env.get(envName(option));
        }
        if (v == null) {
            v = file.getProperty("brisk." + option);
        }
        return Optional.ofNullable(v).map(String::trim);
    }

    /**
     * An option as text.
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option; may be null
     * @return the value, trimmed, or {@code fallback}
     */
    public String string(String option, String fallback) {
        return get(option).orElse(fallback);
    }

    /**
     * An option as a decimal {@code int}.
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option
     * @return the value or {@code fallback}
     * @throws IllegalArgumentException when the value is not an integer; the message names the option
     */
    public int integer(String option, int fallback) {
        return integer(option, fallback, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /**
     * An option as a decimal {@code int} whose valid values run from {@code min} to {@code max}: a number
     * too large for an {@code int} is refused naming that range rather than the {@code int}'s
     * ({@code port=99999999999}: "an integer from 0 to 65535"). Values within the {@code int} range are
     * returned as they are, for the caller's own check.
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option
     * @param min the smallest valid value, as the refusal names it
     * @param max the largest valid value, as the refusal names it
     * @return the value or {@code fallback}
     * @throws IllegalArgumentException when the value is not an integer; the message names the option
     */
    public int integer(String option, int fallback, int min, int max) {
        return get(option).map(v -> {
            try {
                if (!v.matches("-?[0-9]+")) { // parseInt takes a '+' and any script's digits: not here
                    throw new NumberFormatException(v);
                }
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                boolean digits = v.matches("-?[0-9]+");
                throw invalid(option, v, digits ? "an integer from " + min + " to " + max : "an integer");
            }
        }).orElse(fallback);
    }

    /**
     * An option as a boolean: {@code true/yes/on/1} or {@code false/no/off/0}, in any case.
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option
     * @return the value or {@code fallback}
     * @throws IllegalArgumentException for any other value; the message names the option
     */
    public boolean bool(String option, boolean fallback) {
        return get(option).map(v -> switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw invalid(option, v, "true or false");
        }).orElse(fallback);
    }

    /**
     * An option as a duration ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; a bare number is ms).
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option; may be null
     * @return the value or {@code fallback}
     * @throws IllegalArgumentException when the value is not a duration; the message names the option
     */
    public Duration duration(String option, Duration fallback) {
        return get(option).map(v -> parseDuration(option, v)).orElse(fallback);
    }

    /**
     * An option as a size in bytes ({@code 512}, {@code 8KiB}, {@code 10MiB}, {@code 1GiB}).
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option
     * @return the value in bytes or {@code fallback}
     * @throws IllegalArgumentException when the value is not a size or overflows; the message names the option
     */
    public long size(String option, long fallback) {
        return get(option).map(v -> parseSize(option, v)).orElse(fallback);
    }

    /**
     * An option as a size in bytes that an {@code int} holds (a buffer's, a frame's): as {@link #size}.
     *
     * @param option the option's name
     * @param fallback returned when no place sets the option
     * @return the value in bytes or {@code fallback}
     * @throws IllegalArgumentException when the value is not a size or is 2 GiB or more; the message names
     *     the option and repeats the value as given (not a value it was cut to)
     */
    public int intSize(String option, int fallback) {
        return get(option).map(v -> {
            long n = parseSize(option, v);
            if (n > Integer.MAX_VALUE) {
                throw invalid(option, v, "a size below 2 GiB");
            }
            return (int) n;
        }).orElse(fallback);
    }

    /**
     * An option as an enum constant, written in any case with {@code -} for {@code _}
     * ({@code worker-pool} is {@code WORKER_POOL}).
     *
     * @param <E> the enum type
     * @param option the option's name
     * @param type the enum class
     * @param fallback returned when no place sets the option; may be null
     * @return the constant or {@code fallback}
     * @throws IllegalArgumentException when no constant matches; the message lists the accepted values
     */
    public <E extends Enum<E>> E enumValue(String option, Class<E> type, E fallback) {
        return get(option).map(v -> {
            String name = v.replace('-', '_');
            for (E e : type.getEnumConstants()) {
                if (dev.brisk.internal.http.Ascii.equalsIgnoreCase(name, e.name())) {
                    return e;
                }
            }
            throw invalid(option, v, "one of " + java.util.Arrays.toString(type.getEnumConstants())
                    .toLowerCase(Locale.ROOT).replace('_', '-'));
        }).orElse(fallback);
    }

    /**
     * {@code d} written as a configuration value is ({@code 0s}, {@code 1500ms}, {@code 2m}, {@code 8760h}):
     * the largest unit it is a whole number of; below a millisecond, ISO-8601 ({@code PT0.0005S}).
     * For messages that echo a value back.
     *
     * @param d a duration; null gives {@code "null"}
     * @return its text
     */
    public static String text(Duration d) {
        if (d == null) {
            return "null";
        }
        long sec = d.getSeconds();
        int nanos = d.getNano();
        if (d.isNegative() || nanos % 1_000_000 != 0) {
            return d.toString();
        }
        if (nanos != 0) {
            return sec > Long.MAX_VALUE / 1000 - 1000 ? d.toString() : sec * 1000 + nanos / 1_000_000 + "ms";
        }
        if (sec == 0) {
            return "0s";
        }
        if (sec % 3600 == 0) {
            return sec / 3600 + "h";
        }
        if (sec % 60 == 0) {
            return sec / 60 + "m";
        }
        return sec + "s";
    }

    static Duration parseDuration(String option, String v) {
        String s = v.toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == 0 || i > 12) {
            throw invalid(option, v, "a duration such as 500ms, 10s, 2m");
        }
        long n = Long.parseLong(s.substring(0, i));
        Duration d = switch (s.substring(i).trim()) {
            case "", "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m", "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> throw invalid(option, v, "a duration such as 500ms, 10s, 2m");
        };
        if (d.compareTo(ServerOptions.MAX_DURATION) > 0) {
            // timers count in nanoseconds: some 292 years at most, and no timeout needs more than a year
            throw invalid(option, v, "a duration of at most 365 days (8760h)");
        }
        return d;
    }

    static long parseSize(String option, String v) {
        String s = v.toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == 0 || i > 15) {
            throw invalid(option, v, "a size such as 512, 8KiB, 10MiB");
        }
        long n = Long.parseLong(s.substring(0, i));
        long unit = switch (s.substring(i).trim()) {
            case "", "b" -> 1;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw invalid(option, v, "a size such as 512, 8KiB, 10MiB");
        };
        try {
            return Math.multiplyExact(n, unit);
        } catch (ArithmeticException e) {
            throw invalid(option, v, "a size that fits in 64 bits");
        }
    }

    /**
     * Settings given under Brisk's names ({@code BRISK_*} variables, {@code brisk.*} system properties
     * and file keys) that no one asked for but that are one or two letters from a name that was asked
     * for: most likely misspelt, and so silently without effect. Each comes as a sentence naming where
     * it was given and the name meant. Names far from every asked one are not reported: other tools
     * (the launcher, test switches) use the prefix too. A file key that is an asked name without the
     * {@code brisk.} prefix ({@code port=8080}) is reported as well: the file's keys take the prefix.
     *
     * <p>Call it after the options are read ({@link ServerOptions.Builder#from}); a module that asks for
     * its own names later can call it again.
     *
     * @return one sentence per likely typo, sorted; empty when there is none
     */
    public List<String> likelyTypos() {
        List<String> found = new ArrayList<>();
        Set<String> envNames = new TreeSet<>();
        Set<String> keys = new TreeSet<>();
        for (String option : asked) {
            envNames.add(envName(option));
            keys.add("brisk." + option);
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith("BRISK_")) {
                typo("environment variable", name, envNames, found);
            }
        }
        for (String key : new TreeSet<>(system.stringPropertyNames())) {
            if (key.startsWith("brisk.")) {
                typo("system property", key, keys, found);
            }
        }
        for (String key : new TreeSet<>(file.stringPropertyNames())) {
            if (key.startsWith("brisk.")) {
                typo("configuration file key", key, keys, found);
            } else if (asked.contains(key)) {
                // the file's keys take the prefix, as system properties do: "port=8080" is read by no one
                found.add("configuration file key " + key + " has no effect: file keys take the brisk. prefix (brisk."
                        + key + ")");
            }
        }
        return found;
    }

    private static void typo(String where, String given, Set<String> known, List<String> found) {
        if (known.contains(given) || given.length() < 10) {
            return; // a short name is as likely another tool's as a typo
        }
        for (String k : known) {
            if (Math.abs(k.length() - given.length()) <= 2 && distance(given, k) <= 2) {
                found.add(where + " " + given + " is not a Brisk setting and has no effect (did you mean " + k + "?)");
                return;
            }
        }
    }

    /** Edit distance (insertions, deletions, substitutions and swaps of neighbours), for short names. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }

    private static IllegalArgumentException invalid(String option, String value, String expected) {
        return new IllegalArgumentException("invalid value for option '" + option + "' (brisk." + option
                + " / " + envName(option) + "): '" + value + "' is not " + expected);
    }
}
