package dev.brisk.events;

/**
 * The log format of {@code ./brisk demo}, {@code events} and {@code simulator}: one line per record
 * ({@code 14:03:07 INFO poll 3: ...}) instead of java.util.logging's two (date and logger, then the
 * message), so the log stays readable next to what the commands print.
 */
public final class ConsoleLogs {
    static final String FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";
    static final String ONE_LINE = "%1$tT %4$s %5$s%6$s%n";

    private ConsoleLogs() {
    }

    /**
     * Sets the one-line format unless the user chose a format or a logging configuration. Must run before
     * anything logs: the console handler reads the format once, when it is created.
     */
    public static void oneLine() {
        if (System.getProperty(FORMAT_PROPERTY) == null && System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.config.class") == null) {
            System.setProperty(FORMAT_PROPERTY, ONE_LINE);
        }
    }
}
