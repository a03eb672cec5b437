package dev.brisk.events.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link TestPostgres} against the real server: connections, isolation, upserts, and cleanup. */
class TestPostgresTest {

    @BeforeAll
    static void postgres() {
        TestPostgres.assumeAvailable();
    }

    @Test
    void connectsThroughTheJdbcDriver() throws SQLException {
        try (Connection c = DriverManager.getConnection(TestPostgres.jdbcUrl())) {
            assertThat(query(c, "select version()")).startsWith("PostgreSQL ");
            assertThat(query(c, "select current_user")).isEqualTo("postgres");
            assertThat(query(c, "show server_encoding")).isEqualTo("UTF8");
            assertThat(query(c, "show fsync")).isEqualTo("off");
        }
    }

    @Test
    void freshDatabasesAreDistinctAndEmpty() throws SQLException {
        String first = TestPostgres.freshDatabase();
        String second = TestPostgres.freshDatabase();
        assertThat(first).isNotEqualTo(second);
        try (Connection a = DriverManager.getConnection(first);
             Connection b = DriverManager.getConnection(second)) {
            assertThat(query(a, "select current_database()")).isNotEqualTo(query(b, "select current_database()"));
            assertThat(userTables(a)).isZero();
            assertThat(userTables(b)).isZero();
            try (Statement st = a.createStatement()) {
                st.execute("create table only_in_first (id int primary key)");
            }
            assertThat(userTables(a)).isOne();
            assertThat(userTables(b)).isZero();
        }
    }

    @Test
    void upsertsABatchInOneTransactionAndRollsBackToNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection(TestPostgres.freshDatabase())) {
            try (Statement st = c.createStatement()) {
                st.execute("create table event (id uuid primary key, title text not null, price numeric(10, 2) not null)");
            }
            String upsert = "insert into event (id, title, price) values (?, ?, ?)"
                    + " on conflict (id) do update set title = excluded.title, price = excluded.price";
            UUID a = UUID.randomUUID();
            UUID b = UUID.randomUUID();
            UUID x = UUID.randomUUID();

            // a rolled-back batch leaves nothing behind
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(upsert)) {
                addRow(ps, x, "never", 1);
                addRow(ps, a, "never either", 2);
                assertThat(ps.executeBatch()).containsExactly(1, 1);
            }
            assertThat(count(c)).isEqualTo(2); // visible inside the transaction...
            c.rollback();
            assertThat(count(c)).isZero();     // ...and gone after it

            try (PreparedStatement ps = c.prepareStatement(upsert)) {
                addRow(ps, a, "Opera", 10);
                addRow(ps, b, "Ballet", 20);
                ps.executeBatch();
            }
            c.commit();

            // an existing id is updated, a new one inserted, in the same batch
            try (PreparedStatement ps = c.prepareStatement(upsert)) {
                addRow(ps, b, "Ballet, matinee", 15);
                addRow(ps, x, "Concert", 30);
                assertThat(ps.executeBatch()).containsExactly(1, 1);
            }
            c.commit();

            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("select id, title, price from event order by price")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getObject(1, UUID.class) + " " + rs.getString(2) + " " + rs.getBigDecimal(3));
                }
                assertThat(rows).containsExactly(a + " Opera 10.00", b + " Ballet, matinee 15.00",
                        x + " Concert 30.00");
            }
            c.commit();
        }
    }

    /**
     * A JVM that started a cluster and exits, normally or by SIGKILL, leaves no server process and
     * no directory behind: the shutdown hook or else the watchdog cleans up.
     */
    @Test
    void noServerOutlivesItsJvm() throws Exception {
        for (boolean kill : new boolean[] {false, true}) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ChildJvm.class.getName(), kill ? "wait" : "exit")
                    .redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String started = CompletableFuture.supplyAsync(() -> firstLineStartingWith(out, "STARTED ")).get(120, TimeUnit.SECONDS);
            assertThat(started).as("child JVM output").startsWith("STARTED ");
            String[] parts = started.split(" ", 3);
            long pid = Long.parseLong(parts[1]);
            Path dir = Path.of(parts[2]);
            ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
            assertThat(Files.isDirectory(dir)).isTrue();

            if (kill) {
                child.destroyForcibly();
            }
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM exited").isTrue();
            server.onExit().get(30, TimeUnit.SECONDS);
            assertThat(server.isAlive()).as("postmaster %d after a child JVM %s", pid, kill ? "SIGKILL" : "exit").isFalse();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (Files.exists(dir) && System.nanoTime() < deadline) {
                Thread.sleep(50); // the watchdog removes it just after the server ends
            }
            assertThat(dir).doesNotExist();
            assertThat(ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().orElse("").contains(dir.toString()))
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                    .toList()).isEmpty();
        }
    }

    private static String firstLineStartingWith(BufferedReader out, String prefix) {
        StringBuilder seen = new StringBuilder();
        try {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                seen.append(line).append('\n');
            }
        } catch (IOException e) {
            seen.append(e);
        }
        return seen.toString();
    }

    /** Starts the cluster, reports its postmaster and directory, then exits or waits to be killed. */
    static final class ChildJvm {
        public static void main(String[] args) throws Exception {
            if (!TestPostgres.available()) {
                TestPostgres.assumeAvailable(); // prints why
            }
            System.out.println("STARTED " + TestPostgres.serverPid() + " " + TestPostgres.directory());
            System.out.flush();
            if (args[0].equals("wait")) {
                Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // killed before this ends
            }
        }
    }

    private static void addRow(PreparedStatement ps, UUID id, String title, int price) throws SQLException {
        ps.setObject(1, id);
        ps.setString(2, title);
        ps.setInt(3, price);
        ps.addBatch();
    }

    private static long count(Connection c) throws SQLException {
        return Long.parseLong(query(c, "select count(*) from event"));
    }

    private static long userTables(Connection c) throws SQLException {
        return Long.parseLong(query(c,
                "select count(*) from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')"));
    }

    private static String query(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
