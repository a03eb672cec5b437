package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code io=uring} where io_uring cannot be used: a server process whose JVM denies native access
 * ({@code --illegal-native-access=deny}, as a locked-down deployment may) cannot reach the kernel
 * through FFM, and a JDK 21 has no final FFM API at all. {@code io=uring} then serves on NIO after one
 * log line saying why; {@code io=uring-only} refuses to start, saying why.
 *
 * <p>The JDK 21 cases run the server on a real JDK 21 (the oldest Brisk supports, so they also show that
 * nothing compiled for it needs a newer one): {@code BRISK_JDK21} names its home or its {@code java};
 * without it they are skipped, and {@code BRISK_REQUIRE_JDK21=1} (set by {@code .ci/run}, which installs
 * one) makes its absence a failure.
 */
class UringFallbackTest {
    private static Process start(String io) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return start(io, java, "--illegal-native-access=deny");
    }

    private static Process start(String io, String java, String... jvmOptions) throws IOException {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DrainTarget.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("BRISK_IO", io);
        pb.redirectErrorStream(true);
        return pb.start();
    }

    /** The {@code java} of the JDK 21 named by {@code BRISK_JDK21}; skips (or fails, when required) without one. */
    private static String jdk21() throws Exception {
        String named = System.getenv("BRISK_JDK21");
        String java = null;
        if (named != null && !named.isBlank()) {
            Path p = Path.of(named);
            Path exe = Files.isDirectory(p) ? p.resolve("bin").resolve("java") : p;
            if (Files.isExecutable(exe)) {
                java = exe.toString();
            }
        }
        if (java == null && "1".equals(System.getenv("BRISK_REQUIRE_JDK21"))) {
            throw new AssertionError("a JDK 21 is required (BRISK_REQUIRE_JDK21=1) but BRISK_JDK21 names none: " + named);
        }
        assumeTrue(java != null, "no JDK 21 to run the server on (set BRISK_JDK21 to its home)");
        Process v = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        String version = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(v.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(version).as("BRISK_JDK21 is a JDK 21").contains("version \"21");
        return java;
    }

    /** The process's output lines up to and including its port line (or its end), within 30 s. */
    private static List<String> linesUntilPort(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            List<String> lines = new ArrayList<>();
            try {
                for (String l; (l = out.readLine()) != null && lines.size() < 10_000; ) {
                    lines.add(l);
                    if (l.startsWith("port ")) {
                        break;
                    }
                }
            } catch (IOException e) {
                lines.add("read failed: " + e);
            }
            return lines;
        }).get(30, TimeUnit.SECONDS);
    }

    @Test
    void uringFallsBackToNioWithOneLineSayingWhy() throws Exception {
        servesOnNioAfterOneLine(start("uring"), "native access");
    }

    @Test
    void onJdk21UringFallsBackToNioWithOneLineSayingWhy() throws Exception {
        servesOnNioAfterOneLine(start("uring", jdk21()), "needs JDK 22 or newer (FFM API); this is JDK 21");
    }

    @Test
    void onJdk21UringOnlyRefusesToStartSayingWhy() throws Exception {
        refusesSayingWhy(start("uring-only", jdk21()), "needs JDK 22 or newer");
    }

    private static void servesOnNioAfterOneLine(Process server, String why) throws Exception {
        try {
            List<String> lines = linesUntilPort(server);
            assertThat(lines).isNotEmpty();
            String last = lines.get(lines.size() - 1);
            assertThat(last).as("the server started: %s", lines).startsWith("port ");
            assertThat(lines.stream().filter(l -> l.contains("io=uring: io_uring cannot be used")))
                    .as("one line saying why: %s", lines).hasSize(1)
                    .allSatisfy(l -> assertThat(l).contains("serving with io=nio instead").contains(why));
            int port = Integer.parseInt(last.substring(5).trim());
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                OutputStream o = s.getOutputStream();
                o.write("GET /hello?n=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(answer).startsWith("HTTP/1.1 200 OK").endsWith("hello 1");
            }
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void uringOnlyRefusesToStartSayingWhy() throws Exception {
        refusesSayingWhy(start("uring-only"), "native access");
    }

    private static void refusesSayingWhy(Process server, String why) throws Exception {
        try {
            List<String> lines = linesUntilPort(server);
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the process ended").isTrue();
            assertThat(server.exitValue()).isNotZero();
            assertThat(lines).noneMatch(l -> l.startsWith("port "))
                    .anyMatch(l -> l.contains("io=uring-only: io_uring cannot be used") && l.contains(why));
        } finally {
            server.destroyForcibly();
        }
    }
}
