package dev.brisk.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code io=uring} where io_uring cannot be used: a server process whose JVM denies native access
 * ({@code --illegal-native-access=deny}, as a locked-down deployment may) cannot reach the kernel
 * through FFM. {@code io=uring} then serves on NIO after one log line saying why; {@code io=uring-only}
 * refuses to start, saying why.
 */
class UringFallbackTest {
    private static Process start(String io) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--illegal-native-access=deny",
                "-cp", System.getProperty("java.class.path"), DrainTarget.class.getName());
        pb.environment().put("BRISK_IO", io);
        pb.redirectErrorStream(true);
        return pb.start();
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
        Process server = start("uring");
        try {
            List<String> lines = linesUntilPort(server);
            assertThat(lines).isNotEmpty();
            String last = lines.get(lines.size() - 1);
            assertThat(last).as("the server started: %s", lines).startsWith("port ");
            assertThat(lines.stream().filter(l -> l.contains("io=uring: io_uring cannot be used")))
                    .as("one line saying why: %s", lines).hasSize(1)
                    .allSatisfy(l -> assertThat(l).contains("serving with io=nio instead"));
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
        Process server = start("uring-only");
        try {
            List<String> lines = linesUntilPort(server);
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the process ended").isTrue();
            assertThat(server.exitValue()).isNotZero();
            assertThat(lines).noneMatch(l -> l.startsWith("port "))
                    .anyMatch(l -> l.contains("io=uring-only: io_uring cannot be used")
                            && l.contains("native access"));
        } finally {
            server.destroyForcibly();
        }
    }
}
