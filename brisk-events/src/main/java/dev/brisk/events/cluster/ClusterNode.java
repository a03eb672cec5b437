package dev.brisk.events.cluster;

import dev.brisk.events.poll.FeedPoller;
import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.store.EventStore;
import dev.brisk.events.store.StoreException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * This instance's part in a cluster of event services sharing one PostgreSQL database: one leader
 * polls the provider and commits; every other instance follows the commits into its own snapshot.
 *
 * <p><b>Leader election</b> is PostgreSQL's: the leader is the instance whose store session holds a
 * session-level advisory lock ({@link EventStore#tryLead}). Every commit checks, inside its
 * transaction, that its session holds that lock, so the commit and the lock share one session: when
 * the database ends the leader's session (the process died, the network went, an operator terminated
 * it) the lock is free for another instance and the old leader's next commit fails. Two instances
 * never both commit. The database notices a dead process at once (its socket closes) and a silent
 * network loss after its TCP keepalive ({@value #KEEPALIVE_IDLE_S} s idle, then {@value #KEEPALIVE_COUNT}
 * probes {@value #KEEPALIVE_INTERVAL_S} s apart, set on the store's session); a follower tries the
 * lock every check interval. Takeover bound: the check interval after the database freed the lock, then
 * the new leader's catch-up and its first poll.
 *
 * <p><b>Following</b>: each commit takes the next change number and notifies {@value EventStore#CHANNEL}.
 * The node LISTENs on a connection of its own and, on a notification or at the latest every check
 * interval (a notification can be lost with its connection), loads the rows changed after the number
 * its snapshot has ({@link EventStore#changesSince}) and publishes a new snapshot. The lag of a commit
 * is the database's clock from its commit to the load, plus the publication here.
 *
 * <pre>
 *   FOLLOWER --(lock taken; caught up)--> LEADER
 *   LEADER --(lock no longer held, or the database unreachable)--> FOLLOWER
 *   any --(close)--> STOPPED
 * </pre>
 * Losing the database changes no snapshot: the node keeps serving the last one and reports
 * {@link #databaseUp()} false until it reaches the database again.
 *
 * <p>Threads: one daemon thread of its own runs election and following; the getters are read by any
 * thread. {@link #start} and {@link #close} are called once each.
 */
public final class ClusterNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    static final int KEEPALIVE_IDLE_S = 5;
    static final int KEEPALIVE_INTERVAL_S = 1;
    static final int KEEPALIVE_COUNT = 3;

    /** This instance's role. */
    public enum Role {
        /** Holds the lock: polls the provider and commits. */
        LEADER,
        /** Follows the leader's commits. */
        FOLLOWER,
        /** Closed. */
        STOPPED
    }

    private final String instanceId;
    private final String dbUrl;
    private final Duration checkInterval;
    private final EventStore store;
    private final EventCatalog catalog;
    private final FeedPoller poller;
    private volatile Role role = Role.FOLLOWER;
    private volatile boolean running;
    private volatile boolean databaseUp = true;
    private volatile String databaseError;
    private volatile long lastContactNanos = System.nanoTime();
    private volatile long lastLagMillis = -1;
    private volatile long maxLagMillis = -1;
    private volatile long databaseSequence;
    private volatile long takeovers;
    /** False until the first load after start: that catch-up (commits made while this instance started) is no follow lag. */
    private volatile boolean caughtUp;
    private Thread thread;
    private Connection listener;

    /**
     * A node over {@code store} (PostgreSQL) that gates {@code poller} on being the leader.
     *
     * @param instanceId    this instance's name in metrics, logs and {@code /ready}
     * @param dbUrl         the store's JDBC URL, for the LISTEN connection
     * @param checkInterval how often the lock is tried (follower) or checked (leader), and the longest
     *                      wait for a change notification before loading anyway
     * @param store         the shared store
     * @param catalog       the snapshot this instance serves
     * @param poller        polls only while this node leads
     */
    public ClusterNode(String instanceId, String dbUrl, Duration checkInterval, EventStore store, EventCatalog catalog,
                       FeedPoller poller) {
        if (!store.postgres()) {
            throw new IllegalArgumentException("cluster mode needs PostgreSQL: " + store.describe() + " is not");
        }
        this.instanceId = instanceId;
        this.dbUrl = dbUrl;
        this.checkInterval = checkInterval;
        this.store = store;
        this.catalog = catalog;
        this.poller = poller;
        catalog.requireContiguous();
        poller.pollWhen(() -> role == Role.LEADER);
    }

    /** Starts election and following on a thread of its own; the first lock attempt at once. */
    public synchronized void start() {
        if (thread == null) {
            running = true;
            thread = new Thread(this::loop, "events-cluster");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** This instance's id. */
    public String instanceId() {
        return instanceId;
    }

    /** This instance's role now. */
    public Role role() {
        return role;
    }

    /** The change number this instance's snapshot is complete up to. */
    public long sequence() {
        return catalog.sequence();
    }

    /** The database's change number when last read (this instance is behind by the difference). */
    public long databaseSequence() {
        return databaseSequence;
    }

    /**
     * Milliseconds from the last commit this instance loaded as a follower to its publication here (the
     * catch-up at start is not counted); -1 before any.
     */
    public long lagMillis() {
        return lastLagMillis;
    }

    /**
     * Whether this instance has read the database's changes once since it started: commits after that
     * count as its follow lag ({@link #lagMillis}), those before it were a catch-up. Any thread.
     */
    public boolean caughtUp() {
        return caughtUp;
    }

    /** The largest such lag seen since start; -1 before any. */
    public long maxLagMillis() {
        return maxLagMillis;
    }

    /** Times this instance became the leader. */
    public long takeovers() {
        return takeovers;
    }

    /** Whether the last exchange with the database succeeded. */
    public boolean databaseUp() {
        return databaseUp;
    }

    /** Why the database is unreachable (null while it is up). */
    public String databaseError() {
        return databaseError;
    }

    /** Seconds since the last successful exchange with the database. */
    public double secondsSinceContact() {
        return (System.nanoTime() - lastContactNanos) / 1e9;
    }

    private void loop() {
        while (running) {
            try {
                listen();
                elect();
                sync();
                databaseUp = true;
                databaseError = null;
                lastContactNanos = System.nanoTime();
                awaitNotification();
            } catch (SQLException | StoreException e) {
                if (!running) {
                    break;
                }
                if (databaseUp) {
                    LOG.log(System.Logger.Level.WARNING, "cluster: lost the database (" + e.getMessage()
                            + "); serving the last snapshot (change " + catalog.sequence() + ")");
                }
                databaseUp = false;
                databaseError = e.getMessage();
                if (role == Role.LEADER) {
                    // cannot prove the lock is still ours; the commit's own check keeps this safe either way
                    role = Role.FOLLOWER;
                }
                closeListener();
                pause();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "cluster: unexpected failure", e);
                pause();
            }
        }
        closeListener();
    }

    private void listen() throws SQLException {
        if (listener != null) {
            return;
        }
        Connection c = DriverManager.getConnection(dbUrl);
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + EventStore.CHANNEL);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        listener = c;
    }

    private void elect() {
        if (role == Role.LEADER) {
            if (!store.leads()) {
                role = Role.FOLLOWER;
                LOG.log(System.Logger.Level.WARNING, "cluster: " + instanceId + " lost the leader lock; following");
            }
            return;
        }
        if (store.tryLead()) {
            sync(); // the previous leader's last commits first: this instance's next poll compares against them
            poller.forgetValidators();
            role = Role.LEADER;
            takeovers++;
            LOG.log(System.Logger.Level.INFO, "cluster: " + instanceId + " is the leader (change " + catalog.sequence() + ")");
            poller.wake();
        }
    }

    private void sync() {
        long have = catalog.sequence();
        EventStore.Changes changes = store.changesSince(have);
        databaseSequence = changes.sequence();
        if (changes.sequence() > have) {
            long t0 = System.nanoTime();
            catalog.catchUp(changes.events(), changes.sequence());
            long lag = Math.max(0, changes.readAtMs() - changes.committedAtMs()) + (System.nanoTime() - t0) / 1_000_000;
            // a follower's lag; the leader publishes its own commits as it makes them
            if (caughtUp && role != Role.LEADER) {
                lastLagMillis = lag;
                maxLagMillis = Math.max(maxLagMillis, lag);
            }
        }
        caughtUp = true;
    }

    private void awaitNotification() throws SQLException {
        // at least 1 ms: 0 would mean "wait forever" to the driver
        int waitMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, checkInterval.toMillis()));
        PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications(waitMs);
        if (got != null && got.length > 0) {
            lastContactNanos = System.nanoTime();
        }
    }

    private void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(checkInterval.toMillis()); // the retry period, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void closeListener() {
        if (listener != null) {
            try {
                listener.close();
            } catch (SQLException ignored) {
                // going anyway
            }
            listener = null;
        }
    }

    /** Stops following and gives the lock up (by the store's close, which ends its session). */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
            thread = null;
        }
        role = Role.STOPPED;
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
