package dev.brisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigSourceTest {

    static Properties props(String... keyValue) {
        Properties p = new Properties();
        for (int i = 0; i < keyValue.length; i += 2) {
            p.setProperty(keyValue[i], keyValue[i + 1]);
        }
        return p;
    }

    private static ConfigSource env(String name, String value) {
        return ConfigSource.of(Map.of(name, value), new Properties(), new Properties());
    }

    private static ConfigSource file(String key, String value) {
        return ConfigSource.of(Map.of(), new Properties(), props(key, value));
    }

    // ---- precedence ---------------------------------------------------------------------------

    @Test
    void aConfigPathThatIsADirectoryIsSaidSo(@TempDir Path dir) {
        String before = System.getProperty("brisk.config");
        try {
            System.setProperty("brisk.config", dir.toString());
            assertThatThrownBy(ConfigSource::load).hasMessage("config file is not a regular file: " + dir);
            System.setProperty("brisk.config", dir.resolve("missing.properties").toString());
            assertThatThrownBy(ConfigSource::load).hasMessage("config file not found: " + dir.resolve("missing.properties"));
        } finally {
            if (before == null) {
                System.clearProperty("brisk.config");
            } else {
                System.setProperty("brisk.config", before);
            }
        }
    }

    @Test
    void durationsAreEchoedAsTheyAreWritten() {
        assertThat(ConfigSource.text(Duration.ZERO)).isEqualTo("0s");
        assertThat(ConfigSource.text(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(ConfigSource.text(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(ConfigSource.text(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(ConfigSource.text(Duration.ofHours(8760))).isEqualTo("8760h");
        assertThat(ConfigSource.text(Duration.ofNanos(500))).isEqualTo("PT0.0000005S");
        for (String v : new String[] {"0s", "250ms", "10s", "3m", "2h"}) {
            assertThat(ConfigSource.text(ConfigSource.parseDuration("x", v))).as(v).isEqualTo(v);
        }
        assertThatThrownBy(() -> ServerOptions.builder().rateWindow(Duration.ZERO).build())
                .hasMessageEndingWith("must be a positive duration: 0s");
        assertThatThrownBy(() -> ServerOptions.builder().wsIdleTimeout(Duration.ofMinutes(1))
                .wsPingInterval(Duration.ofMinutes(1)).build())
                .hasMessageContaining("(1m) must be shorter than ws-idle-timeout (1m)");
    }

    @Test
    void systemPropertyOverEnvironmentOverFileOverCode() {
        Properties file = props("brisk.port", "1001");
        Map<String, String> env = Map.of("BRISK_PORT", "1002");
        Properties sys = props("brisk.port", "1003");
        assertThat(ConfigSource.of(env, sys, file).integer("port", 8080)).isEqualTo(1003);
        assertThat(ConfigSource.of(env, new Properties(), file).integer("port", 8080)).isEqualTo(1002);
        assertThat(ConfigSource.of(Map.of(), sys, file).integer("port", 8080)).isEqualTo(1003);
        assertThat(ConfigSource.of(Map.of(), new Properties(), file).integer("port", 8080)).isEqualTo(1001);
        assertThat(ConfigSource.of(env, sys, new Properties()).integer("port", 8080)).isEqualTo(1003);
        assertThat(ConfigSource.of(Map.of(), new Properties(), new Properties()).integer("port", 8080)).isEqualTo(8080);
        assertThat(ConfigSource.empty().integer("port", 8080)).isEqualTo(8080);
    }

    @Test
    void precedenceAppliesPerOption() {
        ConfigSource s = ConfigSource.of(
                Map.of("BRISK_HOST", "env-host", "BRISK_IO_THREADS", "3"),
                props("brisk.host", "sys-host"),
                props("brisk.host", "file-host", "brisk.io-threads", "2", "brisk.backlog", "77"));
        assertThat(s.string("host", "code")).isEqualTo("sys-host");
        assertThat(s.integer("io-threads", 1)).isEqualTo(3);
        assertThat(s.integer("backlog", 1)).isEqualTo(77);
        assertThat(s.integer("max-connections", 5)).isEqualTo(5);
        assertThat(s.get("max-connections")).isEmpty();
    }

    @Test
    void eachPlaceUsesItsOwnKeyStyle() {
        // environment: BRISK_NAME only; properties: brisk.name only
        assertThat(env("brisk.port", "1").get("port")).isEmpty();
        assertThat(env("PORT", "1").get("port")).isEmpty();
        assertThat(env("BRISK_port", "1").get("port")).isEmpty();
        assertThat(ConfigSource.of(Map.of(), props("BRISK_PORT", "1"), new Properties()).get("port")).isEmpty();
        assertThat(ConfigSource.of(Map.of(), props("port", "1"), new Properties()).get("port")).isEmpty();
        assertThat(file("port", "1").get("port")).isEmpty();
        assertThat(file("BRISK_PORT", "1").get("port")).isEmpty();
        assertThat(env("BRISK_MAX_BODY_SIZE", "1").get("max-body-size")).contains("1");
        assertThat(file("brisk.max-body-size", "2").get("max-body-size")).contains("2");
        assertThat(ConfigSource.of(Map.of(), props("brisk.max-body-size", "3"), new Properties()).get("max-body-size"))
                .contains("3");
    }

    @Test
    void valuesAreTrimmed() {
        assertThat(env("BRISK_HOST", "  127.0.0.1 \t").string("host", "x")).isEqualTo("127.0.0.1");
        assertThat(file("brisk.port", " 9000 ").integer("port", 1)).isEqualTo(9000);
        assertThat(env("BRISK_X", " ").get("x")).isEqualTo(Optional.of(""));
    }

    @Test
    void ofCopiesItsInputs() {
        Map<String, String> env = new HashMap<>(Map.of("BRISK_PORT", "1"));
        Properties sys = props("brisk.host", "h");
        Properties file = props("brisk.backlog", "5");
        ConfigSource s = ConfigSource.of(env, sys, file);
        env.put("BRISK_PORT", "2");
        sys.setProperty("brisk.host", "changed");
        file.setProperty("brisk.backlog", "6");
        file.setProperty("brisk.io-threads", "9");
        assertThat(s.integer("port", 0)).isEqualTo(1);
        assertThat(s.string("host", "")).isEqualTo("h");
        assertThat(s.integer("backlog", 0)).isEqualTo(5);
        assertThat(s.get("io-threads")).isEmpty();
    }

    @Test
    void envName() {
        assertThat(ConfigSource.envName("max-body-size")).isEqualTo("BRISK_MAX_BODY_SIZE");
        assertThat(ConfigSource.envName("port")).isEqualTo("BRISK_PORT");
        assertThat(ConfigSource.envName("jackson.fail-on-unknown")).isEqualTo("BRISK_JACKSON_FAIL_ON_UNKNOWN");
        assertThat(ConfigSource.envName("io-threads")).isEqualTo("BRISK_IO_THREADS");
        assertThat(ConfigSource.envName("a.b-c")).isEqualTo("BRISK_A_B_C");
    }

    // ---- typed values -------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} -> {1} ms")
    @CsvSource({"500ms,500", "250,250", "0,0", "10s,10000", "10S,10000", "'10 s',10000", "2m,120000",
        "2min,120000", "1h,3600000", "1H,3600000", "' 15s ',15000", "007s,7000", "31536000000ms,31536000000", "8760h,31536000000"})
    void durations(String value, long millis) {
        assertThat(env("BRISK_IDLE_TIMEOUT", value).duration("idle-timeout", Duration.ZERO)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "abc", "s", "ms", "-5s", "+5s", "1.5s", "10 sec", "10d", "10us", "5s5", "1e3",
        "1234567890123", "1234567890123ms", "0x10",
        // past 365 days: timers count in nanoseconds, and 2,600,000 h overflowed them once the server ran
        "31536000001ms", "8761h", "525601m", "2600000h", "999999999999h"})
    void invalidDurationsNameTheOption(String value) {
        ConfigSource s = env("BRISK_IDLE_TIMEOUT", value);
        assertThatThrownBy(() -> s.duration("idle-timeout", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'idle-timeout'")
                .hasMessageContaining("BRISK_IDLE_TIMEOUT")
                .hasMessageContaining("brisk.idle-timeout")
                .hasMessageContaining("'" + value.trim() + "'");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"512,512", "512b,512", "0,0", "8k,8192", "8KB,8192", "8KiB,8192", "8kib,8192", "'8 KiB',8192",
        "10m,10485760", "10MB,10485760", "10MiB,10485760", "1g,1073741824", "1GB,1073741824", "1GiB,1073741824",
        "2GiB,2147483648", "999999999999999,999999999999999", "8388607GiB,9007198180999168",
        "8796093022207MiB,9223372036853727232"})
    void sizes(String value, long bytes) {
        assertThat(file("brisk.max-body-size", value).size("max-body-size", -1)).isEqualTo(bytes);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "KiB", "-1", "+1", "1.5MiB", "10TiB", "10 bytes", "1kibi", "1e6", "0x10",
        "1234567890123456", "1234567890123456KiB"})
    void invalidSizesNameTheOption(String value) {
        ConfigSource s = env("BRISK_MAX_BODY_SIZE", value);
        assertThatThrownBy(() -> s.size("max-body-size", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max-body-size'")
                .hasMessageContaining("BRISK_MAX_BODY_SIZE");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"10000000000GiB", "999999999999999g", "8796093022208MiB"})
    void overflowingSizesNameTheOption(String value) {
        ConfigSource s = env("BRISK_MAX_BODY_SIZE", value);
        assertThatThrownBy(() -> s.size("max-body-size", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max-body-size'")
                .hasMessageContaining("BRISK_MAX_BODY_SIZE");
    }

    @Test
    void integers() {
        assertThat(env("BRISK_PORT", "0").integer("port", 1)).isZero();
        assertThat(env("BRISK_PORT", "-7").integer("port", 1)).isEqualTo(-7);
        // a '+' and other scripts' digits (fullwidth, Arabic-Indic) are Integer.parseInt's, not ours
        for (String bad : new String[] {"", "80a", "8.0", "2147483648", "0x50", "eighty", "+80", "\uFF18\uFF10", "\u0662"}) {
            assertThatThrownBy(() -> env("BRISK_PORT", bad).integer("port", 1)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'port'").hasMessageContaining("BRISK_PORT").hasMessageContaining("integer");
        }
    }

    @Test
    void booleans() {
        for (String yes : new String[] {"true", "TRUE", "yes", "Yes", "on", "1", " true "}) {
            assertThat(env("BRISK_FLAG", yes).bool("flag", false)).as(yes).isTrue();
        }
        for (String no : new String[] {"false", "False", "no", "off", "OFF", "0"}) {
            assertThat(env("BRISK_FLAG", no).bool("flag", true)).as(no).isFalse();
        }
        assertThat(ConfigSource.empty().bool("flag", true)).isTrue();
        for (String bad : new String[] {"", "maybe", "2", "y", "t"}) {
            assertThatThrownBy(() -> env("BRISK_FLAG", bad).bool("flag", true)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'flag'").hasMessageContaining("BRISK_FLAG");
        }
    }

    @Test
    void enums() {
        assertThat(env("BRISK_DISPATCH", "worker-pool").enumValue("dispatch", Dispatch.class, Dispatch.EVENT_LOOP))
                .isEqualTo(Dispatch.WORKER_POOL);
        assertThat(env("BRISK_DISPATCH", "VIRTUAL_THREADS").enumValue("dispatch", Dispatch.class, Dispatch.EVENT_LOOP))
                .isEqualTo(Dispatch.VIRTUAL_THREADS);
        assertThat(env("BRISK_DISPATCH", "Event-Loop").enumValue("dispatch", Dispatch.class, Dispatch.WORKER_POOL))
                .isEqualTo(Dispatch.EVENT_LOOP);
        assertThat(ConfigSource.empty().enumValue("dispatch", Dispatch.class, Dispatch.WORKER_POOL))
                .isEqualTo(Dispatch.WORKER_POOL);
        // case folding is ASCII's: a dotless i does not make a 'virtual'
        assertThatThrownBy(() -> env("BRISK_DISPATCH", "v\u0131rtual-threads").enumValue("dispatch", Dispatch.class, Dispatch.EVENT_LOOP))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BRISK_DISPATCH");
        assertThatThrownBy(() -> env("BRISK_DISPATCH", "threads").enumValue("dispatch", Dispatch.class, Dispatch.EVENT_LOOP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BRISK_DISPATCH")
                .hasMessageContaining("event-loop, virtual-threads, worker-pool");
    }

    // ---- load ---------------------------------------------------------------------------------

    @Test
    void loadReadsTheFileNamedByTheSystemProperty(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("custom.properties");
        Files.writeString(f, "brisk.backlog = 321\nbrisk.host=file-host\n");
        String old = System.getProperty("brisk.config");
        String oldHost = System.getProperty("brisk.host");
        try {
            System.setProperty("brisk.config", f.toString());
            System.setProperty("brisk.host", "sys-host");
            ConfigSource s = ConfigSource.load();
            assertThat(s.integer("backlog", 1)).isEqualTo(321);
            assertThat(s.string("host", "code")).as("system property over file").isEqualTo("sys-host");

            System.setProperty("brisk.config", dir.resolve("missing.properties").toString());
            assertThatThrownBy(ConfigSource::load).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("missing.properties");
        } finally {
            restore("brisk.config", old);
            restore("brisk.host", oldHost);
        }
    }

    @Test
    void aMalformedEscapeInTheFileNamesTheFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("broken.properties");
        Files.writeString(f, "brisk.host=a\\u12G4\n");
        String old = System.getProperty("brisk.config");
        try {
            System.setProperty("brisk.config", f.toString());
            assertThatThrownBy(ConfigSource::load).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("cannot read " + f + ": ");
        } finally {
            restore("brisk.config", old);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    // ---- misspelt names ------------------------------------------------------------------------

    /** Reads every server option from {@code src}, as a server's start does, then asks for the typos. */
    private static java.util.List<String> typos(ConfigSource src) {
        ServerOptions.builder().from(src).build();
        return src.likelyTypos();
    }

    @Test
    void aMisspeltVariableIsReportedWithTheNameMeant() {
        ConfigSource src = ConfigSource.of(Map.of("BRISK_MAX_CONCURENT_REQUESTS", "4", "BRISK_PORT", "8080"),
                new Properties(), new Properties());
        assertThat(typos(src)).containsExactly("environment variable BRISK_MAX_CONCURENT_REQUESTS is not a Brisk "
                + "setting and has no effect (did you mean BRISK_MAX_CONCURRENT_REQUESTS?)");
    }

    @Test
    void misspeltFileKeysAndSystemPropertiesAreReportedToo() {
        ConfigSource src = ConfigSource.of(Map.of(), props("brisk.idle-timout", "5s"),
                props("brisk.max-body-sise", "1MiB", "brisk.max-body-size", "2MiB"));
        assertThat(typos(src)).containsExactly(
                "system property brisk.idle-timout is not a Brisk setting and has no effect (did you mean brisk.idle-timeout?)",
                "configuration file key brisk.max-body-sise is not a Brisk setting and has no effect (did you mean brisk.max-body-size?)");
    }

    @Test
    void aFileKeyWithoutThePrefixIsReported() {
        ConfigSource src = ConfigSource.of(Map.of(), new Properties(),
                props("port", "9999", "ws-max-frame-size", "1KiB", "events.poll-interval", "PT1M"));
        assertThat(typos(src)).containsExactly(
                "configuration file key port has no effect: file keys take the brisk. prefix (brisk.port)",
                "configuration file key ws-max-frame-size has no effect: file keys take the brisk. prefix"
                        + " (brisk.ws-max-frame-size)");
    }

    @Test
    void namesFarFromEveryOptionAndShortOnesAreOtherToolsAndNotReported() {
        ConfigSource src = ConfigSource.of(Map.of("BRISK_REQUIRE_H2SPEC", "1", "BRISK_JAVA_OPTS", "-Xmx1g",
                "BRISK_METRICS_PORT", "9090", "BRISK_X", "1", "BRISK_IDLE_TIMEOUT", "5s", "OTHER_IDLE_TIMEOUT", "1s"),
                props("other.idle-timout", "1s"), props("brisk.shutdown-timeout", "5s"));
        assertThat(typos(src)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"idle-timeout,idle-timeout,0", "idle-timeout,idle-timout,1", "idle-timeout,idel-timeout,1",
            "port,host,2", "abc,,3", "max-body-size,max-bodysize,1"})
    void editDistance(String a, String b, int expected) {
        assertThat(ConfigSource.distance(a, b == null ? "" : b)).isEqualTo(expected);
    }
}
