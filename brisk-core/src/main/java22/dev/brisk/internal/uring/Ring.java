package dev.brisk.internal.uring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * One io_uring: the submission and completion rings shared with the kernel (mapped with {@code mmap}),
 * and the submission entries. The kernel reads the submission tail and writes the completion tail, so
 * those are read and written with acquire/release ({@link VarHandle}); the heads and tails this side
 * owns are kept in fields and published.
 *
 * <p>Threads: one, the owner's (a loop's), for everything but {@link #close} after the loop stopped.
 * Memory an entry points at must stay reachable until its completion has been seen: the callers hold it.
 */
final class Ring {
    static final byte OP_NOP = 0;
    static final byte OP_ACCEPT = 13;
    static final byte OP_ASYNC_CANCEL = 14;
    static final byte OP_CLOSE = 19;
    static final byte OP_READ = 22;
    static final byte OP_SEND = 26;
    static final byte OP_RECV = 27;
    /** Submission flag: the kernel picks the buffer from a provided buffer group. */
    static final byte SQE_BUFFER_SELECT = 1 << 5;
    /** {@code ioprio} of an accept: it stays armed, completing once per connection (kernel 5.19+). */
    static final short ACCEPT_MULTISHOT = 1;
    /** {@code ioprio} of a receive: it stays armed, completing once per arrival (kernel 6.0+). */
    static final short RECV_MULTISHOT = 1 << 1;
    /** Completion flag: a provided buffer holds the bytes; its id is the flags' upper 16 bits. */
    static final int CQE_F_BUFFER = 1;
    /** Completion flag: the multishot submission stays armed, more completions follow. */
    static final int CQE_F_MORE = 1 << 1;
    /** The opcodes this transport submits: the probe requires each. */
    static final byte[] NEEDED = {OP_ACCEPT, OP_ASYNC_CANCEL, OP_CLOSE, OP_READ, OP_SEND, OP_RECV};

    private static final int SETUP_CQSIZE = 1 << 3;
    private static final int SETUP_CLAMP = 1 << 4;
    private static final int SETUP_R_DISABLED = 1 << 6;
    private static final int SETUP_SUBMIT_ALL = 1 << 7;
    private static final int SETUP_COOP_TASKRUN = 1 << 8;
    private static final int SETUP_SINGLE_ISSUER = 1 << 12;
    private static final int REGISTER_ENABLE_RINGS = 12;
    private static final int EINVAL = 22;
    private static final int FEAT_SINGLE_MMAP = 1;
    private static final int FEAT_NODROP = 1 << 1;
    private static final int FEAT_EXT_ARG = 1 << 8;
    private static final int ENTER_GETEVENTS = 1;
    private static final int ENTER_EXT_ARG = 1 << 3;
    private static final long OFF_SQ_RING = 0L;
    private static final long OFF_CQ_RING = 0x8000000L;
    private static final long OFF_SQES = 0x10000000L;
    private static final int REGISTER_PROBE = 8;
    private static final VarHandle INT = JAVA_INT.varHandle();

    private final int fd;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqHeadOff;
    private final long sqTailOff;
    private final int sqMask;
    private final int sqEntries;
    private final long cqHeadOff;
    private final long cqTailOff;
    private final int cqMask;
    private final long cqesOff;
    /** Submission tail as written here, published before each enter. */
    private int sqTail;
    /** Completion head as consumed here. */
    private int cqHead;
    private final Arena arena = Arena.ofShared();
    /** Created disabled: {@link #enable} on the one thread that will submit (SINGLE_ISSUER). */
    private final boolean disabled;
    /** struct io_uring_getevents_arg, then a __kernel_timespec. */
    private final MemorySegment waitArg;
    private final MemorySegment timespec;

    /**
     * Sets up a ring of {@code entries} submissions and twice as many completions.
     *
     * @throws IOException naming the failed call (EPERM where io_uring is forbidden, ENOSYS where absent)
     */
    Ring(int entries) throws IOException {
        this(entries, false);
    }

    /**
     * Not {@code DEFER_TASKRUN}, though it saves work per completion: since Linux 6.13 a deferred ring
     * runs at most 20 pending completions' work per pass, oldest first, so with hundreds of busy
     * connections a small request waits behind them for many turns (under {@code bench --hostile-bodies},
     * the slowest {@code /hello} was 110-156 ms with it and 67-84 ms without it, four runs each).
     *
     * @param singleIssuer whether one thread, which calls {@link #enable} first, makes every submission:
     *                     the ring is then set up with SINGLE_ISSUER and COOP_TASKRUN (kernel 6.0+), or
     *                     COOP_TASKRUN (5.19+), or neither, whichever the kernel takes first
     */
    Ring(int entries, boolean singleIssuer) throws IOException {
        MemorySegment p = arena.allocate(120, 8);
        int base = SETUP_CQSIZE | SETUP_CLAMP | SETUP_SUBMIT_ALL;
        int[] tries = singleIssuer
                ? new int[] {base | SETUP_R_DISABLED | SETUP_SINGLE_ISSUER | SETUP_COOP_TASKRUN,
                        base | SETUP_COOP_TASKRUN, base}
                : new int[] {base};
        long r = -EINVAL;
        int flags = base;
        for (int i = 0; i < tries.length && r == -EINVAL; i++) {
            flags = tries[i];
            p.fill((byte) 0);
            p.set(JAVA_INT, 4, entries * 2); // cq_entries
            p.set(JAVA_INT, 8, flags);
            r = Native.syscall(Native.SYS_IO_URING_SETUP, entries, p.address(), 0, 0, 0, 0);
        }
        disabled = (flags & SETUP_R_DISABLED) != 0;
        if (r < 0) {
            arena.close();
            throw Native.error("io_uring_setup", (int) -r);
        }
        fd = (int) r;
        try {
            int features = p.get(JAVA_INT, 20);
            if ((features & FEAT_EXT_ARG) == 0 || (features & FEAT_NODROP) == 0) {
                throw new IOException("io_uring lacks EXT_ARG or NODROP (kernel older than 5.11)");
            }
            sqEntries = p.get(JAVA_INT, 0);
            int cqEntries = p.get(JAVA_INT, 4);
            sqHeadOff = Integer.toUnsignedLong(p.get(JAVA_INT, 40));
            sqTailOff = Integer.toUnsignedLong(p.get(JAVA_INT, 44));
            long sqArrayOff = Integer.toUnsignedLong(p.get(JAVA_INT, 64));
            cqHeadOff = Integer.toUnsignedLong(p.get(JAVA_INT, 80));
            cqTailOff = Integer.toUnsignedLong(p.get(JAVA_INT, 84));
            cqesOff = Integer.toUnsignedLong(p.get(JAVA_INT, 100));
            long sqSize = sqArrayOff + sqEntries * 4L;
            long cqSize = cqesOff + cqEntries * 16L;
            if ((features & FEAT_SINGLE_MMAP) != 0) {
                MemorySegment both = Native.mmapRing(fd, Math.max(sqSize, cqSize), OFF_SQ_RING);
                sqRing = both;
                cqRing = both;
            } else {
                sqRing = Native.mmapRing(fd, sqSize, OFF_SQ_RING);
                cqRing = Native.mmapRing(fd, cqSize, OFF_CQ_RING);
            }
            sqes = Native.mmapRing(fd, sqEntries * 64L, OFF_SQES);
            sqMask = sqRing.get(JAVA_INT, Integer.toUnsignedLong(p.get(JAVA_INT, 48)));
            cqMask = cqRing.get(JAVA_INT, Integer.toUnsignedLong(p.get(JAVA_INT, 88)));
            // the index array maps slot i to entry i, once: entries are then written in ring order
            for (int i = 0; i < sqEntries; i++) {
                sqRing.set(JAVA_INT, sqArrayOff + i * 4L, i);
            }
            sqTail = (int) INT.getAcquire(sqRing, sqTailOff);
            cqHead = (int) INT.getAcquire(cqRing, cqHeadOff);
            waitArg = arena.allocate(24, 8);
            timespec = arena.allocate(16, 8);
            waitArg.set(JAVA_LONG, 16, timespec.address());
        } catch (IOException | RuntimeException e) {
            Native.close(fd);
            arena.close();
            throw e;
        }
    }

    /** Enables a ring set up disabled, making the calling thread its one submitter. Once, before any submission. */
    void enable() {
        if (disabled) {
            long r = Native.syscall(Native.SYS_IO_URING_REGISTER, fd, REGISTER_ENABLE_RINGS, 0, 0, 0, 0);
            if (r < 0) {
                throw new IllegalStateException("io_uring_register(ENABLE_RINGS): " + Native.strerror((int) -r));
            }
        }
    }

    /** Which of {@link #NEEDED} the kernel lacks, or null when it has them all. */
    String missingOpcodes() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment probe = a.allocate(16 + 256 * 8, 8);
            long r = Native.syscall(Native.SYS_IO_URING_REGISTER, fd, REGISTER_PROBE, probe.address(), 256, 0, 0);
            if (r < 0) {
                return "opcode probe failed: " + Native.strerror((int) -r);
            }
            int opsLen = probe.get(JAVA_BYTE, 1) & 0xff;
            StringBuilder missing = new StringBuilder();
            for (byte op : NEEDED) {
                boolean supported = op < opsLen && (probe.get(JAVA_SHORT, 16 + op * 8L + 2) & 1) != 0;
                if (!supported) {
                    missing.append(missing.isEmpty() ? "" : ", ").append(op);
                }
            }
            return missing.isEmpty() ? null : "the kernel lacks io_uring opcodes " + missing;
        }
    }

    /**
     * The next submission entry, zeroed, with its opcode, descriptor and {@code userData} set. Submits
     * what is queued first when the ring is full.
     */
    MemorySegment sqe(byte op, int fd, long userData) {
        int head = (int) INT.getAcquire(sqRing, sqHeadOff);
        if (sqTail - head >= sqEntries) {
            enter(0, 0);
        }
        MemorySegment e = sqes.asSlice((long) (sqTail & sqMask) * 64, 64);
        e.fill((byte) 0);
        e.set(JAVA_BYTE, 0, op);
        e.set(JAVA_INT, 4, fd);
        e.set(JAVA_LONG, 32, userData);
        sqTail++;
        return e;
    }

    /**
     * Publishes the queued entries and submits them, waiting up to {@code waitNanos} (0: not at all) for
     * at least one completion, in one {@code io_uring_enter}.
     */
    void submitAndWait(long waitNanos) {
        enter(waitNanos > 0 ? 1 : 0, waitNanos);
    }

    private void enter(int minComplete, long waitNanos) {
        INT.setRelease(sqRing, sqTailOff, sqTail);
        int flags = 0;
        long arg = 0;
        long argSize = 0;
        if (minComplete > 0) {
            flags = ENTER_GETEVENTS | ENTER_EXT_ARG;
            timespec.set(JAVA_LONG, 0, waitNanos / 1_000_000_000L);
            timespec.set(JAVA_LONG, 8, waitNanos % 1_000_000_000L);
            arg = waitArg.address();
            argSize = 24;
        }
        for (int attempt = 0; attempt < 3; attempt++) {
            int toSubmit = sqTail - (int) INT.getAcquire(sqRing, sqHeadOff);
            if (toSubmit == 0 && minComplete == 0) {
                return;
            }
            long r = Native.syscall(Native.SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags, arg, argSize);
            if (r >= 0 || r == -Native.ETIME) {
                return;
            }
            if (r == -Native.EINTR) {
                continue;
            }
            if (r == -Native.EBUSY || r == -Native.EAGAIN) {
                return; // completions to reap first (the caller drains them next)
            }
            throw new IllegalStateException("io_uring_enter: " + Native.strerror((int) -r));
        }
    }

    /** Completions waiting: the caller reads them with {@link #userData}/{@link #result}, then {@link #advance}. */
    int ready() {
        return (int) INT.getAcquire(cqRing, cqTailOff) - cqHead;
    }

    /** The {@code i}-th waiting completion's user data. */
    long userData(int i) {
        return cqRing.get(JAVA_LONG, cqesOff + (long) ((cqHead + i) & cqMask) * 16);
    }

    /** The {@code i}-th waiting completion's flags ({@link #CQE_F_BUFFER}, {@link #CQE_F_MORE}, the buffer id above 16 bits). */
    int flags(int i) {
        return cqRing.get(JAVA_INT, cqesOff + (long) ((cqHead + i) & cqMask) * 16 + 12);
    }

    /** The ring's descriptor, for registrations made by its owner. */
    int fd() {
        return fd;
    }

    /** The {@code i}-th waiting completion's result (bytes, a descriptor, or {@code -errno}). */
    int result(int i) {
        return cqRing.get(JAVA_INT, cqesOff + (long) ((cqHead + i) & cqMask) * 16 + 8);
    }

    /** Hands {@code n} completions back to the kernel. */
    void advance(int n) {
        cqHead += n;
        INT.setRelease(cqRing, cqHeadOff, cqHead);
    }

    /** Unmaps the rings and closes the ring (the kernel cancels what is still in it). Once. */
    void close() {
        Native.munmap(sqes);
        if (cqRing != sqRing) {
            Native.munmap(cqRing);
        }
        Native.munmap(sqRing);
        Native.close(fd);
        arena.close();
    }
}
