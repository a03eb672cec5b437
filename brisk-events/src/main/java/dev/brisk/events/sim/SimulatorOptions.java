package dev.brisk.events.sim;

import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;

/**
 * How a {@link ProviderSimulator} starts: where it listens, what catalogue it generates and which
 * faults it injects. Every fault can be changed later on the running simulator.
 *
 * <table>
 * <caption>Options, defaults and environment variables ({@link #fromEnvironment()})</caption>
 * <tr><th>option</th><th>default</th><th>variable</th><th>meaning</th></tr>
 * <tr><td>host</td><td>127.0.0.1</td><td>SIM_HOST</td><td>address to listen on</td></tr>
 * <tr><td>port</td><td>0 (any free port; 8081 from the environment)</td><td>SIM_PORT</td><td></td></tr>
 * <tr><td>dialect</td><td>A</td><td>SIM_DIALECT</td><td>{@code A} (planList) or {@code B} (eventList)</td></tr>
 * <tr><td>events</td><td>500</td><td>SIM_EVENTS</td><td>plan records per generation, online and offline</td></tr>
 * <tr><td>zones</td><td>10</td><td>SIM_ZONES</td><td>zone elements per plan record</td></tr>
 * <tr><td>seed</td><td>42</td><td>SIM_SEED</td><td>same seed, same catalogues and fault sequence</td></tr>
 * <tr><td>firstDay</td><td>2021-01-01</td><td>SIM_FIRST_DAY</td><td>earliest event day</td></tr>
 * <tr><td>spanDays</td><td>730</td><td>SIM_SPAN_DAYS</td><td>events start within this many days of firstDay</td></tr>
 * <tr><td>churnInterval</td><td>0 (manual only)</td><td>SIM_CHURN_INTERVAL</td><td>advance a generation this often</td></tr>
 * <tr><td>churnFraction</td><td>0.1</td><td>SIM_CHURN_FRACTION</td><td>share of plans replaced per generation</td></tr>
 * <tr><td>latency</td><td>0</td><td>SIM_LATENCY</td><td>added before every feed answer</td></tr>
 * <tr><td>latencyJitter</td><td>0</td><td>SIM_LATENCY_JITTER</td><td>plus a uniform random extra up to this</td></tr>
 * <tr><td>failureRate</td><td>0</td><td>SIM_FAILURE_RATE</td><td>share of feed requests that fail (500 or reset)</td></tr>
 * <tr><td>resetShare</td><td>0.5</td><td>SIM_RESET_SHARE</td><td>share of failures that are resets, not 500s</td></tr>
 * <tr><td>malformedRate</td><td>0</td><td>SIM_MALFORMED_RATE</td><td>share of feed answers that are not well-formed XML</td></tr>
 * <tr><td>badRecordRate</td><td>0</td><td>SIM_BAD_RECORD_RATE</td><td>share of online records with a bad value</td></tr>
 * <tr><td>downEvery / downFor</td><td>0 (never)</td><td>SIM_DOWN_EVERY / SIM_DOWN_FOR</td><td>503 for the last {@code downFor} of every {@code downEvery}</td></tr>
 * </table>
 *
 * <p>Durations are ISO-8601 ({@code PT30S}, {@code PT0.2S}); {@link Duration#ZERO} switches the
 * feature off. Rates are between 0 and 1.
 */
public record SimulatorOptions(
        String host,
        int port,
        Dialect dialect,
        int events,
        int zones,
        long seed,
        LocalDate firstDay,
        int spanDays,
        Duration churnInterval,
        double churnFraction,
        Duration latency,
        Duration latencyJitter,
        double failureRate,
        double resetShare,
        double malformedRate,
        double badRecordRate,
        Duration downEvery,
        Duration downFor) {

    /** The port {@link #fromEnvironment()} uses when {@code SIM_PORT} is not set. */
    public static final int ENVIRONMENT_DEFAULT_PORT = 8081;

    public SimulatorOptions {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(firstDay, "firstDay");
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        range("port", port, 0, 65535);
        range("events", events, 0, 10_000_000);
        range("zones", zones, 1, 10_000);
        range("spanDays", spanDays, 1, 100 * 366);
        notNegative("churnInterval", churnInterval);
        notNegative("latency", latency);
        notNegative("latencyJitter", latencyJitter);
        notNegative("downEvery", downEvery);
        notNegative("downFor", downFor);
        rate("churnFraction", churnFraction);
        rate("failureRate", failureRate);
        rate("resetShare", resetShare);
        rate("malformedRate", malformedRate);
        rate("badRecordRate", badRecordRate);
        DownSchedule.check(downEvery, downFor);
    }

    /** All defaults: an ephemeral loopback port, dialect A, 500 events of 10 zones, no faults. */
    public static SimulatorOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The defaults overlaid with the process environment (see the table); port 8081 unless SIM_PORT. */
    public static SimulatorOptions fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * The defaults overlaid with {@code env}; blank values count as unset.
     *
     * @throws IllegalArgumentException naming the variable whose value cannot be used
     */
    public static SimulatorOptions fromEnvironment(Map<String, String> env) {
        Builder b = builder().port(ENVIRONMENT_DEFAULT_PORT);
        Env e = new Env(env);
        b.host(e.string("SIM_HOST", b.host));
        b.port(e.integer("SIM_PORT", b.port));
        b.dialect(e.dialect("SIM_DIALECT", b.dialect));
        b.events(e.integer("SIM_EVENTS", b.events));
        b.zones(e.integer("SIM_ZONES", b.zones));
        b.seed(e.longValue("SIM_SEED", b.seed));
        b.firstDay(e.date("SIM_FIRST_DAY", b.firstDay));
        b.spanDays(e.integer("SIM_SPAN_DAYS", b.spanDays));
        b.churnInterval(e.duration("SIM_CHURN_INTERVAL", b.churnInterval));
        b.churnFraction(e.decimal("SIM_CHURN_FRACTION", b.churnFraction));
        b.latency(e.duration("SIM_LATENCY", b.latency));
        b.latencyJitter(e.duration("SIM_LATENCY_JITTER", b.latencyJitter));
        b.failureRate(e.decimal("SIM_FAILURE_RATE", b.failureRate));
        b.resetShare(e.decimal("SIM_RESET_SHARE", b.resetShare));
        b.malformedRate(e.decimal("SIM_MALFORMED_RATE", b.malformedRate));
        b.badRecordRate(e.decimal("SIM_BAD_RECORD_RATE", b.badRecordRate));
        b.downEvery(e.duration("SIM_DOWN_EVERY", b.downEvery));
        b.downFor(e.duration("SIM_DOWN_FOR", b.downFor));
        try {
            return b.build();
        } catch (IllegalArgumentException ex) {
            // the check names the field (failureRate); the user set the variable (SIM_FAILURE_RATE)
            String m = ex.getMessage();
            int space = m.indexOf(' ');
            String field = space < 0 ? "" : m.substring(0, space);
            String variable = "SIM_" + field.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
            throw new IllegalArgumentException("simulator environment: "
                    + (m.startsWith(field + " must ") && env.containsKey(variable) ? variable + m.substring(space) : m), ex);
        }
    }

    private static void range(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ": " + v);
        }
    }

    private static void notNegative(String name, Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be a duration >= 0: " + d);
        }
    }

    static void rate(String name, double r) {
        if (!(r >= 0 && r <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1: " + r);
        }
    }

    /** Mutable twin of the record; starts from the defaults. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private Dialect dialect = Dialect.A;
        private int events = 500;
        private int zones = 10;
        private long seed = 42;
        private LocalDate firstDay = LocalDate.of(2021, 1, 1);
        private int spanDays = 730;
        private Duration churnInterval = Duration.ZERO;
        private double churnFraction = 0.1;
        private Duration latency = Duration.ZERO;
        private Duration latencyJitter = Duration.ZERO;
        private double failureRate = 0;
        private double resetShare = 0.5;
        private double malformedRate = 0;
        private double badRecordRate = 0;
        private Duration downEvery = Duration.ZERO;
        private Duration downFor = Duration.ZERO;

        private Builder() {
        }

        private Builder(SimulatorOptions o) {
            host = o.host;
            port = o.port;
            dialect = o.dialect;
            events = o.events;
            zones = o.zones;
            seed = o.seed;
            firstDay = o.firstDay;
            spanDays = o.spanDays;
            churnInterval = o.churnInterval;
            churnFraction = o.churnFraction;
            latency = o.latency;
            latencyJitter = o.latencyJitter;
            failureRate = o.failureRate;
            resetShare = o.resetShare;
            malformedRate = o.malformedRate;
            badRecordRate = o.badRecordRate;
            downEvery = o.downEvery;
            downFor = o.downFor;
        }

        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder dialect(Dialect v) { dialect = v; return this; }
        public Builder events(int v) { events = v; return this; }
        public Builder zones(int v) { zones = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder firstDay(LocalDate v) { firstDay = v; return this; }
        public Builder spanDays(int v) { spanDays = v; return this; }
        public Builder churnInterval(Duration v) { churnInterval = v; return this; }
        public Builder churnFraction(double v) { churnFraction = v; return this; }
        public Builder latency(Duration v) { latency = v; return this; }
        public Builder latencyJitter(Duration v) { latencyJitter = v; return this; }
        public Builder failureRate(double v) { failureRate = v; return this; }
        public Builder resetShare(double v) { resetShare = v; return this; }
        public Builder malformedRate(double v) { malformedRate = v; return this; }
        public Builder badRecordRate(double v) { badRecordRate = v; return this; }
        public Builder downEvery(Duration v) { downEvery = v; return this; }
        public Builder downFor(Duration v) { downFor = v; return this; }

        /** Down for {@code downFor} at the end of every {@code every}. */
        public Builder downSchedule(Duration every, Duration downFor) {
            this.downEvery = every;
            this.downFor = downFor;
            return this;
        }

        /** @throws IllegalArgumentException when a value is out of range */
        public SimulatorOptions build() {
            return new SimulatorOptions(host, port, dialect, events, zones, seed, firstDay, spanDays,
                    churnInterval, churnFraction, latency, latencyJitter, failureRate, resetShare,
                    malformedRate, badRecordRate, downEvery, downFor);
        }
    }

    /** Typed reads of environment variables, naming the variable in every error. */
    private record Env(Map<String, String> env) {
        private String raw(String name) {
            String v = env.get(name);
            return v == null || v.isBlank() ? null : v.trim();
        }

        String string(String name, String dflt) {
            String v = raw(name);
            return v == null ? dflt : v;
        }

        int integer(String name, int dflt) {
            String v = raw(name);
            try {
                if (v != null && !v.matches("-?[0-9]+")) { // parseInt also takes a '+' and other scripts' digits
                    throw new NumberFormatException(v);
                }
                return v == null ? dflt : Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw bad(name, v, "an integer");
            }
        }

        long longValue(String name, long dflt) {
            String v = raw(name);
            try {
                return v == null ? dflt : Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw bad(name, v, "an integer");
            }
        }

        double decimal(String name, double dflt) {
            String v = raw(name);
            try {
                return v == null ? dflt : Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw bad(name, v, "a number");
            }
        }

        Duration duration(String name, Duration dflt) {
            String v = raw(name);
            try {
                return v == null ? dflt : Duration.parse(v);
            } catch (DateTimeParseException e) {
                throw bad(name, v, "an ISO-8601 duration such as PT30S");
            }
        }

        LocalDate date(String name, LocalDate dflt) {
            String v = raw(name);
            try {
                return v == null ? dflt : LocalDate.parse(v);
            } catch (DateTimeParseException e) {
                throw bad(name, v, "a date such as 2021-01-01");
            }
        }

        Dialect dialect(String name, Dialect dflt) {
            String v = raw(name);
            try {
                return v == null ? dflt : Dialect.parse(v);
            } catch (IllegalArgumentException e) {
                throw bad(name, v, "A or B");
            }
        }

        private static IllegalArgumentException bad(String name, String value, String expected) {
            return new IllegalArgumentException(name + " must be " + expected + ": " + value);
        }
    }
}
