package dev.brisk.examples;

/**
 * A fixed, deterministic amount of CPU work, for benchmarks that need handlers which burn CPU rather
 * than wait ({@code GET /cpu?work=N} in {@link ExampleApp}; a benchmark server can call {@link #run}
 * directly to serve the same load).
 *
 * <p>One unit of work is {@value #ITERATIONS_PER_UNIT} steps of a xorshift64 generator feeding a
 * checksum: no allocation, no memory traffic, the same instructions on every call. Each step depends on
 * the previous one, so the JIT can neither vectorize nor skip the loop, and the checksum is returned so
 * the work cannot be dropped as dead code. Measured on the 2-core build machine (JDK 25, warmed up),
 * one unit takes about 2.85 µs, linearly: {@code work=100} ≈ 0.28 ms, {@code work=1000} ≈ 2.85 ms,
 * {@code work=1_000_000} ≈ 2.85 s.
 */
public final class CpuWork {
    /** Generator steps per unit of work. */
    public static final int ITERATIONS_PER_UNIT = 1000;
    /** The largest accepted amount of work (a few seconds of one core). */
    public static final int MAX_WORK = 1_000_000;

    // any non-zero start works for xorshift; fixed so every run of the same N gives the same checksum
    private static final long SEED = 0x2545F4914F6CDD1DL;
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private CpuWork() {
    }

    /**
     * Does {@code work} units of CPU work on the calling thread and returns their checksum.
     *
     * @param work units of work, 0..{@value #MAX_WORK}; 0 does nothing and returns the checksum of no work
     * @return a checksum that depends only on {@code work}: the same for the same {@code work}, on every
     *     JVM, and (in practice) different for different values
     * @throws IllegalArgumentException when {@code work} is outside 0..{@value #MAX_WORK}
     */
    public static long run(int work) {
        if (work < 0 || work > MAX_WORK) {
            throw new IllegalArgumentException("work must be 0.." + MAX_WORK + ": " + work);
        }
        long x = SEED;
        long sum = 0;
        for (int i = 0; i < work; i++) {
            for (int j = 0; j < ITERATIONS_PER_UNIT; j++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                sum += x * MIX;
            }
        }
        return sum ^ x;
    }
}
