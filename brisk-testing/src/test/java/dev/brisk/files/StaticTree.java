package dev.brisk.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.GZIPOutputStream;

/**
 * The sample files the static-file tests serve, written under a temporary directory:
 *
 * <pre>
 *   base/secret.txt                     outside the root: must never be served
 *   base/root/hello.txt                 "Hello, static world!\n"
 *   base/root/big.bin                   1 MiB, byte i = (i * 31 + i / 251) &amp; 0xff
 *   base/root/app.js, app.js.gz         script and its gzip (the .gz has other bytes than the script)
 *   base/root/data.json                 about 100 KiB of JSON
 *   base/root/zero.txt                  empty
 *   base/root/.env, .git/config         hidden
 *   base/root/sub/index.html            a directory with an index
 *   base/root/empty/                    a directory without one
 *   base/root/with space.txt, ünï.txt   names that need encoding
 *   base/root/link-in -&gt; hello.txt, link-out -&gt; ../secret.txt, dir-out -&gt; ..   symbolic links
 * </pre>
 *
 * Every file's time is fixed (2024-01-02T03:04:05Z) so validators are known.
 */
public final class StaticTree {
    /** The fixed modification time of every file. */
    public static final Instant MODIFIED = Instant.parse("2024-01-02T03:04:05Z");
    /** {@link #MODIFIED} as an HTTP date. */
    public static final String MODIFIED_HTTP = "Tue, 02 Jan 2024 03:04:05 GMT";
    public static final String HELLO = "Hello, static world!\n";
    public static final String SECRET = "TOP SECRET: never served";
    public static final String APP_JS = "function hello() {\n  return 'hello from app.js';\n}\n".repeat(40);

    public final Path base;
    public final Path root;
    public final boolean links;

    private StaticTree(Path base) {
        this.base = base;
        this.root = base.resolve("root");
        boolean l;
        try {
            Files.createDirectories(root.resolve("sub"));
            Files.createDirectories(root.resolve("empty"));
            Files.createDirectories(root.resolve(".git"));
            Files.writeString(base.resolve("secret.txt"), SECRET);
            write("hello.txt", HELLO.getBytes(StandardCharsets.UTF_8));
            write("big.bin", big());
            write("app.js", APP_JS.getBytes(StandardCharsets.UTF_8));
            write("app.js.gz", gzip(APP_JS.getBytes(StandardCharsets.UTF_8)));
            write("data.json", json().getBytes(StandardCharsets.UTF_8));
            write("zero.txt", new byte[0]);
            write(".env", "PASSWORD=hunter2".getBytes(StandardCharsets.UTF_8));
            write(".git/config", "[core]".getBytes(StandardCharsets.UTF_8));
            write("sub/index.html", "<h1>sub</h1>".getBytes(StandardCharsets.UTF_8));
            write("with space.txt", "spaced".getBytes(StandardCharsets.UTF_8));
            write("\u00fcn\u00ef.txt", "unicode".getBytes(StandardCharsets.UTF_8));
            try {
                Files.createSymbolicLink(root.resolve("link-in"), Path.of("hello.txt"));
                Files.createSymbolicLink(root.resolve("link-out"), Path.of("../secret.txt"));
                Files.createSymbolicLink(root.resolve("dir-out"), Path.of(".."));
                Files.createSymbolicLink(root.resolve("dir-in"), Path.of("sub"));
                Files.createSymbolicLink(base.resolve("root-link"), Path.of("root"));
                l = true;
            } catch (UnsupportedOperationException | IOException e) {
                l = false; // a file system without links: those tests are skipped
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.links = l;
    }

    /** {@return the tree, written under {@code base}} */
    public static StaticTree under(Path base) {
        return new StaticTree(base);
    }

    private void write(String name, byte[] bytes) throws IOException {
        Path p = root.resolve(name);
        Files.write(p, bytes);
        Files.setLastModifiedTime(p, FileTime.from(MODIFIED));
    }

    /** {@return the bytes of {@code name} under the root} */
    public byte[] bytes(String name) {
        try {
            return Files.readAllBytes(root.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return the ETag the server gives a file of {@code length} bytes with the fixed time} */
    public static String etag(long length, String suffix) {
        return "\"" + Long.toHexString(MODIFIED.toEpochMilli()) + "-" + Long.toHexString(length) + suffix + "\"";
    }

    /** {@return the ETag of {@code name}} */
    public String etag(String name) {
        return etag(bytes(name).length, name.endsWith(".gz") ? "-gz" : "");
    }

    /** {@return the 1 MiB pattern of big.bin} */
    public static byte[] big() {
        byte[] b = new byte[1 << 20];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + i / 251);
        }
        return b;
    }

    /** {@return about 100 KiB of JSON} */
    public static String json() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; sb.length() < 100 * 1024; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"id\":").append(i).append(",\"name\":\"event ").append(i)
                    .append("\",\"venue\":\"Hall ").append(i % 17).append("\",\"tags\":[\"music\",\"live\"]}");
        }
        return sb.append(']').toString();
    }

    /** {@return {@code data} gzipped} */
    public static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
