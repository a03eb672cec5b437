package dev.brisk.events;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A main class of this module in its own JVM, its output collected line by line. */
public final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new java.util.concurrent.CopyOnWriteArrayList<>();

    public ChildJvm(String mainClass, Map<String, String> env) throws IOException {
        this(mainClass, env, "-Xmx512m");
    }

    /** With the given heap bound ({@code -Xmx...}). */
    public ChildJvm(String mainClass, Map<String, String> env, String heap) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-cp", System.getProperty("java.class.path"), mainClass));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("BRISK_") || k.startsWith("EVENTS_") || k.startsWith("SIM_"));
        pb.environment().putAll(env);
        process = pb.start();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    all.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The next output line matching {@code test}, waiting at most {@code seconds}; fails with the output so far. */
    public String await(Predicate<String> test, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && test.test(line)) {
                return line;
            }
            if (line == null && !process.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        throw new AssertionError("no matching line within " + seconds + " s; output:\n" + String.join("\n", all));
    }

    public Process process() {
        return process;
    }

    public String output() {
        return String.join("\n", all);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
