package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spooled bodies of a process that ends without closing its server ({@code kill -9} here) do not stay
 * on disk for good: the next process to start a server on the same {@code body-spool-dir} removes them,
 * and never those of a process that still runs. Real processes, killed for real.
 */
class AbandonedSpoolTest {
    private static final int BODY = 1 << 20;

    @TempDir
    Path base;

    private final List<Process> processes = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void end() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        for (Socket s : sockets) {
            s.close();
        }
    }

    /** A {@link SpoolingProcess} on {@code base} holding one spooled 1 MiB body; returns it once held. */
    private Process holding() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                SpoolingProcess.class.getName(), base.toString()).redirectErrorStream(true).start();
        processes.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (IOException e) {
                // the process was killed
            }
        });
        int port = Integer.parseInt(awaitLine(lines, "port ").substring(5));
        Socket s = new Socket("127.0.0.1", port);
        sockets.add(s);
        OutputStream out = s.getOutputStream();
        out.write(("POST /hold HTTP/1.1\r\nHost: x\r\nContent-Length: " + BODY + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[BODY]);
        out.flush();
        assertThat(awaitLine(lines, "held ")).isEqualTo("held " + BODY);
        return p;
    }

    private static String awaitLine(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() - deadline < 0) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS);
            if (l != null && l.startsWith(prefix)) {
                return l;
            }
            if (l != null) {
                seen.add(l);
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the process; it printed " + seen);
    }

    /** The {@code brisk-spool-*} directories in the base, by the pid in their name. */
    private List<String> spoolDirs() throws IOException {
        try (Stream<Path> s = Files.list(base)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("brisk-spool-")).sorted().toList();
        }
    }

    private static String pidOf(Process p) {
        return "brisk-spool-" + p.pid() + "-";
    }

    @Test
    void theNextServerRemovesWhatAKilledProcessLeftAndKeepsWhatALiveOneHolds() throws Exception {
        Process live = holding();
        Process killed = holding(); // its start sweeps too: the live one's directory stays
        assertThat(SpoolFiles.count(base)).as("one spooled body each").isEqualTo(2);
        assertThat(spoolDirs()).hasSize(2);

        killed.destroyForcibly(); // SIGKILL: no shutdown hook, no close
        assertThat(killed.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(SpoolFiles.count(base)).as("left behind by the killed process").isEqualTo(2);

        try (BriskTestServer server = Wire.start(Engine.NIO, cfg -> {
            cfg.options().bodySpoolThreshold(64 * 1024).bodySpoolDir(base.toString());
            cfg.post("/size", ctx -> ctx.text(Long.toString(ctx.body().length))).maxBodySize(8 << 20);
        })) {
            assertThat(spoolDirs()).as("after the start").singleElement().asString().startsWith(pidOf(live));
            assertThat(SpoolFiles.count(base)).as("the live process's body is still there").isEqualTo(1);

            HttpResponse<String> r = server.client().send(server.request("/size")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[BODY])).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo(Integer.toString(BODY));
            assertThat(spoolDirs()).as("this process spooled too").hasSize(2);
        }
        assertThat(spoolDirs()).as("a closed server removes its own empty directory")
                .singleElement().asString().startsWith(pidOf(live));

        live.destroyForcibly();
        assertThat(live.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Process next = holding(); // a new process: the one killed last is swept by its start
        assertThat(spoolDirs()).singleElement().asString().startsWith(pidOf(next));
        assertThat(SpoolFiles.count(base)).isEqualTo(1);
    }

    @Test
    void aSpoolDirectoryRemovedUnderARunningServerIsMadeAgain() throws Exception {
        try (BriskTestServer server = Wire.start(Engine.NIO, cfg -> {
            cfg.options().bodySpoolThreshold(64 * 1024).bodySpoolDir(base.toString());
            cfg.post("/size", ctx -> ctx.text(ctx.body().length + " " + SpoolFiles.count(base)))
                    .maxBodySize(8 << 20);
        })) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> r = server.client().send(server.request("/size")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[BODY])).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).as("spooled, attempt " + i).isEqualTo(BODY + " 1");
                for (String d : spoolDirs()) { // a cleaner of old temporary files takes the whole directory
                    for (Path f : SpoolFiles.in(base.resolve(d))) {
                        Files.deleteIfExists(f); // the server may be deleting it too, its exchange over
                    }
                    Files.deleteIfExists(base.resolve(d).resolve("lock"));
                    Files.deleteIfExists(base.resolve(d));
                }
            }
        }
        assertThat(spoolDirs()).isEmpty();
    }
}
