package dev.brisk.events.store;

import dev.brisk.events.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every event ever seen, with its latest known values, in a JDBC database: SQLite (embedded default,
 * WAL mode, synchronous commits) or PostgreSQL, chosen by the JDBC URL.
 *
 * <p>One connection, used by one writer (the poller) and the start-up load; methods are synchronized
 * so that is safe from any thread. A broken connection is reopened on the next call. Each
 * {@link #upsert} is one transaction: a crash at any moment leaves either all of it or none.
 */
public final class EventStore implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EventStore.class.getName());

    private static final String UPSERT = """
            INSERT INTO events (id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price, first_seen, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, starts_at = excluded.starts_at,
                ends_at = excluded.ends_at, min_price = excluded.min_price, max_price = excluded.max_price,
                updated_at = excluded.updated_at""";
    private static final int BATCH = 500;

    private final String url;
    private final boolean sqlite;
    private Connection connection;

    private EventStore(String url) {
        this.url = url;
        this.sqlite = url.startsWith("jdbc:sqlite:");
    }

    /**
     * Opens the database at {@code jdbcUrl} and migrates its schema.
     *
     * @throws StoreException when the database cannot be opened or migrated
     */
    public static EventStore open(String jdbcUrl) {
        EventStore store = new EventStore(jdbcUrl);
        synchronized (store) {
            store.connection();
        }
        return store;
    }

    /** The JDBC URL of the default store: {@code events.db} in {@code dataDir}, created if missing. */
    public static String sqliteUrl(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
        } catch (java.io.IOException e) {
            throw new StoreException("cannot create data directory " + dataDir, e);
        }
        return "jdbc:sqlite:" + dataDir.resolve("events.db").toAbsolutePath();
    }

    /** The URL with any password masked, for logs. */
    public String describe() {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    /**
     * Every stored event. Equal titles and date-times are shared between the events loaded, not held
     * once per event: they repeat a lot (plans of one base share a title; starts fall on a few
     * thousand slots), and at 600,000 events sharing them keeps some 80 MB of heap free for the rest.
     */
    public synchronized List<Event> loadAll() {
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery(
                     "SELECT id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price FROM events")) {
            List<Event> events = new ArrayList<>();
            Map<String, String> titles = new HashMap<>();
            Map<String, LocalDateTime> times = new HashMap<>();
            while (rs.next()) {
                String title = titles.computeIfAbsent(rs.getString(4), t -> t);
                LocalDateTime start = times.computeIfAbsent(rs.getString(5), LocalDateTime::parse);
                LocalDateTime end = times.computeIfAbsent(rs.getString(6), LocalDateTime::parse);
                events.add(new Event(UUID.fromString(rs.getString(1)), rs.getString(2), rs.getString(3), title, start,
                        end, rs.getDouble(7), rs.getDouble(8)));
            }
            return events;
        } catch (SQLException e) {
            throw failed("cannot load events", e);
        }
    }

    /** Number of stored events. */
    public synchronized long count() {
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM events")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failed("cannot count events", e);
        }
    }

    /**
     * Inserts new events and updates changed ones, all in one transaction.
     *
     * @throws StoreException when anything fails; then nothing of this call is stored
     */
    public synchronized void upsert(Collection<Event> events, Instant now) {
        if (events.isEmpty()) {
            return;
        }
        Connection c = connection();
        String ts = now.toString();
        try {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
                int n = 0;
                for (Event e : events) {
                    ps.setString(1, e.id().toString());
                    ps.setString(2, e.baseId());
                    ps.setString(3, e.planId());
                    ps.setString(4, e.title());
                    ps.setString(5, e.start().toString());
                    ps.setString(6, e.end().toString());
                    ps.setDouble(7, e.minPrice());
                    ps.setDouble(8, e.maxPrice());
                    ps.setString(9, ts);
                    ps.setString(10, ts);
                    ps.addBatch();
                    if (++n % BATCH == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c);
            throw failed("cannot store " + events.size() + " events", e);
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the next call reopens it
            }
        }
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.log(System.Logger.Level.WARNING, "closing the store failed", e);
            }
            connection = null;
        }
    }

    private Connection connection() {
        try {
            if (connection != null && !connection.isClosed()) {
                return connection;
            }
            Connection c = DriverManager.getConnection(url);
            try {
                if (sqlite) {
                    try (Statement s = c.createStatement()) {
                        // WAL: readers never block the writer; FULL: a committed poll survives a power cut too
                        s.execute("PRAGMA journal_mode=WAL");
                        s.execute("PRAGMA synchronous=FULL");
                        s.execute("PRAGMA busy_timeout=5000");
                    }
                }
                Migrations.apply(c);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            connection = c;
            return c;
        } catch (SQLException e) {
            throw failed("cannot open " + describe(), e);
        }
    }

    private StoreException failed(String what, Exception e) {
        if (e instanceof SQLException && connection != null) {
            try {
                if (!connection.isValid(2)) {
                    connection.close();
                    connection = null;
                }
            } catch (SQLException ignored) {
                connection = null;
            }
        }
        return new StoreException(what + " (" + describe() + "): " + e.getMessage(), e);
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the transaction dies with the connection anyway
        }
    }
}
