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
                "CREATE INDEX IF NOT EXISTS events_starts_at ON events (starts_at)"),
            List.of(
                // the change sequence (cluster mode): every commit of a poll takes the next number, stamps
                // the rows it wrote with it, so a follower loads only the rows changed since the number it has
                // seen. committed_at is the database's clock (epoch ms) at that commit, for the follow lag.
                "ALTER TABLE events ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0",
                "CREATE INDEX IF NOT EXISTS events_change_seq ON events (change_seq)",
                "CREATE TABLE IF NOT EXISTS change_log (id INTEGER PRIMARY KEY, seq BIGINT NOT NULL, committed_at BIGINT NOT NULL)",
                "INSERT INTO change_log (id, seq, committed_at) VALUES (1, 0, 0) ON CONFLICT (id) DO NOTHING"));
    /** Advisory lock key (PostgreSQL) serializing instances that migrate at the same time. */
    private static final long MIGRATION_LOCK = 0x4252_4953_4b4d_4947L;

    private Migrations() {
    }

    /** Brings the schema up to the latest version; returns that version. */
    static int apply(Connection c) throws SQLException {
        boolean postgres = c.getMetaData().getURL().startsWith("jdbc:postgresql:");
        if (!postgres) {
            return applyLocked(c);
        }
        // several instances of a cluster start at once: one migrates, the others wait, then find it done
        // (ALTER TABLE ... ADD COLUMN has no IF NOT EXISTS on SQLite, so the steps are not all idempotent)
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
        }
        try {
            return applyLocked(c);
        } finally {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        }
    }

    private static int applyLocked(Connection c) throws SQLException {
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
