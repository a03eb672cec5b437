package dev.brisk.ws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.opentest4j.TestAbortedException;

/**
 * The field's own WebSocket conformance suite, the Autobahn TestSuite ({@code wstest -m fuzzingclient}),
 * against an echo route on each transport, the runs side by side (NIO, io_uring, the blocking engine on
 * virtual threads; on platform threads too with {@code BRISK_AUTOBAHN_ENGINES=all}): every case (framing, pings, reserved bits, opcodes,
 * fragmentation, UTF-8, limits, close codes, permessage-deflate) must end OK, NON-STRICT or
 * INFORMATIONAL — none FAILED, none UNIMPLEMENTED.
 *
 * <p>{@code wstest} is a Python 2.7 program: {@code .ci/run} installs it (PyPI {@code autobahntestsuite}
 * in a virtualenv under {@code ~/.cache/brisk/wstest}) and sets {@code BRISK_WSTEST}; the test looks
 * there, then on the PATH. Without it this test is skipped, unless {@code BRISK_REQUIRE_WSTEST=1}. The full suite
 * takes long (its compression cases 12 and 13 most: Python compresses slowly), so it runs only with
 * {@code BRISK_AUTOBAHN=1}; {@code BRISK_AUTOBAHN_CASES} and {@code BRISK_AUTOBAHN_EXCLUDE} narrow it
 * (comma-separated case patterns, which wstest reads as regular expressions with {@code *} for
 * {@code .*}, matched at the start: {@code 12.*.1[0-9]}). The default run has
 * {@link WebSocketConformanceTest}, which covers each of its case groups with a raw-socket client.
 */
class AutobahnTest {
    private static final Pattern CASE = Pattern.compile(
            "\"(\\d+(?:\\.\\d+)+)\"\\s*:\\s*\\{[^{}]*?\"behavior\"\\s*:\\s*\"([A-Z-]+)\"[^{}]*?\"behaviorClose\"\\s*:\\s*\"([A-Z-]+)\"",
            Pattern.DOTALL);

    static Path wstest() {
        String env = System.getenv("BRISK_WSTEST");
        if (env != null && !env.isBlank() && Files.isExecutable(Path.of(env))) {
            return Path.of(env);
        }
        Path cached = Path.of(System.getProperty("user.home"), ".cache", "brisk", "wstest", "bin", "wstest");
        if (Files.isExecutable(cached)) {
            return cached;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, "wstest");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** A JSON list of the comma-separated {@code cases} ("" for none). */
    private static String jsonList(String cases) {
        StringBuilder b = new StringBuilder("[");
        for (String c : cases.split(",")) {
            if (!c.isBlank()) {
                b.append(b.length() > 1 ? ", " : "").append('"').append(c.trim()).append('"');
            }
        }
        return b.append(']').toString();
    }

    /** One engine's run: its server and the wstest process testing it. */
    private record Run(BriskTestServer server, Process wstest, Path dir, String agent) {}

    /** Every engine's run, started together by {@link #startAll}; each test waits for its own. */
    private static final Map<Engine, Run> RUNS = new EnumMap<>(Engine.class);
    /** Engines that cannot run here, and why. */
    private static final Map<Engine, String> UNAVAILABLE = new EnumMap<>(Engine.class);

    /**
     * Starts every engine's server and its wstest at once (the engines it runs on): wstest is a
     * single-threaded Python program that spends most of a case waiting on its own work, so several side
     * by side on the CI machine's two cores take far less than one after the other.
     */
    @BeforeAll
    static void startAll() throws Exception {
        if (!"1".equals(System.getenv("BRISK_AUTOBAHN")) || wstest() == null) {
            return; // each test says why it is skipped (or fails when wstest is required)
        }
        for (Engine engine : Engine.values()) {
            if (engine == Engine.BLOCKING_PLATFORM && !"all".equals(System.getenv("BRISK_AUTOBAHN_ENGINES"))) {
                // the blocking engine's transport and WebSocket code are those of BLOCKING_VIRTUAL, run beside
                // it; only the kind of thread differs, which WsServerFuzzTest covers on every engine
                UNAVAILABLE.put(engine, "the blocking engine runs Autobahn on virtual threads (its transport and "
                        + "WebSocket code are the same on platform threads); BRISK_AUTOBAHN_ENGINES=all runs it here too");
                continue;
            }
            try {
                RUNS.put(engine, start(engine, wstest()));
            } catch (TestAbortedException e) {
                UNAVAILABLE.put(engine, e.getMessage()); // io_uring here: its test is skipped with the reason
            }
        }
    }

    @AfterAll
    static void stopAll() {
        for (Run r : RUNS.values()) {
            r.wstest().destroyForcibly();
            r.server().close();
        }
        RUNS.clear();
        UNAVAILABLE.clear();
    }

    private static Run start(Engine engine, Path wstest) throws Exception {
        Path dir = Files.createTempDirectory("autobahn-" + engine.name().toLowerCase());
        BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.options().wsMaxMessageSize(64 << 20).wsMaxFrameSize(64 << 20).wsOutboundLimit(64 << 20)
                    .wsMemory(1L << 30).wsCloseTimeout(Duration.ofSeconds(2));
            cfg.ws("/", ws -> ws
                    .onText((s, text) -> s.sendText(text))
                    .onBinary((s, data) -> s.sendBinary(data))).dispatch(Dispatch.EVENT_LOOP);
        });
        try {
            String agent = "brisk-" + engine.name().toLowerCase();
            Path spec = dir.resolve("spec.json");
            Files.writeString(spec, "{\"outdir\": \"" + dir.resolve("reports") + "\", \"servers\": [{\"agent\": \""
                    + agent + "\", \"url\": \"ws://127.0.0.1:" + t.port() + "\"}], \"cases\": "
                    + jsonList(System.getenv().getOrDefault("BRISK_AUTOBAHN_CASES", "*")) + ", \"exclude-cases\": "
                    + jsonList(exclude(engine)) + ", \"exclude-agent-cases\": {}}");
            Process p = new ProcessBuilder(wstest.toString(), "-m", "fuzzingclient", "-s", spec.toString())
                    .directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("wstest.log").toFile()).start();
            return new Run(t, p, dir, agent);
        } catch (Exception | Error e) {
            t.close();
            throw e;
        }
    }

    /**
     * The cases {@code engine}'s run leaves out: {@code BRISK_AUTOBAHN_EXCLUDE}, and of the compression
     * groups, which take two thirds of a whole run (Python compresses slowly), all but group 12 on NIO and
     * group 13 on the blocking engine with virtual threads (one of each kind of transport), the other
     * engines neither. They test permessage-deflate, which is the protocol's code above the transport, the
     * same on every engine; the transports' part in it (compressed frames split across reads and writes)
     * is in {@link WsServerFuzzTest} on every engine. Split so, the runs side by side take about a
     * third of the time all of them would. {@code BRISK_AUTOBAHN_COMPRESSION=all} runs both groups on every engine.
     */
    private static String exclude(Engine engine) {
        String exclude = System.getenv().getOrDefault("BRISK_AUTOBAHN_EXCLUDE", "");
        if (!"all".equals(System.getenv("BRISK_AUTOBAHN_COMPRESSION"))) {
            String skipped = switch (engine) {
                case NIO -> "13.*";
                case BLOCKING_VIRTUAL -> "12.*";
                default -> "12.*,13.*";
            };
            exclude = exclude + (exclude.isBlank() ? "" : ",") + skipped;
        }
        return exclude;
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyAutobahnCasePasses(Engine engine) throws Exception {
        assumeTrue("1".equals(System.getenv("BRISK_AUTOBAHN")), "the Autobahn run is on with BRISK_AUTOBAHN=1");
        Path wstest = wstest();
        if (wstest == null && "1".equals(System.getenv("BRISK_REQUIRE_WSTEST"))) {
            throw new AssertionError("wstest is required (BRISK_REQUIRE_WSTEST=1) but was not found");
        }
        assumeTrue(wstest != null, "the Autobahn TestSuite (wstest) is not installed");
        assumeTrue(!UNAVAILABLE.containsKey(engine), UNAVAILABLE.get(engine));
        Run run = RUNS.remove(engine);
        assertThat(run).as("the run started for %s", engine).isNotNull();
        Path dir = run.dir();
        String agent = run.agent();
        try (BriskTestServer t = run.server()) {
            Process p = run.wstest();
            if (!p.waitFor(90, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("wstest did not finish within 90 minutes; log: " + dir.resolve("wstest.log"));
            }
            Path index = dir.resolve("reports").resolve("index.json");
            assertThat(index).as("wstest's report (log: %s)", dir.resolve("wstest.log")).exists();
            String json = Files.readString(index, StandardCharsets.UTF_8);
            Map<String, String> results = new TreeMap<>();
            Matcher m = CASE.matcher(json);
            while (m.find()) {
                results.put(m.group(1), m.group(2) + "/" + m.group(3));
            }
            Map<String, Integer> tally = new TreeMap<>();
            Map<String, String> bad = new TreeMap<>();
            for (Map.Entry<String, String> e : results.entrySet()) {
                String behavior = e.getValue().substring(0, e.getValue().indexOf('/'));
                String close = e.getValue().substring(e.getValue().indexOf('/') + 1);
                tally.merge(behavior, 1, Integer::sum);
                if (!(behavior.equals("OK") || behavior.equals("NON-STRICT") || behavior.equals("INFORMATIONAL"))
                        || !(close.equals("OK") || close.equals("INFORMATIONAL"))) {
                    bad.put(e.getKey(), e.getValue());
                }
            }
            System.out.println("Autobahn " + agent + ": " + results.size() + " cases " + tally
                    + (bad.isEmpty() ? "" : ", not passed: " + bad) + " (report: " + dir.resolve("reports") + ")");
            assertThat(results.size()).as("cases in the report (all of its %d parsed)", json.split("\"behaviorClose\"").length - 1)
                    .isEqualTo(json.split("\"behaviorClose\"").length - 1).isGreaterThan(200);
            assertThat(bad).as("cases not passed (report in %s)", dir.resolve("reports")).isEmpty();
        }
    }
}
