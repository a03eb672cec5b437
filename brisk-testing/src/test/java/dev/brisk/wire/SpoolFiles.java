package dev.brisk.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The spooled-body files under a {@code body-spool-dir}: they live in the process's own
 * {@code brisk-spool-*} directory there, beside the lock file that marks it as owned.
 */
public final class SpoolFiles {
    private SpoolFiles() {
    }

    /** Every spooled-body file under {@code base}, at any depth (those deleted while looking are not counted). */
    public static List<Path> in(Path base) {
        List<Path> found = new ArrayList<>();
        collect(base, found);
        return found;
    }

    private static void collect(Path dir, List<Path> found) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    collect(p, found);
                } else if (p.getFileName().toString().startsWith("brisk-body-")) {
                    found.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            // removed while looking: nothing in it
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static long count(Path base) {
        return in(base).size();
    }
}
