package dev.brisk.events.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Options, their defaults and the SIM_* environment. */
class SimulatorOptionsTest {

    @Test
    void defaultsAreAnEphemeralLoopbackPortAndNoFaults() {
        SimulatorOptions o = SimulatorOptions.defaults();
        assertThat(o.host()).isEqualTo("127.0.0.1");
        assertThat(o.port()).isZero();
        assertThat(o.dialect()).isEqualTo(Dialect.A);
        assertThat(o.events()).isEqualTo(500);
        assertThat(o.zones()).isEqualTo(10);
        assertThat(o.firstDay()).isEqualTo(LocalDate.of(2021, 1, 1));
        assertThat(o.churnInterval()).isZero();
        assertThat(o.latency()).isZero();
        assertThat(o.failureRate()).isZero();
        assertThat(o.malformedRate()).isZero();
        assertThat(o.badRecordRate()).isZero();
        assertThat(o.downEvery()).isZero();
    }

    @Test
    void theEnvironmentOverridesTheDefaults() {
        SimulatorOptions o = SimulatorOptions.fromEnvironment(Map.ofEntries(
                Map.entry("SIM_DIALECT", "b"),
                Map.entry("SIM_EVENTS", "10000"),
                Map.entry("SIM_ZONES", "100"),
                Map.entry("SIM_SEED", "7"),
                Map.entry("SIM_CHURN_INTERVAL", "PT30S"),
                Map.entry("SIM_LATENCY", "PT0.2S"),
                Map.entry("SIM_LATENCY_JITTER", "PT0.1S"),
                Map.entry("SIM_FAILURE_RATE", "0.1"),
                Map.entry("SIM_MALFORMED_RATE", "0.05"),
                Map.entry("SIM_BAD_RECORD_RATE", "0.02"),
                Map.entry("SIM_DOWN_EVERY", "PT5M"),
                Map.entry("SIM_DOWN_FOR", "PT30S"),
                Map.entry("SIM_HOST", " ")));
        assertThat(o.port()).isEqualTo(8081);
        assertThat(o.host()).isEqualTo("127.0.0.1");
        assertThat(o.dialect()).isEqualTo(Dialect.B);
        assertThat(o.events()).isEqualTo(10_000);
        assertThat(o.zones()).isEqualTo(100);
        assertThat(o.seed()).isEqualTo(7);
        assertThat(o.churnInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.latency()).isEqualTo(Duration.ofMillis(200));
        assertThat(o.latencyJitter()).isEqualTo(Duration.ofMillis(100));
        assertThat(o.failureRate()).isEqualTo(0.1);
        assertThat(o.malformedRate()).isEqualTo(0.05);
        assertThat(o.badRecordRate()).isEqualTo(0.02);
        assertThat(o.downEvery()).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.downFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(SimulatorOptions.fromEnvironment(Map.of("SIM_PORT", "9000")).port()).isEqualTo(9000);
    }

    @Test
    void badValuesNameTheirVariable() {
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_EVENTS", "many")))
                .hasMessageContaining("SIM_EVENTS");
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_LATENCY", "200ms")))
                .hasMessageContaining("SIM_LATENCY").hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_DIALECT", "C")))
                .hasMessageContaining("SIM_DIALECT");
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_FAILURE_RATE", "1.5")))
                .hasMessage("simulator environment: SIM_FAILURE_RATE must be between 0 and 1: 1.5");
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_BAD_RECORD_RATE", "-0.1")))
                .hasMessage("simulator environment: SIM_BAD_RECORD_RATE must be between 0 and 1: -0.1");
        assertThatThrownBy(() -> SimulatorOptions.fromEnvironment(Map.of("SIM_DOWN_EVERY", "PT1M")))
                .hasMessageContaining("downEvery and downFor");
    }

    @Test
    void outOfRangeValuesAreRejected() {
        assertThatThrownBy(() -> SimulatorOptions.builder().zones(0).build()).hasMessageContaining("zones");
        assertThatThrownBy(() -> SimulatorOptions.builder().events(-1).build()).hasMessageContaining("events");
        assertThatThrownBy(() -> SimulatorOptions.builder().downSchedule(Duration.ofSeconds(10), Duration.ofSeconds(10)).build())
                .hasMessageContaining("shorter");
        assertThatThrownBy(() -> SimulatorOptions.builder().latency(Duration.ofMillis(-1)).build())
                .hasMessageContaining("latency");
        assertThatThrownBy(() -> SimulatorOptions.builder().badRecordRate(Double.NaN).build())
                .hasMessageContaining("badRecordRate");
    }

    @Test
    void runtimeSettersValidateToo() {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(10).build())) {
            assertThatThrownBy(() -> sim.failureRate(-0.1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sim.malformedRate(2)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sim.badRecordRate(1.01)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sim.downSchedule(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sim.latency(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void zeroEventsIsAnEmptyButValidCatalogue() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(0).build())) {
            var doc = FeedXml.parse(SimHttp.get(sim.feedUrl()).body());
            assertThat(FeedXml.plans(doc)).isEmpty();
            sim.advance();
            assertThat(sim.onlineEvents()).isEmpty();
        }
    }
}
