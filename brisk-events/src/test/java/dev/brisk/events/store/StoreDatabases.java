package dev.brisk.events.store;

import dev.brisk.events.testing.TestPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Named;

/** Fresh, empty databases of both kinds for parameterized store tests. */
final class StoreDatabases {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private StoreDatabases() {
    }

    /** An SQLite file under {@code dir}, and a PostgreSQL database (resolved lazily by {@link #url}). */
    static List<Named<String>> urls(Path dir) {
        return List.of(
                Named.of("sqlite", "jdbc:sqlite:" + dir.resolve("store-" + SEQ.incrementAndGet() + ".db")),
                Named.of("postgresql", "postgresql"));
    }

    /** The JDBC URL for a parameter; for PostgreSQL a new database, or the test is skipped loudly. */
    static String url(String param) {
        if (param.equals("postgresql")) {
            TestPostgres.assumeAvailable();
            return TestPostgres.freshDatabase();
        }
        return param;
    }
}
