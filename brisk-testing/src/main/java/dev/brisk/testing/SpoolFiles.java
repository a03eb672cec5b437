package dev.brisk.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The request-body spool files of a server running in this JVM. A spool file loses its name as it is
 * opened (Linux), so it is found the way {@code ls -l /proc/PID/fd} finds it: by the descriptors this
 * process holds on names in the spool directory, each of which then reads "(deleted)".
 */
public final class SpoolFiles {
    private SpoolFiles() {
    }

    /**
     * {@return the spool files open in {@code dir}, named or not}
     *
     * @param dir the server's {@code body-spool-dir}
     */
    public static long open(Path dir) {
        String prefix;
        try {
            prefix = dir.toRealPath() + "/brisk-body-";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith(prefix)) {
                        n++;
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor went away while the directory was read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return n;
    }

    /**
     * {@return the names in {@code dir}: none while the server runs, for spool files have none}
     *
     * @param dir the server's {@code body-spool-dir}
     */
    public static long listed(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
