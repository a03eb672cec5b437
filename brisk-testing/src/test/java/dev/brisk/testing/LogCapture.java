package dev.brisk.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what Brisk logs through System.Logger (java.util.logging underneath), WARNING and above,
 * while installed; Brisk's console output is held back meanwhile and printed, under the test's name, when
 * it is removed. For tests that assert a server logged no ERROR under hostile input.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();
    private final Logger jul = Logger.getLogger("dev.brisk"); // a strong reference keeps the handler on it
    private final boolean parentHandlers = jul.getUseParentHandlers();
    private final String test;

    private LogCapture(String test) {
        this.test = test;
    }

    /** Installs a capture and proves once that what Brisk's System.Logger writes arrives in it. */
    public static LogCapture install(String test) {
        LogCapture c = new LogCapture(test);
        c.jul.addHandler(c);
        c.jul.setUseParentHandlers(false);
        System.getLogger("dev.brisk").log(System.Logger.Level.ERROR, test + " log capture probe");
        assertThat(c.severe()).as("log capture works").containsExactly(test + " log capture probe");
        c.records.clear();
        return c;
    }

    @Override
    public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
            records.add(r);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        jul.removeHandler(this);
        jul.setUseParentHandlers(parentHandlers);
        records.forEach(r -> System.out.println(test + ": logged " + r.getLevel() + " " + r.getMessage()
                + (r.getThrown() == null ? "" : " " + r.getThrown())));
    }

    /** {@return the ERROR (SEVERE) records so far} */
    public List<LogRecord> severeRecords() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
    }

    /** {@return each ERROR record's message and its exception} */
    public List<String> severe() {
        return severeRecords().stream()
                .map(r -> r.getMessage() + (r.getThrown() == null ? "" : ": " + r.getThrown()))
                .toList();
    }
}
