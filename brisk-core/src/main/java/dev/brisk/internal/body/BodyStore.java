package dev.brisk.internal.body;

import dev.brisk.ServerOptions;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the request bodies of one server live, and how much of them there may be: the memory budget
 * every buffered body and stream window draws from, and the temporary files a large buffered body is
 * spooled to, under their own disk budget. Immutable apart from the budgets; shared by every
 * connection; any thread.
 */
public final class BodyStore {
    private static final System.Logger LOG = System.getLogger("dev.brisk");
    /** When {@link #newArray} last logged a failure (0: never). */
    private static final AtomicLong LAST_HEAP_WARNING = new AtomicLong();
    /** Largest body that fits one array: a held or assembled body is never larger. */
    public static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final ByteBudget memory;
    private final ByteBudget disk;
    private final long spoolThreshold;
    private final SpoolDirectory spool;
    private final BodySlabs slabs = new BodySlabs();
    /** G1's region size as this heap's ergonomics choose it; arrays of half of it or more are humongous. */
    private final long region;

    public BodyStore(ServerOptions o) {
        this(o.bodyMemoryBudget(), o.bodySpoolThreshold(), o.bodySpoolDisk(), o.bodySpoolDir());
    }

    /** @param dir where spooled bodies go; empty: {@code java.io.tmpdir} */
    public BodyStore(long memoryBudget, long spoolThreshold, long spoolDisk, String dir) {
        this(memoryBudget, spoolThreshold, spoolDisk, dir, regionSize(Runtime.getRuntime().maxMemory()));
    }

    /**
     * A store whose memory costs are counted for heap regions of {@code region} bytes.
     *
     * @param memoryBudget request-body memory all connections may hold together
     * @param spoolThreshold a buffered body larger than this goes to a file
     * @param spoolDisk disk all spooled bodies may take together; 0: never spool
     * @param dir where spooled bodies go; empty: {@code java.io.tmpdir}
     * @param region the heap region size arrays are counted in (a power of two)
     */
    public BodyStore(long memoryBudget, long spoolThreshold, long spoolDisk, String dir, long region) {
        this.region = region;
        this.memory = new ByteBudget(memoryBudget);
        this.disk = new ByteBudget(spoolDisk);
        this.spoolThreshold = spoolThreshold;
        this.spool = SpoolDirectory.in(Path.of(dir.isEmpty() ? System.getProperty("java.io.tmpdir") : dir));
    }

    /**
     * G1's region size for a heap of at most {@code maxHeap} bytes, as HotSpot's ergonomics pick it when
     * {@code G1HeapRegionSize} is not set: the heap over 2,048 regions, rounded up to a power of two,
     * between 1 and 32 MiB. Under another collector the count below errs on the side of holding less.
     */
    static long regionSize(long maxHeap) {
        long target = maxHeap == Long.MAX_VALUE ? 32L << 20 : Math.max(1, maxHeap / 2048);
        long pow = Long.highestOneBit(target);
        if (pow < target) {
            pow <<= 1;
        }
        return Math.min(32L << 20, Math.max(1L << 20, pow));
    }

    /**
     * What a byte array of {@code n} bytes takes of the heap, the figure the memory budget counts: its
     * length while it is small; once it is humongous (half a region or more with its header), the whole
     * regions it occupies, which no other object shares. A 1 MiB body in 1 MiB regions takes 2 MiB.
     */
    public long arrayCost(long n) {
        long withHeader = n + 16;
        if (withHeader < region / 2) {
            return n;
        }
        return (withHeader + region - 1) / region * region;
    }

    /**
     * What a buffered body of {@code declared} bytes reserves before any of it is read: one array's cost
     * ({@link #arrayCost}) when it is small or humongous, else its off-heap slabs' ({@link HeldBody}).
     */
    long heldCost(long declared) {
        return inOneArray(declared) ? arrayCost(declared) : slabCost(declared);
    }

    /**
     * Whether a declared body of {@code declared} bytes is held in one heap array: at most
     * {@link HeldBody#FIRST_SEGMENT}, or humongous (never copied by G1); the others go to slabs.
     */
    boolean inOneArray(long declared) {
        return declared <= HeldBody.FIRST_SEGMENT || arrayCost(declared) > declared;
    }

    /** {@return the whole slabs {@code n} bytes take} */
    static long slabCost(long n) {
        return (n + BodySlabs.SIZE - 1) / BodySlabs.SIZE * BodySlabs.SIZE;
    }

    /**
     * A new byte array of {@code n} bytes for a request body, or null when the heap cannot give one
     * even though the budget could (a budget set above what the heap holds, or a heap crowded by
     * everything else): the caller refuses the body as if its budget were spent (503, Retry-After), so
     * the client gets an answer instead of a reset. Only this allocation failed, so nothing is left
     * half-made; the failure is logged, at most once a minute.
     */
    static byte[] newArray(long n) {
        try {
            return new byte[(int) n];
        } catch (OutOfMemoryError e) {
            long now = System.nanoTime();
            long last = LAST_HEAP_WARNING.get();
            if ((last == 0 || now - last > 60_000_000_000L) && LAST_HEAP_WARNING.compareAndSet(last, now | 1)) {
                LOG.log(System.Logger.Level.WARNING, "no heap for a request body of " + n + " bytes (" + e.getMessage()
                        + "): refused with 503; body-memory-budget may be too large for -Xmx");
            }
            return null;
        }
    }

    /** The request-body memory all connections share. */
    public ByteBudget memory() {
        return memory;
    }

    /** The off-heap slabs middling bodies are held in. */
    public BodySlabs slabs() {
        return slabs;
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

    /** This process's directory for spooled bodies under {@code body-spool-dir}. */
    public SpoolDirectory spool() {
        return spool;
    }
}
