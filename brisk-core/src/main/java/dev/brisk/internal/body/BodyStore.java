package dev.brisk.internal.body;

import dev.brisk.ServerOptions;
import java.nio.file.Path;

/**
 * Where the request bodies of one server live, and how much of them there may be: the memory budget
 * every buffered body and stream window draws from, and the temporary files a large buffered body is
 * spooled to, under their own disk budget. Immutable apart from the budgets; shared by every
 * connection; any thread.
 */
public final class BodyStore {
    /** Largest body that fits one array: a held or assembled body is never larger. */
    public static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final ByteBudget memory;
    private final ByteBudget disk;
    private final long spoolThreshold;
    private final Path dir;

    public BodyStore(ServerOptions o) {
        this(o.bodyMemoryBudget(), o.bodySpoolThreshold(), o.bodySpoolDisk(), o.bodySpoolDir());
    }

    /** @param dir where spooled bodies go; empty: {@code java.io.tmpdir} */
    public BodyStore(long memoryBudget, long spoolThreshold, long spoolDisk, String dir) {
        this.memory = new ByteBudget(memoryBudget);
        this.disk = new ByteBudget(spoolDisk);
        this.spoolThreshold = spoolThreshold;
        this.dir = Path.of(dir.isEmpty() ? System.getProperty("java.io.tmpdir") : dir);
    }

    /** The request-body memory all connections share. */
    public ByteBudget memory() {
        return memory;
    }

    /** The disk all spooled bodies share. */
    public ByteBudget disk() {
        return disk;
    }

    /**
     * Whether a body of {@code size} bytes (so far, or declared) belongs in a file rather than in memory,
     * when more than {@code threshold} bytes go there ({@code body-spool-threshold}, or a writer's own).
     */
    boolean spools(long size, long threshold) {
        return disk.limit() > 0 && size > threshold;
    }

    /** The limit a buffered body gets from a route's {@code limit}: one array's size at most unless it may spool. */
    public long bufferedLimit(long limit) {
        return disk.limit() > 0 ? limit : Math.min(limit, MAX_ARRAY);
    }

    long spoolThreshold() {
        return spoolThreshold;
    }

    Path dir() {
        return dir;
    }
}
