package dev.brisk.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.opentest4j.TestAbortedException;

/**
 * The command-line clients tests drive (curl, openssl, h2load, nghttp): whether one is installed, and a
 * test's way to need one. {@code .ci/run} installs them and says which are required; on a developer's
 * machine without one, the tests that need it are skipped, saying why.
 */
public final class Tools {
    private Tools() {
    }

    /**
     * {@return whether {@code tool} is an executable on the {@code PATH}}
     *
     * @param tool the command's name
     */
    public static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Makes sure {@code tool} is installed: when it is not, the test fails if the environment variable
     * {@code requiredBy} is {@code 1} (CI installed it, so its absence is a fault), else it is skipped.
     *
     * @param tool the command's name
     * @param requiredBy the variable that makes the tool required, e.g. {@code BRISK_REQUIRE_H2LOAD}; may be null
     * @param why what the tool is, for the skip's reason (e.g. "nghttp2-client")
     * @throws AssertionError when the tool is missing and required
     * @throws TestAbortedException when it is missing and not required
     */
    public static void need(String tool, String requiredBy, String why) {
        if (onPath(tool)) {
            return;
        }
        if (requiredBy != null && "1".equals(System.getenv(requiredBy))) {
            throw new AssertionError(tool + " is required (" + requiredBy + "=1) but not on the PATH");
        }
        throw new TestAbortedException(tool + " (" + why + ") is not installed");
    }
}
