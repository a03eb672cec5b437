package dev.brisk.internal.body;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * This process's own directory for spooled request bodies under a base directory
 * ({@code body-spool-dir}), and the removal of the directories that processes which ended without
 * closing their servers (a crash, {@code kill -9}, {@code System.exit} with no {@code closeOnShutdown})
 * left behind, with their files.
 *
 * <p>How a living owner is told from a dead one: the directory holds a file {@code lock} on which its
 * process holds an OS file lock from before the directory has its name ({@code brisk-spool-*}) until it
 * is removed. The kernel drops the lock when the process dies, however it dies, so another process
 * that can take the lock knows the owner is gone. The directory is made under a temporary name
 * ({@code .brisk-spool-new-*}) and renamed once locked, so no process ever sees a {@code brisk-spool-*}
 * directory whose owner is still taking its lock.
 *
 * <pre>
 *   none --newFile--> own (locked, named) --close with no user, only the lock left--> none
 *                      |  the directory removed by someone else: newFile makes a new one
 * </pre>
 *
 * <p>One instance per base directory per process ({@link #in}), shared by every server using that
 * base; servers {@link #open} it as they start (the first open sweeps what dead processes left) and
 * {@link #close} it as they stop (the last close removes the directory when no file is left in it).
 * Thread-safe: every method holds the instance's monitor. The lock file is opened by this instance
 * only, never by a sweep in this process: closing any channel on a file drops the process's locks on
 * it (POSIX record locks).
 */
public final class SpoolDirectory {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    private static final ConcurrentHashMap<Path, SpoolDirectory> BY_BASE = new ConcurrentHashMap<>();
    static final String PREFIX = "brisk-spool-";
    private static final String NEW_PREFIX = ".brisk-spool-new-";
    private static final String LOCK = "lock";
    /** A directory left between its creation and its rename (a process that died in between) is this old. */
    private static final long NEW_DIR_STALE_MILLIS = 60_000;

    private final Path base;
    private int users;
    private boolean swept;
    private Path own;
    private FileChannel lockChannel;

    SpoolDirectory(Path base) {
        this.base = base;
    }

    /** The process's instance for {@code base} (a symbolic link and its target share one). */
    public static SpoolDirectory in(Path base) {
        Path key = base.toAbsolutePath().normalize();
        try {
            key = key.toRealPath();
        } catch (IOException e) {
            // not there (yet): the server's start says so; keep the plain name
        }
        return BY_BASE.computeIfAbsent(key, SpoolDirectory::new);
    }

    /** A server that may spool starts: the first one removes what dead processes left in the base. */
    public synchronized void open() {
        users++;
        if (!swept) {
            swept = true;
            sweep();
        }
    }

    /** A server that opened this stops: the last one removes the own directory if no file is left in it. */
    public synchronized void close() {
        if (users > 0 && --users == 0 && own != null) {
            try (Stream<Path> s = Files.list(own)) {
                if (s.anyMatch(p -> !p.getFileName().toString().equals(LOCK))) {
                    return; // a body still held past its server: the next sweep after this process takes it
                }
            } catch (NoSuchFileException e) {
                forgetOwn(); // removed under us: nothing left to remove but the lock we hold
                return;
            } catch (IOException e) {
                return;
            }
            removeOwn();
        }
    }

    /**
     * A new empty file (readable and writable by this process's user only) for a spooled body, in this
     * process's own directory, made first if there is none.
     */
    public synchronized Path newFile() throws IOException {
        if (own != null && !Files.exists(own.resolve(LOCK), LinkOption.NOFOLLOW_LINKS)) {
            // its lock file taken away (a cleaner of old files: a lock never changes the file's times),
            // so another process would take the directory for abandoned: start a new one
            forgetOwn();
        }
        if (own == null) {
            makeOwn();
        }
        try {
            return Files.createTempFile(own, "brisk-body-", ".tmp");
        } catch (NoSuchFileException e) {
            // removed under us (a cleaner of old temporary files): start a new one
            forgetOwn();
            makeOwn();
            return Files.createTempFile(own, "brisk-body-", ".tmp");
        }
    }

    /** This process's directory, or null when it has none now (for tests). */
    synchronized Path own() {
        return own;
    }

    private void makeOwn() throws IOException {
        Path fresh = Files.createTempDirectory(base, NEW_PREFIX); // owner-only permissions where POSIX
        FileChannel ch = null;
        try {
            ch = FileChannel.open(fresh.resolve(LOCK), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            if (ch.tryLock() == null) {
                throw new IOException("could not lock a new spool directory: " + fresh);
            }
            Path named = base.resolve(PREFIX + ProcessHandle.current().pid() + "-"
                    + fresh.getFileName().toString().substring(NEW_PREFIX.length()));
            try {
                Files.move(fresh, named, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(fresh, named);
            }
            own = named;
            lockChannel = ch;
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                closeQuietly(ch);
            }
            removeFlat(fresh);
            throw e;
        }
    }

    private void removeOwn() {
        Path dir = own;
        own = null;
        try {
            Files.deleteIfExists(dir.resolve(LOCK));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not remove the spool directory " + dir, e);
        }
        dropLock();
    }

    /** The own directory is gone or no longer marked as owned: let go of it (its files stay readable by path while they exist). */
    private void forgetOwn() {
        dropLock();
        own = null;
    }

    private void dropLock() {
        if (lockChannel != null) {
            closeQuietly(lockChannel);
            lockChannel = null;
        }
    }

    /**
     * Removes every {@code brisk-spool-*} directory in the base whose lock nobody holds (its process is
     * gone), and any {@code .brisk-spool-new-*} one old enough that its maker died before naming it. A
     * directory this process may not open (another user's) or whose owner lives is left alone.
     */
    void sweep() {
        int removed = 0;
        String mine = PREFIX + ProcessHandle.current().pid() + "-";
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base,
                p -> p.getFileName().toString().startsWith(PREFIX)
                        || p.getFileName().toString().startsWith(NEW_PREFIX))) {
            for (Path d : dirs) {
                // this process's own, under any name it had, is never opened here: closing a channel on its
                // lock file would drop the lock this process holds (POSIX record locks are per process)
                if (d.getFileName().toString().startsWith(mine)
                        || !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) || !ownedByUs(d)) {
                    continue;
                }
                if (abandoned(d)) {
                    removeFlat(d);
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not look for abandoned spool directories in " + base, e);
        }
        if (removed > 0) {
            LOG.log(System.Logger.Level.INFO, "removed " + removed + " spool director" + (removed == 1 ? "y" : "ies")
                    + " that ended processes left in " + base);
        }
    }

    /**
     * Whether {@code d} belongs to this process's user (a directory another user made in a shared
     * {@code /tmp} is never walked: it could be made to point elsewhere). Where the file system has no
     * owners, every directory counts as ours.
     */
    private static boolean ownedByUs(Path d) {
        try {
            java.nio.file.attribute.UserPrincipal owner = Files.getOwner(d, LinkOption.NOFOLLOW_LINKS);
            String user = System.getProperty("user.name");
            return owner.getName().equals(user);
        } catch (UnsupportedOperationException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code d}'s owner is gone; when it is, the lock is taken and dropped again at once. */
    private static boolean abandoned(Path d) {
        Path lock = d.resolve(LOCK);
        if (d.getFileName().toString().startsWith(NEW_PREFIX)) {
            try {
                FileTime t = Files.getLastModifiedTime(d);
                if (System.currentTimeMillis() - t.toMillis() < NEW_DIR_STALE_MILLIS) {
                    return false; // being made now, in all likelihood
                }
            } catch (IOException e) {
                return false;
            }
        }
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return false; // its process lives
            }
            l.release();
            return true;
        } catch (NoSuchFileException e) {
            // a named directory is made with its lock: someone took the lock file away (a cleaner of old
            // files), so the lock cannot tell; the pid in the name can (the owner makes a new directory
            // at its next body, seeing its lock gone)
            return !named(d) || !processLives(d);
        } catch (AccessDeniedException | OverlappingFileLockException e) {
            return false; // another user's, or this process's own under another name
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean named(Path d) {
        return d.getFileName().toString().startsWith(PREFIX);
    }

    /** Whether the process whose pid {@code d}'s name carries runs (true when the name carries none). */
    private static boolean processLives(Path d) {
        String rest = d.getFileName().toString().substring(PREFIX.length());
        int dash = rest.indexOf('-');
        try {
            long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true;
        }
    }

    /**
     * Removes {@code d}'s regular files, then {@code d}: the layout is flat, so nothing below is followed
     * (a link or a directory inside stays, and so does {@code d}).
     */
    private static void removeFlat(Path d) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(d)) {
            for (Path p : files) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(d);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not remove the spool directory " + d, e);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing a spool lock failed", e);
        }
    }
}
