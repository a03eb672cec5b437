package dev.brisk;

/** How the in-flight request limit ({@code max-concurrent-requests}) is applied. */
public enum ConcurrencyLimitMode {
    /** Exactly {@code max-concurrent-requests} in flight at most. */
    FIXED,
    /**
     * At most {@code max-concurrent-requests}, lowered when latency rises and raised back when it falls
     * (additive increase, multiplicative decrease), so the server keeps its latency when it slows down.
     */
    ADAPTIVE
}
