package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code ./brisk example} with a setting it cannot use stops at once with one line naming it, never a
 * stack trace: status 2 for a value that is wrong, 1 for a port another process holds.
 */
class ExampleStartErrorsTest {

    private record Run(int status, String output) {
    }

    private static Run run(Map<String, String> env) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                ExampleApp.class.getName()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("BRISK_"));
        pb.environment().put("BRISK_HOST", "127.0.0.1");
        pb.environment().put("BRISK_PORT", "0");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("still running: " + env);
        }
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aWrongValueIsOneLineAndStatus2() throws Exception {
        for (Map<String, String> bad : new Map[] {Map.of("BRISK_PORT", "abc"), Map.of("BRISK_MAX_CONNECTIONS", "0"),
                Map.of("BRISK_HOST", "999.1.1.1"), Map.of("BRISK_IDLE_TIMEOUT", "2600000h"),
                Map.of("BRISK_BODY_SPOOL_DIR", "/nonexistent/brisk-spool")}) {
            Run r = run(bad);
            String name = bad.keySet().iterator().next();
            assertThat(r.status()).as(r.output()).isEqualTo(2);
            assertThat(r.output()).as("one line naming the setting").startsWith("brisk example: ").contains(name)
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void aTakenPortIsOneLineAndStatus1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run r = run(Map.of("BRISK_PORT", Integer.toString(taken.getLocalPort())));
            assertThat(r.status()).as(r.output()).isEqualTo(1);
            assertThat(r.output()).startsWith("brisk example: cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .doesNotContain("\tat ");
        }
    }
}
