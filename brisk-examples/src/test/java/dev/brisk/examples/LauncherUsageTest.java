package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ./brisk} and the bench scripts as a user runs them: {@code --help} answers at once (no JDK
 * lookup, no build, no server), and a usage mistake is one line on stderr with exit status 2.
 *
 * <p>JAVA_HOME points nowhere: were the launcher to look for a JDK, it would say so on stderr, which
 * must stay empty; a build would print "brisk: building" there and touch the build stamp and the jars.
 */
class LauncherUsageTest {
    private static Path root;

    @TempDir
    Path tmp;

    @BeforeAll
    static void findRoot() {
        assumeTrue(onPath("bash"), "bash is not installed");
        // Maven runs the tests in the module's directory; the launcher is in the repository's root
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("brisk")) && Files.isRegularFile(dir.resolve("mvnw"))) {
                root = dir;
                return;
            }
        }
        throw new AssertionError("no ./brisk above " + Path.of("").toAbsolutePath());
    }

    static Stream<Arguments> helps() {
        return Stream.of(
                help("Usage: ./brisk <command>", "./brisk", "help"),
                help("Usage: ./brisk <command>", "./brisk", "--help"),
                help("Usage: ./brisk <command>", "./brisk", "-h"),
                help("Usage: ./brisk <command>", "./brisk"),
                help("Usage: ./brisk demo", "./brisk", "demo", "--help"),
                help("Usage: ./brisk demo", "./brisk", "demo", "-h"),
                help("Usage: EVENTS_PROVIDER_URL=http://host/feed ./brisk events", "./brisk", "events", "--help"),
                help("Usage: ./brisk simulator", "./brisk", "simulator", "--help"),
                help("Usage: ./brisk example", "./brisk", "example", "--help"),
                help("Usage: ./brisk test", "./brisk", "test", "--help"),
                help("Usage: ./brisk test", "./brisk", "test", "-pl", "brisk-core", "-h"),
                help("Usage: ./brisk alloc", "./brisk", "alloc", "--help"),
                help("Usage: ./brisk build", "./brisk", "build", "--help"),
                help("Usage: ./brisk cert", "./brisk", "cert", "--help"),
                help("Usage: ./brisk cert", "./brisk", "cert", "--dir", "x", "-h"),
                help("Usage: ./brisk fuzz", "./brisk", "fuzz", "--help"),
                help("Usage: ./brisk fuzz", "./brisk", "fuzz", "--time", "5", "--target", "feed-reader", "-h"),
                help("Usage: ./brisk fuzz", "./brisk", "help", "fuzz"),
                help("Usage: ./brisk bench [--quick]", "./brisk", "bench", "--help"),
                help("Usage: ./brisk bench --jmh", "./brisk", "help", "bench", "--jmh"),
                help("Usage: ./brisk bench --tls-keepalive", "./brisk", "help", "bench", "--tls-keepalive"),
                help("Usage: ./brisk bench [--quick]", "./brisk", "bench", "--quick", "-h"),
                help("Usage: ./brisk bench --events", "./brisk", "bench", "--events", "--help"),
                help("Usage: ./brisk bench --engines", "./brisk", "bench", "--engines", "--help"),
                help("Usage: ./brisk bench --overload", "./brisk", "bench", "--overload", "--help"),
                help("Usage: ./brisk bench --metrics-cost", "./brisk", "bench", "--metrics-cost", "-h"),
                help("Usage: ./brisk bench --hostile-bodies", "./brisk", "bench", "--hostile-bodies", "--help"),
                help("Usage: ./brisk bench --jmh", "./brisk", "bench", "--jmh", "--help"),
                help("Usage: ./brisk bench --overload", "./brisk", "help", "bench", "--overload"),
                help("Usage: ./brisk demo", "./brisk", "help", "demo"),
                help("Usage: ./brisk demo", "./brisk", "demo", "--cluster", "--help"),
                help("Usage: ./brisk bench --cluster [", "./brisk", "bench", "--cluster", "--help"),
                help("Usage: ./brisk bench --cluster-failover", "./brisk", "bench", "--cluster-failover", "--help"),
                // the scripts alone, without the JAVA the launcher would give them
                help("Usage: ./brisk bench [--quick]", "bench/harness.sh", "--help"),
                help("Usage: ./brisk bench --events", "bench/events.sh", "--help"),
                help("Usage: ./brisk bench --engines", "bench/engines.sh", "--help"),
                help("Usage: ./brisk bench --overload", "bench/overload.sh", "--help"),
                help("Usage: ./brisk bench --metrics-cost", "bench/metrics-cost.sh", "--help"),
                help("Usage: ./brisk bench --hostile-bodies", "bench/hostile-bodies.sh", "--help"),
                help("Usage: ./brisk bench --tls-handshakes", "bench/tls-handshakes.sh", "--help"),
                help("Usage: ./brisk bench --tls-handshakes", "./brisk", "bench", "--tls-handshakes", "--help"),
                help("Usage: ./brisk bench --tls-keepalive", "bench/tls-keepalive.sh", "--help"),
                help("Usage: ./brisk bench --tls-keepalive", "./brisk", "bench", "--tls-keepalive", "--help"),
                help("Usage: ./brisk demo --cluster", "bench/cluster-demo.sh", "--help"),
                help("Usage: ./brisk bench --cluster [", "bench/cluster.sh", "--help"),
                help("Usage: ./brisk bench --cluster-failover", "bench/cluster-failover.sh", "--help"));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                mistake("brisk: unknown command nope; see ./brisk help", "./brisk", "nope"),
                mistake("brisk: unknown command nope; see ./brisk help", "./brisk", "help", "nope"),
                mistake("brisk: unknown command ; see ./brisk help", "./brisk", ""),
                mistake("brisk: unknown option --foo for 'help example'; see ./brisk help", "./brisk", "help", "example", "--foo"),
                mistake("brisk: unknown bench mode --bogus; see ./brisk help bench", "./brisk", "help", "bench", "--bogus"),
                mistake("brisk: unknown option x for 'help bench --jmh'; see ./brisk help", "./brisk", "help", "bench", "--jmh", "x"),
                mistake("brisk: unknown option --foo for 'demo'; see ./brisk demo --help", "./brisk", "demo", "--foo"),
                mistake("brisk: unknown option 9090 for 'events'; see ./brisk events --help", "./brisk", "events", "9090"),
                mistake("brisk: unknown option --port for 'simulator'; see ./brisk simulator --help", "./brisk", "simulator", "--port"),
                mistake("brisk: unknown option --foo for 'example'; see ./brisk example --help", "./brisk", "example", "--foo"),
                mistake("brisk: unknown option --skip-tests for 'build'; see ./brisk build --help", "./brisk", "build", "--skip-tests"),
                mistake("brisk: unknown option --days for 'cert'; see ./brisk cert --help", "./brisk", "cert", "--days", "9"),
                mistake("brisk: cert: --dir needs a directory; see ./brisk cert --help", "./brisk", "cert", "--dir"),
                mistake("brisk: cert: --host must be a DNS name, got 'a b'", "./brisk", "cert", "--host", "a b"),
                mistake("brisk: alloc: N must be a whole number of requests from 1 to 999999999, got 'lots'; see ./brisk alloc --help",
                        "./brisk", "alloc", "lots"),
                mistake("brisk: unknown option extra for 'alloc'; see ./brisk alloc --help", "./brisk", "alloc", "10", "echo", "extra"),
                mistake("brisk: unknown option --foo for 'fuzz'; see ./brisk fuzz --help", "./brisk", "fuzz", "--foo"),
                mistake("brisk: --time needs a value for 'fuzz'; see ./brisk fuzz --help", "./brisk", "fuzz", "--time"),
                mistake("brisk: --target needs a value for 'fuzz'; see ./brisk fuzz --help",
                        "./brisk", "fuzz", "--target", "--time", "5"),
                mistake("brisk: fuzz: --time must be a whole number of seconds from 1 to 86400, got '0'; see ./brisk fuzz --help",
                        "./brisk", "fuzz", "--time", "0"),
                mistake("brisk: fuzz: --time must be a whole number of seconds from 1 to 86400, got '1m'; see ./brisk fuzz --help",
                        "./brisk", "fuzz", "--time", "1m"),
                mistake("brisk: fuzz: unknown target 'parser' (request-parser chunked-decoder hpack h2-frames ws-frames multipart ranges urlencoded cookies feed-reader); see ./brisk fuzz --help",
                        "./brisk", "fuzz", "--target", "request-parser,parser"),
                mistake("brisk: unknown option --foo for 'bench'; see ./brisk bench --help", "./brisk", "bench", "--foo"),
                mistake("brisk: --rounds needs a value for 'bench'; see ./brisk bench --help", "./brisk", "bench", "--rounds"),
                mistake("brisk: unknown option --foo for 'bench --events'; see ./brisk bench --events --help",
                        "./brisk", "bench", "--events", "--foo"),
                mistake("brisk: --duration needs a value for 'bench --engines'; see ./brisk bench --engines --help",
                        "./brisk", "bench", "--engines", "--duration", "--quick"),
                mistake("brisk: unknown option --foo for 'bench --overload'; see ./brisk bench --overload --help",
                        "./brisk", "bench", "--overload", "--quick", "--foo"),
                mistake("brisk: unknown option --foo for 'bench --metrics-cost'; see ./brisk bench --metrics-cost --help",
                        "./brisk", "bench", "--metrics-cost", "--foo"),
                mistake("brisk: unknown option --foo for 'bench --events'; see ./brisk bench --events --help",
                        "bench/events.sh", "--foo"),
                mistake("brisk: --io must be nio, blocking or uring for 'bench --hostile-bodies'; see ./brisk bench --hostile-bodies --help",
                        "./brisk", "bench", "--hostile-bodies", "--io", "epoll"),
                mistake("brisk: --bursts must be a whole number from 1 for 'bench --hostile-bodies'; see ./brisk bench --hostile-bodies --help",
                        "./brisk", "bench", "--hostile-bodies", "--bursts", "0"),
                mistake("brisk: --tls must be 1.3 or 1.2 for 'bench --tls-handshakes'; see ./brisk bench --tls-handshakes --help",
                        "./brisk", "bench", "--tls-handshakes", "--tls", "1.1"),
                mistake("brisk: --rounds must be a whole number from 1 for 'bench --tls-keepalive'; see ./brisk bench --tls-keepalive --help",
                        "./brisk", "bench", "--tls-keepalive", "--rounds", "0"),
                mistake("brisk: unknown option --foo for 'bench'; see ./brisk bench --help", "bench/harness.sh", "--foo"),
                mistake("brisk: unknown option --foo for 'demo'; see ./brisk demo --help", "./brisk", "demo", "--cluster", "--foo"),
                mistake("brisk: unknown option --foo for 'bench --cluster'; see ./brisk bench --cluster --help",
                        "./brisk", "bench", "--cluster", "--foo"),
                mistake("brisk: --duration must be 6 to 9999 seconds, got '2' for 'bench --cluster-failover'; "
                        + "see ./brisk bench --cluster-failover --help", "./brisk", "bench", "--cluster-failover", "--duration", "2"),
                mistake("brisk: unknown option --foo for 'demo --cluster'; see ./brisk demo --cluster --help",
                        "bench/cluster-demo.sh", "--foo"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("helps")
    void helpPrintsUsageAtOnceAndStartsNothing(String usage, List<String> command) throws Exception {
        Map<String, Long> before = buildOutputs();
        Run run = run(command);
        assertThat(run.exit).as("exit status").isZero();
        assertThat(run.stdout).contains(usage);
        assertThat(run.stderr).as("no JDK lookup, no build").isEmpty();
        assertThat(buildOutputs()).as("the build stamp and jars, untouched").isEqualTo(before);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("mistakes")
    void aUsageMistakeIsOneLineAndExitTwo(String line, List<String> command) throws Exception {
        Map<String, Long> before = buildOutputs();
        Run run = run(command);
        assertThat(run.exit).as("exit status").isEqualTo(2);
        assertThat(run.stderr).isEqualTo(line + "\n");
        assertThat(run.stdout).isEmpty();
        assertThat(buildOutputs()).as("the build stamp and jars, untouched").isEqualTo(before);
    }

    /**
     * Run from another directory, with {@code JAVA_TOOL_OPTIONS} set (the JVM then prints "Picked up ..."
     * before its version): the JDK is still recognised, and a relative {@code --dir} is the caller's.
     */
    @org.junit.jupiter.api.Test
    void certFindsTheJdkWithJavaToolOptionsAndWritesWhereItIsCalledFrom() throws Exception {
        Path home = Path.of(System.getProperty("java.home"));
        assumeTrue(Files.isExecutable(home.resolve("bin/keytool")) && Files.isExecutable(home.resolve("bin/javac")),
                "the tests run on a JDK with keytool");
        Path caller = Files.createDirectories(tmp.resolve("caller"));
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("brisk").toString(), "cert", "--dir", "certs")
                .directory(caller.toFile())
                .redirectOutput(tmp.resolve("stdout").toFile()).redirectError(tmp.resolve("stderr").toFile());
        pb.environment().put("JAVA_HOME", home.toString());
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Xss1m");
        pb.environment().remove("JAVA");
        Process p = pb.start();
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended within 60 s").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String err = Files.readString(tmp.resolve("stderr"), StandardCharsets.UTF_8);
        assertThat(err).as("JAVA_HOME taken as it is").doesNotContain("is not a JDK");
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(caller.resolve("certs/localhost.p12")).isRegularFile();
        assertThat(caller.resolve("certs/localhost-cert.pem")).isRegularFile();
        assertThat(root.resolve("certs")).as("nothing in the checkout").doesNotExist();
    }

    private static Arguments help(String usage, String... command) {
        return Arguments.of(usage, List.of(command));
    }

    private static Arguments mistake(String line, String... command) {
        return Arguments.of(line, List.of(command));
    }

    private record Run(int exit, String stdout, String stderr) {
    }

    /** Runs the script with bash, from the root; it must end within 10 s (a server or a build would not). */
    private Run run(List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash"));
        cmd.addAll(command);
        Path out = tmp.resolve("stdout");
        Path err = tmp.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", tmp.resolve("no-jdk-here").toString());
        pb.environment().remove("JAVA");
        Process p = pb.start();
        try {
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as(command + " ended within 10 s").isTrue();
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Modification times of what a build writes: the launcher's stamp and each module's jar. */
    private static Map<String, Long> buildOutputs() throws IOException {
        Map<String, Long> times = new TreeMap<>();
        Path stamp = root.resolve(".brisk/build.stamp");
        times.put(".brisk/build.stamp", Files.exists(stamp) ? Files.getLastModifiedTime(stamp).toMillis() : -1);
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("brisk-")).toList()) {
                Path jar = module.resolve("target").resolve(module.getFileName() + ".jar");
                if (Files.exists(jar)) {
                    times.put(root.relativize(jar).toString(), Files.getLastModifiedTime(jar).toMillis());
                }
            }
        }
        return times;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
