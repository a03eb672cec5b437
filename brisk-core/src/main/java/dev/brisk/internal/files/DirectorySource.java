package dev.brisk.internal.files;

import dev.brisk.HttpException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;

/**
 * Files under a directory. A path is resolved segment by segment below the root's real path (resolved
 * once, at start) and must stay below it after normalizing (a second guard behind {@link RequestPath}).
 * A symbolic link below the root is followed only to a target inside the root's real path, unless links
 * may lead anywhere; only the names below the root are checked for links (an {@code lstat} each), and a
 * path with none needs no resolving (resolving every name from {@code /} cost a {@code readlink} per
 * name, eight per request in the benchmark's tree, most of a 1 KiB file's CPU). What is neither a regular file
 * nor a directory (a device, a FIFO, a socket) is never served: opening a FIFO would block. Hidden
 * files (by the platform's rule: a leading dot, or the DOS attribute) are not found unless allowed.
 * Immutable; thread-safe.
 */
public final class DirectorySource implements Source {
    private final Path realRoot;
    private final boolean followLinks;
    private final boolean hidden;

    /**
     * @throws IllegalArgumentException when {@code root} is not a readable directory
     */
    public DirectorySource(Path root, boolean followLinks, boolean hidden) {
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("static files: not a directory: " + dir);
        }
        try {
            this.realRoot = dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("static files: cannot read " + dir, e);
        }
        this.followLinks = followLinks;
        this.hidden = hidden;
    }

    @Override
    public Resource find(List<String> segments) throws IOException {
        Path p = realRoot;
        for (String s : segments) {
            p = p.resolve(s);
        }
        if (!p.normalize().startsWith(realRoot)) {
            return null; // unreachable after RequestPath's checks; kept as the last word
        }
        return at(p);
    }

    /** The resource at {@code p} (known to be below the root's real path by its names), or null. */
    Resource at(Path p) throws IOException {
        if (tooLongForFiles(p)) {
            return null; // no file can have such a name (ENAMETOOLONG): not found, not an I/O error
        }
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink() || !followLinks && linkOnTheWay(p)) {
                if (!followLinks && !p.toRealPath().startsWith(realRoot)) {
                    return null; // a link (this file or a directory on the way) leads out of the root
                }
                a = Files.readAttributes(p, BasicFileAttributes.class);
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        } catch (AccessDeniedException e) {
            throw new HttpException.Forbidden("Forbidden"); // as for a file it may not open
        }
        if (!a.isRegularFile() && !a.isDirectory()) {
            return null;
        }
        if (!hidden && p != realRoot && Files.isHidden(p)) {
            return null;
        }
        return new FileResource(p, a);
    }

    /**
     * Whether {@code p} has a name longer than a file name may be (255 bytes on the common file
     * systems) or is longer than a path may be (4,096 bytes on Linux): such a lookup fails with an I/O
     * error, not with "no such file".
     */
    static boolean tooLongForFiles(Path p) {
        String whole = p.toString();
        if (whole.length() < 64) {
            return false; // 63 characters are at most 252 bytes in UTF-8
        }
        if (whole.getBytes(StandardCharsets.UTF_8).length >= 4096) {
            return true;
        }
        for (Path name : p) {
            String n = name.toString();
            if (n.length() >= 64 && n.getBytes(StandardCharsets.UTF_8).length > 255) {
                return true;
            }
        }
        return false;
    }

    /** Whether a directory between the root and {@code p} is a symbolic link. */
    private boolean linkOnTheWay(Path p) {
        for (Path d = p.getParent(); d != null && d.startsWith(realRoot) && !d.equals(realRoot); d = d.getParent()) {
            if (Files.isSymbolicLink(d)) {
                return true;
            }
        }
        return false;
    }

    /** A regular file or directory, with the attributes read when it was found. */
    static final class FileResource implements Resource {
        private final Path path;
        private final BasicFileAttributes attrs;

        FileResource(Path path, BasicFileAttributes attrs) {
            this.path = path;
            this.attrs = attrs;
        }

        @Override
        public boolean isDirectory() {
            return attrs.isDirectory();
        }

        @Override
        public long length() {
            return attrs.size();
        }

        @Override
        public long lastModified() {
            return attrs.lastModifiedTime().toMillis();
        }

        @Override
        public String etag(String suffix) {
            return EntityTags.of(lastModified(), length(), suffix);
        }

        @Override
        public SizedBody open(long start, long count, Runnable release) throws IOException {
            FileChannel ch;
            try {
                ch = FileChannel.open(path, StandardOpenOption.READ);
            } catch (IOException | RuntimeException e) {
                release.run();
                throw e;
            }
            FileRegion body = new FileRegion(ch, start, count, release);
            return start == 0 && count == attrs.size() ? body.keyed(contentKey()) : body;
        }

        @Override
        public Object contentKey() {
            return FileContent.of(path, attrs);
        }

        @Override
        public byte[] read(long start, int count) throws IOException {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                ByteBuffer b = ByteBuffer.allocate(count);
                while (b.hasRemaining()) {
                    if (ch.read(b, start + b.position()) < 0) {
                        break; // shrank since it was looked up: send what there is
                    }
                }
                return b.position() == count ? b.array() : Arrays.copyOf(b.array(), b.position());
            }
        }
    }
}
