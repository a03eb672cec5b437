package dev.brisk.internal.files;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * What tells a whole file's bytes apart from its other versions, as a {@link SizedBody#contentKey}: its
 * path, size, modification time (as fine as the file system keeps it), file key (the inode, where there
 * is one: a file replaced by a rename is another file) and creation time (the birth time where the file
 * system and the JDK give it, as statx on Linux from JDK 22 does: a file deleted and made again whose
 * inode number was reused is another file too). Not told apart: a file rewritten in place to the same
 * size whose modification time was then set back to what it was (that takes a deliberate {@code utimes};
 * turn the cache off where files are deployed so). A file modified within the last
 * {@link #SETTLED_MILLIS} has no key: a writer may still be at it within the same tick of the file
 * system's clock, leaving the time as it was while the bytes change (the "racy" case version control
 * systems know), so nothing is reused for it until it has been left alone that long. Immutable.
 */
record FileContent(Path path, long size, FileTime modified, Object fileKey, FileTime created) {
    /** How long a file must have been left unmodified before its bytes are told by its attributes. */
    static final long SETTLED_MILLIS = 2_000;

    /** {@return the key of the file at {@code path} with {@code attrs}, or null when it changed too lately} */
    static FileContent of(Path path, BasicFileAttributes attrs) {
        FileTime modified = attrs.lastModifiedTime();
        if (System.currentTimeMillis() - modified.toMillis() < SETTLED_MILLIS) {
            return null;
        }
        return new FileContent(path, attrs.size(), modified, attrs.fileKey(), attrs.creationTime());
    }
}
