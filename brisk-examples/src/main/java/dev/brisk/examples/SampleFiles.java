package dev.brisk.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * The sample files the example app serves under {@code /static/}, written at start into a directory of
 * their own (nothing binary is committed): {@code hello.txt}, {@code big.bin} (1 MiB of a fixed
 * pattern), {@code app.js} with its precompressed {@code app.js.gz}, {@code data.json} (about 100 KiB,
 * for compression) and {@code index.html}. The directory is {@code BRISK_EXAMPLE_STATIC_DIR} when set
 * (kept), else a temporary one removed when the JVM exits. Made once per JVM; thread-safe.
 */
public final class SampleFiles {
    /** The text of {@code hello.txt}. */
    public static final String HELLO = "Hello from a static file!\n";
    /** The size of {@code big.bin}. */
    public static final int BIG = 1 << 20;

    private static Path directory;
    /** Runs before a temporary directory is deleted at exit: the closing of the server that serves it. */
    private static volatile Runnable beforeDelete = () -> { };

    private SampleFiles() {
    }

    /** {@return the directory, with the files written on the first call} */
    public static synchronized Path directory() {
        if (directory == null) {
            try {
                String configured = System.getenv("BRISK_EXAMPLE_STATIC_DIR");
                Path dir;
                if (configured != null && !configured.isBlank()) {
                    dir = Files.createDirectories(Path.of(configured));
                } else {
                    dir = Files.createTempDirectory("brisk-example-static");
                    Path d = dir;
                    // after the server's drain, which may still serve these files (shutdown hooks run in parallel)
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        beforeDelete.run();
                        delete(d);
                    }, "brisk-sample-files"));
                }
                write(dir);
                directory = dir;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the sample files", e);
            }
        }
        return directory;
    }

    /**
     * At exit, a temporary directory is deleted only once {@code close} has returned: the server that
     * serves it closes first (its drain still answers {@code /static}).
     */
    public static void deleteAfter(Runnable close) {
        beforeDelete = close;
    }

    /** Writes every sample file into {@code dir}. */
    static void write(Path dir) throws IOException {
        Files.writeString(dir.resolve("hello.txt"), HELLO);
        Files.write(dir.resolve("big.bin"), big());
        byte[] js = appJs().getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("app.js"), js);
        Files.write(dir.resolve("app.js.gz"), gzip(js));
        Files.writeString(dir.resolve("data.json"), json());
        Files.writeString(dir.resolve("index.html"),
                "<!doctype html>\n<title>Brisk static files</title>\n<script src=\"app.js\"></script>\n"
                        + "<p>Try <a href=\"hello.txt\">hello.txt</a>, <a href=\"big.bin\">big.bin</a>, "
                        + "<a href=\"data.json\">data.json</a>.</p>\n");
    }

    /** {@return the bytes of {@code big.bin}: byte i is {@code (i * 31 + i / 251) & 0xff}} */
    public static byte[] big() {
        byte[] b = new byte[BIG];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + i / 251);
        }
        return b;
    }

    /** {@return the text of {@code app.js}} */
    public static String appJs() {
        StringBuilder sb = new StringBuilder("// served from app.js.gz to clients that take gzip\n");
        for (int i = 0; i < 200; i++) {
            sb.append("function step").append(i).append("(x) { return x * ").append(i).append(" + 1; }\n");
        }
        return sb.append("document.title = 'Brisk: ' + step1(41);\n").toString();
    }

    /** {@return about 100 KiB of JSON (the text of {@code data.json})} */
    public static String json() {
        StringBuilder sb = new StringBuilder(110 * 1024).append('[');
        for (int i = 0; sb.length() < 100 * 1024; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"id\":").append(i).append(",\"name\":\"event ").append(i).append("\",\"venue\":\"Hall ")
                    .append(i % 17).append("\",\"tags\":[\"music\",\"live\"]}");
        }
        return sb.append("]\n").toString();
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the system cleans it eventually
        }
    }
}
