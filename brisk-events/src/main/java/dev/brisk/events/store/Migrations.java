package dev.brisk.events.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The versioned schema, one SQL text for SQLite and PostgreSQL. Each migration runs once, in its own
 * transaction together with the row recording its version, so a crash mid-migration leaves the
 * previous version intact. Append new migrations; never edit an applied one.
 */
final class Migrations {
    /** Migration {@code i} brings the schema to version {@code i + 1}. */
    static final List<List<String>> STEPS = List.of(
            List.of(
                // times are provider-local wall times as ISO-8601 text ("2021-06-30T21:00:00"): sortable,
                // identical on both databases and free of any JDBC time-zone conversion
                """
                CREATE TABLE IF NOT EXISTS events (
                    id          VARCHAR(36) PRIMARY KEY,
                    base_id     VARCHAR(200) NOT NULL,
                    plan_id     VARCHAR(200) NOT NULL,
                    title       TEXT NOT NULL,
                    starts_at   VARCHAR(19) NOT NULL,
                    ends_at     VARCHAR(19) NOT NULL,
                    min_price   DOUBLE PRECISION NOT NULL,
                    max_price   DOUBLE PRECISION NOT NULL,
                    first_seen  VARCHAR(40) NOT NULL,
                    updated_at  VARCHAR(40) NOT NULL,
                    UNIQUE (base_id, plan_id)
                )""",
                "CREATE INDEX IF NOT EXISTS events_starts_at ON events (starts_at)"));

    private Migrations() {
    }

    /** Brings the schema up to the latest version; returns that version. */
    static int apply(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at VARCHAR(40) NOT NULL)");
            }
            c.commit();
            int current = current(c);
            for (int v = current; v < STEPS.size(); v++) {
                try (Statement s = c.createStatement()) {
                    for (String sql : STEPS.get(v)) {
                        s.execute(sql);
                    }
                    // a concurrent instance may have applied it first: then this is a no-op
                    s.execute("INSERT INTO schema_version (version, applied_at) VALUES (" + (v + 1) + ", '"
                            + java.time.Instant.now() + "') ON CONFLICT (version) DO NOTHING");
                }
                c.commit();
            }
            return Math.max(current, STEPS.size());
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    static int current(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
