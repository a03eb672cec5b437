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
            INSERT INTO events (id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price, first_seen, updated_at,
                change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, starts_at = excluded.starts_at,
                ends_at = excluded.ends_at, min_price = excluded.min_price, max_price = excluded.max_price,
                updated_at = excluded.updated_at, change_seq = excluded.change_seq""";
    /** The next change number; the row lock it takes also puts concurrent commits in sequence order. */
    private static final String NEXT_SEQ = "UPDATE change_log SET seq = seq + 1 WHERE id = 1 RETURNING seq";
    private static final String PG_NOW_MS = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
    private static final String COLUMNS = "id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price";
    /**
     * The cluster's leader lock: a PostgreSQL advisory lock (two-int form: classid = K1, objid = K2,
     * objsubid = 2 in pg_locks), held by the session of the leader's store connection.
     */
    private static final int LEAD_K1 = 0x4252_4953;
    private static final int LEAD_K2 = 1;
    private static final String HOLDS_LEAD = "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
            + " AND pid = pg_backend_pid() AND granted AND classid = " + LEAD_K1 + " AND objid = " + LEAD_K2
            + " AND objsubid = 2)";
    /** The channel every commit notifies (PostgreSQL), its payload the new change number. */
    public static final String CHANNEL = "brisk_events_changed";
    private static final int BATCH = 500;

    private final String url;
    private final boolean sqlite;
    private Connection connection;
    /** Whether upserts must prove, inside their transaction, that this session holds the leader lock. */
    private boolean fenced;

    /**
     * Every stored event and the change number they are complete up to, read from one snapshot.
     *
     * @param events   every stored event
     * @param sequence the change number of the last commit in that snapshot (0: none yet)
     */
    public record Snapshot(List<Event> events, long sequence) {
    }

    /**
     * The events written by the commits after a given change number.
     *
     * @param events        the rows those commits wrote (latest values)
     * @param sequence      the change number of the last of them
     * @param committedAtMs the database's clock (epoch ms) when that last commit was made
     * @param readAtMs      the database's clock (epoch ms) when they were read
     */
    public record Changes(List<Event> events, long sequence, long committedAtMs, long readAtMs) {
    }

    /** An upsert refused because this instance does not hold the leader lock (any more). */
    public static final class NotLeaderException extends StoreException {
        NotLeaderException(String message) {
            super(message, null);
        }
    }

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
             ResultSet rs = s.executeQuery("SELECT " + COLUMNS + " FROM events")) {
            return events(rs);
        } catch (SQLException e) {
            throw failed("cannot load events", e);
        }
    }

    /** As {@link #loadAll}, with the change number the events are complete up to, from one consistent snapshot. */
    public synchronized Snapshot snapshot() {
        Connection c = connection();
        try {
            return inSnapshot(c, () -> {
                long seq;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT seq FROM change_log WHERE id = 1")) {
                    seq = rs.next() ? rs.getLong(1) : 0;
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + COLUMNS + " FROM events")) {
                    return new Snapshot(events(rs), seq);
                }
            });
        } catch (SQLException | RuntimeException e) {
            throw failed("cannot load events", e);
        }
    }

    /**
     * The rows written by commits numbered above {@code after}, from one consistent snapshot (PostgreSQL
     * only). Commits take their numbers in commit order (the change_log row lock), so none is skipped.
     */
    public synchronized Changes changesSince(long after) {
        requirePostgres("following changes");
        Connection c = connection();
        try {
            return inSnapshot(c, () -> {
                long seq;
                long committed;
                long now;
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT seq, committed_at, " + PG_NOW_MS + " FROM change_log WHERE id = 1")) {
                    rs.next();
                    seq = rs.getLong(1);
                    committed = rs.getLong(2);
                    now = rs.getLong(3);
                }
                if (seq <= after) {
                    return new Changes(List.of(), seq, committed, now);
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM events WHERE change_seq > ?")) {
                    ps.setLong(1, after);
                    try (ResultSet rs = ps.executeQuery()) {
                        return new Changes(events(rs), seq, committed, now);
                    }
                }
            });
        } catch (SQLException | RuntimeException e) {
            throw failed("cannot load the changes after " + after, e);
        }
    }

    /** Whether this store is a PostgreSQL database (cluster mode needs one). */
    public boolean postgres() {
        return !sqlite && url.startsWith("jdbc:postgresql:");
    }

    /**
     * Tries to take the cluster's leader lock on this store's session, without waiting (PostgreSQL
     * only). From then on every {@link #upsert} checks inside its transaction that the session still
     * holds it: a session the database ended (and a new one opened after it) holds nothing, so an
     * instance that lost the lock cannot commit, whatever it believes.
     *
     * @return true when this session holds the lock now
     */
    public synchronized boolean tryLead() {
        requirePostgres("leader election");
        fenced = true;
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery(HOLDS_LEAD)) {
            rs.next();
            if (rs.getBoolean(1)) {
                return true; // held already: taking it again would count it twice
            }
        } catch (SQLException e) {
            throw failed("cannot check the leader lock", e);
        }
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_try_advisory_lock(" + LEAD_K1 + ", " + LEAD_K2 + ")")) {
            rs.next();
            return rs.getBoolean(1);
        } catch (SQLException e) {
            throw failed("cannot take the leader lock", e);
        }
    }

    /** Whether this store's session holds the leader lock right now (asks the database). */
    public synchronized boolean leads() {
        try (Statement s = connection().createStatement(); ResultSet rs = s.executeQuery(HOLDS_LEAD)) {
            rs.next();
            return rs.getBoolean(1);
        } catch (SQLException e) {
            throw failed("cannot check the leader lock", e);
        }
    }

    /** Gives the leader lock up, if held; the session stays open. */
    public synchronized void resign() {
        try (Statement s = connection().createStatement()) {
            s.execute("SELECT pg_advisory_unlock(" + LEAD_K1 + ", " + LEAD_K2 + ")");
        } catch (SQLException e) {
            throw failed("cannot release the leader lock", e);
        }
    }

    /** The backend process id of this store's session (PostgreSQL), for tests and logs. */
    public synchronized int sessionPid() {
        try (Statement s = connection().createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw failed("cannot read the session's pid", e);
        }
    }

    private void requirePostgres(String what) {
        if (!postgres()) {
            throw new StoreException(what + " needs PostgreSQL; " + describe() + " is not", null);
        }
    }

    private interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs {@code work} in one read-only transaction that sees one snapshot (REPEATABLE READ on PostgreSQL). */
    private <T> T inSnapshot(Connection c, SqlWork<T> work) throws SQLException {
        int isolation = c.getTransactionIsolation();
        c.setAutoCommit(false);
        try {
            if (!sqlite) {
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            }
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c);
            throw e;
        } finally {
            try {
                if (!sqlite) {
                    c.setTransactionIsolation(isolation);
                }
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the next call reopens it
            }
        }
    }

    private static List<Event> events(ResultSet rs) throws SQLException {
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
     * Inserts new events and updates changed ones, all in one transaction, which takes the next change
     * number, stamps the rows with it and (PostgreSQL) notifies {@value #CHANNEL} on commit. After
     * {@link #tryLead} the transaction first checks that this session holds the leader lock.
     *
     * @return the change number of this commit, or 0 when {@code events} is empty (nothing committed)
     * @throws NotLeaderException when this session does not hold the leader lock (after {@link #tryLead})
     * @throws StoreException when anything fails; then nothing of this call is stored
     */
    public synchronized long upsert(Collection<Event> events, Instant now) {
        if (events.isEmpty()) {
            return 0;
        }
        Connection c = connection();
        String ts = now.toString();
        long seq;
        try {
            c.setAutoCommit(false);
            if (fenced) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(HOLDS_LEAD)) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        throw new NotLeaderException("this instance does not hold the leader lock: not storing "
                                + events.size() + " events (another instance polls)");
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(NEXT_SEQ)) {
                rs.next();
                seq = rs.getLong(1);
            }
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
                    ps.setLong(11, seq);
                    ps.addBatch();
                    if (++n % BATCH == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            // stamped last, so a follower's lag counts from (nearly) the commit, not from its start
            try (PreparedStatement ps = c.prepareStatement("UPDATE change_log SET committed_at = "
                    + (sqlite ? "?" : PG_NOW_MS) + " WHERE id = 1")) {
                if (sqlite) {
                    ps.setLong(1, now.toEpochMilli());
                }
                ps.executeUpdate();
            }
            if (!sqlite) {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_notify('" + CHANNEL + "', '" + seq + "')"); // delivered at commit
                }
            }
            c.commit();
            return seq;
        } catch (NotLeaderException e) {
            rollbackQuietly(c);
            throw e;
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
                } else if (postgres()) {
                    try (Statement s = c.createStatement()) {
                        // the server drops a silently vanished client's session (and a leader's lock with it)
                        // after 5 s idle + 3 probes 1 s apart, not after the OS default of some two hours
                        s.execute("SET tcp_keepalives_idle = 5");
                        s.execute("SET tcp_keepalives_interval = 1");
                        s.execute("SET tcp_keepalives_count = 3");
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
