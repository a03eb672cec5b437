package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** curl as a real client for app tests: present on most machines, skipped (by assumption) where not. */
final class Curl {
    private Curl() {
    }

    /** Whether a {@code curl} executable is on the PATH. */
    static boolean available() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "curl"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs {@code curl -sS -i --max-time 10 args...}; returns its output (status line, headers, body) with
     * CRLF turned into LF. Fails the test when curl does not end within 15 s.
     */
    static String run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "-i", "--max-time", "10"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(15, TimeUnit.SECONDS)).as("curl finished").isTrue();
        return out.replace("\r\n", "\n");
    }
}
