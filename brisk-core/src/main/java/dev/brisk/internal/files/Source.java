package dev.brisk.internal.files;

import java.io.IOException;
import java.util.List;

/** Where a static mount's files come from: a directory, or a class loader's resources. Thread-safe. */
public interface Source {
    /**
     * The file or directory at {@code segments} below the root: null when there is none, or when it
     * may not be served (a hidden file, a link out of the root, a device).
     *
     * @param segments names checked by {@link RequestPath}: no separators, no dot segments
     * @throws IOException when looking fails for another reason than absence
     */
    Resource find(List<String> segments) throws IOException;
}
