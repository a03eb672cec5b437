package dev.brisk;

/** Whether the access log ({@code access-log}) writes a line per request, per sampled request, or none. */
public enum AccessLogMode {
    /** No access log: nothing is queued or formatted. */
    OFF,
    /** One line per response. */
    FULL,
    /**
     * One line per {@code access-log-sample-rate} responses on each I/O loop, plus every {@code 5xx}
     * (server failures are rare and each one matters).
     */
    SAMPLED
}
