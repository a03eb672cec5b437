package dev.brisk.events.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.events.Event;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The store against real databases: an SQLite file, and PostgreSQL when it can be started. */
class EventStoreTest {
    @TempDir
    static Path dir;

    private static final LocalDateTime T = LocalDateTime.parse("2021-06-30T21:00:00");

    static List<org.junit.jupiter.api.Named<String>> databases() {
        return StoreDatabases.urls(dir);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void upsertInsertsUpdatesAndSurvivesReopening(String param) {
        String url = StoreDatabases.url(param);
        Event a = Event.of("1", "1", "A", T, T.plusHours(1), 10, 20);
        Event b = Event.of("2", "1", "B", T.plusDays(1), T.plusDays(1).plusHours(2), 5.5, 5.5);
        try (EventStore store = EventStore.open(url)) {
            assertThat(store.loadAll()).isEmpty();
            store.upsert(List.of(a, b), Instant.now());
            assertThat(store.loadAll()).containsExactlyInAnyOrder(a, b);
        }
        Event a2 = Event.of("1", "1", "A renamed", T.plusHours(1), T.plusHours(3), 12.25, 99);
        try (EventStore store = EventStore.open(url)) {
            store.upsert(List.of(a2), Instant.now());
            assertThat(store.loadAll()).containsExactlyInAnyOrder(a2, b);
            assertThat(store.count()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aFailedUpsertStoresNothingOfIt(String param) throws Exception {
        String url = StoreDatabases.url(param);
        Event before = Event.of("0", "0", "stored before", T, T, 1, 1);
        try (EventStore store = EventStore.open(url)) {
            store.upsert(List.of(before), Instant.now());
        }
        // the database itself refuses one row in the middle of a large batch (past the first executeBatch)
        try (var c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(url.startsWith("jdbc:sqlite:")
                    ? "CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.title = 'boom' "
                            + "BEGIN SELECT RAISE(ABORT, 'boom refused'); END"
                    : "ALTER TABLE events ADD CONSTRAINT refuse_boom CHECK (title <> 'boom')");
        }
        List<Event> batch = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            batch.add(Event.of("10", "p" + i, "t" + i, T, T, 1, 1));
        }
        batch.add(Event.of("0", "0", "updated, then rolled back", T, T, 2, 2));
        batch.add(Event.of("11", "1", "boom", T, T, 1, 1));
        try (EventStore store = EventStore.open(url)) {
            assertThatThrownBy(() -> store.upsert(batch, Instant.now()))
                    .isInstanceOf(StoreException.class).hasMessageContaining("cannot store 1202 events");
            assertThat(store.loadAll()).containsExactly(before);
            // and the store stays usable
            Event after = Event.of("12", "1", "after", T, T, 3, 3);
            store.upsert(List.of(after), Instant.now());
            assertThat(store.loadAll()).containsExactlyInAnyOrder(before, after);
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void schemaIsVersionedAndMigratesOnce(String param) throws Exception {
        String url = StoreDatabases.url(param);
        EventStore.open(url).close();
        EventStore.open(url).close();
        try (var c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
            List<Integer> versions = new ArrayList<>();
            while (rs.next()) {
                versions.add(rs.getInt(1));
            }
            assertThat(versions).containsExactly(1, 2);
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aVersionOneStoreMigratesToTheChangeSequenceKeepingItsEvents(String param) throws Exception {
        String url = StoreDatabases.url(param);
        // a store as the previous release left it: schema version 1, one event
        try (var c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at VARCHAR(40) NOT NULL)");
            for (String sql : Migrations.STEPS.get(0)) {
                s.execute(sql);
            }
            s.execute("INSERT INTO schema_version VALUES (1, '2026-01-01T00:00:00Z')");
            s.execute("INSERT INTO events (id, base_id, plan_id, title, starts_at, ends_at, min_price, max_price, first_seen, updated_at)"
                    + " VALUES ('" + Event.idOf("7", "7") + "', '7', '7', 'Old', '2021-06-30T21:00:00', '2021-06-30T22:00:00', 1, 2,"
                    + " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')");
        }
        Event added = Event.of("8", "8", "New", T, T.plusHours(1), 3, 4);
        try (EventStore store = EventStore.open(url)) {
            EventStore.Snapshot before = store.snapshot();
            assertThat(before.sequence()).isZero();
            assertThat(before.events()).extracting(Event::title).containsExactly("Old");
            assertThat(store.upsert(List.of(added), Instant.now())).isEqualTo(1);
            EventStore.Snapshot after = store.snapshot();
            assertThat(after.sequence()).isEqualTo(1);
            assertThat(after.events()).extracting(Event::title).containsExactlyInAnyOrder("Old", "New");
        }
    }

    @org.junit.jupiter.api.Test
    void sqliteRunsInWalMode() throws Exception {
        String url = EventStore.sqliteUrl(dir.resolve("wal"));
        EventStore.open(url).close();
        try (var c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @org.junit.jupiter.api.Test
    void unreachableDatabaseFailsClearly() {
        assertThatThrownBy(() -> EventStore.open("jdbc:postgresql://127.0.0.1:1/none?user=x&password=secret&connectTimeout=2"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("cannot open")
                .hasMessageNotContaining("secret");
    }
}
