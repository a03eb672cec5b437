package dev.brisk.events.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway PostgreSQL cluster for tests, one per JVM, started on first use and removed when the
 * JVM exits.
 *
 * <p>The server binaries ({@code initdb}, {@code pg_ctl}) are taken from the newest
 * {@code /usr/lib/postgresql/<version>/bin} (where Debian installs them) or else from {@code PATH}.
 * The cluster lives in a fresh temporary directory: trust authentication, user {@code postgres},
 * UTF8, TCP on 127.0.0.1 at a free port, its unix socket in that directory, fsync off (nothing in it
 * has to survive a crash). PostgreSQL refuses to run as root, so under root the binaries run as the
 * {@code postgres} system user through {@code runuser} (the user is created when missing);
 * otherwise they run as the current user.
 *
 * <p>A shutdown hook stops the server ({@code pg_ctl stop -m immediate}) and deletes the directory.
 * A small watchdog process does the same should the JVM die without running its hooks (SIGKILL), so
 * no server outlives the test JVM. Every external command runs with a time limit, and its output
 * goes into the error when it fails.
 *
 * <pre>{@code
 * @BeforeAll
 * static void postgres() {
 *     TestPostgres.assumeAvailable();   // skipped, loudly, when PostgreSQL cannot run here
 * }
 *
 * @Test
 * void stores() throws Exception {
 *     try (Connection c = DriverManager.getConnection(TestPostgres.freshDatabase())) { ... }
 * }
 * }</pre>
 *
 * <p>With the environment variable {@value #REQUIRE_ENV}{@code =1} (CI sets it once the packages
 * are installed) an unavailable PostgreSQL fails the tests instead of skipping them.
 */
public final class TestPostgres {
    /** Set to 1 to fail, rather than skip, tests when PostgreSQL cannot be started. */
    public static final String REQUIRE_ENV = "BRISK_REQUIRE_POSTGRES";

    private static final String SUPERUSER = "postgres";
    /** The system user the server runs as when the JVM runs as root. */
    private static final String OS_USER = "postgres";
    private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);
    private static final int START_ATTEMPTS = 3;

    private static final AtomicInteger DATABASES = new AtomicInteger();

    // guarded by TestPostgres.class
    private static boolean attempted;
    private static Server server;
    private static String failure;
    private static boolean bannerPrinted;

    private TestPostgres() {
    }

    /**
     * Whether the cluster is running, starting it on the first call. A failed start is not retried;
     * {@link #assumeAvailable()} reports why it failed.
     */
    public static synchronized boolean available() {
        if (!attempted) {
            attempted = true;
            try {
                server = Server.start();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // our own failures carry a full message; others need their type (NoSuchFileException: path)
                failure = e instanceof IllegalStateException && e.getMessage() != null ? e.getMessage() : e.toString();
            }
        }
        return server != null;
    }

    /**
     * JDBC URL of the cluster's default {@code postgres} database, user included, e.g.
     * {@code jdbc:postgresql://127.0.0.1:54321/postgres?user=postgres}. Prefer
     * {@link #freshDatabase()} for anything that creates tables.
     *
     * @throws IllegalStateException when PostgreSQL is not available (see {@link #assumeAvailable()})
     */
    public static String jdbcUrl() {
        return running().url("postgres");
    }

    /**
     * Creates a new, empty database with a name not used before in this JVM and returns its JDBC URL
     * (user included), so each test class or test gets its own schema.
     *
     * @throws IllegalStateException when PostgreSQL is not available or the database cannot be created
     */
    public static String freshDatabase() {
        Server s = running();
        String name = "brisk_test_" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection(s.url("postgres"));
             Statement st = c.createStatement()) {
            // template0: nobody can be connected to it, which CREATE DATABASE would refuse
            st.execute("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING 'UTF8'");
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name + ": " + e.getMessage(), e);
        }
        return s.url(name);
    }

    /**
     * Returns when PostgreSQL is available (starting it if needed). Otherwise prints a banner to
     * stderr saying why and how to install it, then aborts the calling test, which JUnit reports as
     * skipped. With {@value #REQUIRE_ENV}{@code =1} in the environment it fails the test instead.
     */
    public static void assumeAvailable() {
        if (available()) {
            return;
        }
        String why;
        synchronized (TestPostgres.class) {
            why = failure;
            boolean required = "1".equals(System.getenv(REQUIRE_ENV));
            if (!bannerPrinted) {
                bannerPrinted = true;
                System.err.print(banner(why, required));
                System.err.flush();
            }
            if (required) {
                Assertions.fail("PostgreSQL is required (" + REQUIRE_ENV + "=1) but unavailable: " + why);
            }
        }
        Assumptions.abort("PostgreSQL tests SKIPPED, PostgreSQL is unavailable: " + why);
    }

    /** Process id of the running postmaster (for tests of the cleanup). */
    static long serverPid() {
        return running().postmaster.pid();
    }

    /** The temporary directory holding the cluster (for tests of the cleanup). */
    static Path directory() {
        return running().dir;
    }

    private static Server running() {
        if (!available()) {
            throw new IllegalStateException("PostgreSQL is not available: " + failure);
        }
        return server;
    }

    private static String banner(String why, boolean required) {
        String rule = "#".repeat(78);
        StringBuilder b = new StringBuilder("\n").append(rule).append('\n');
        b.append(required ? "##  PostgreSQL tests FAIL: PostgreSQL is required (" + REQUIRE_ENV + "=1) but unavailable\n"
                : "##  PostgreSQL tests are SKIPPED: PostgreSQL could not be started\n");
        b.append("##\n##  why:\n");
        for (String line : why.split("\n", -1)) {
            b.append("##    ").append(line).append('\n');
        }
        b.append("##\n");
        b.append("##  Install the server binaries (Debian/Ubuntu, as root):\n");
        b.append("##      apt-get install -y postgresql\n");
        b.append("##  The tests start their own throwaway cluster on a free port; no service,\n");
        b.append("##  database or user needs setting up. CI (.ci/run) installs it itself.\n");
        b.append(rule).append("\n\n");
        return b.toString();
    }

    /** A started cluster and what it takes to stop it. */
    private static final class Server {
        private final Path dir;
        private final Path data;
        private final Bin bin;
        private final boolean asRoot;
        private volatile int port;
        /** The postmaster; a handle, unlike a bare pid, never matches a later process given the same id. */
        private volatile ProcessHandle postmaster;
        private volatile Process watchdog;
        /** Held so the watchdog's stdin stays open exactly as long as this JVM lives. */
        private volatile OutputStream watchdogStdin;

        private Server(Path dir, Bin bin, boolean asRoot) {
            this.dir = dir;
            this.data = dir.resolve("data");
            this.bin = bin;
            this.asRoot = asRoot;
        }

        String url(String database) {
            return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + SUPERUSER;
        }

        static Server start() throws IOException, InterruptedException {
            long t0 = System.nanoTime();
            Bin bin = Bin.find();
            if (bin == null) {
                throw new IllegalStateException("PostgreSQL server binaries (initdb, pg_ctl) not found under "
                        + "/usr/lib/postgresql/*/bin or on PATH");
            }
            boolean asRoot = isRoot();
            if (asRoot) {
                prepareOsUser();
            }
            Server s = new Server(createDirectory(asRoot), bin, asRoot);
            // registered before anything runs in the directory, so even a failed start leaves nothing
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "TestPostgres-stop"));
            try {
                s.initdb();
                s.startServer();
                s.awaitConnections();
                s.startWatchdog();
            } catch (IOException | RuntimeException | InterruptedException e) {
                s.stop();
                throw e;
            }
            System.err.printf("TestPostgres: %s started on 127.0.0.1:%d in %d ms (%s%s)%n", bin.version,
                    s.port, (System.nanoTime() - t0) / 1_000_000, s.dir, asRoot ? ", as OS user " + OS_USER : "");
            return s;
        }

        private void initdb() throws IOException, InterruptedException {
            runPg(INITDB_TIMEOUT, bin.initdb.toString(), "-D", data.toString(), "-U", SUPERUSER, "--auth=trust",
                    "-E", "UTF8", "--locale=C", "--no-sync");
            // appended settings win over initdb's; the port is given at start so a retry can change it
            String socketDir = dir.toString().replace("'", "''");
            Files.writeString(data.resolve("postgresql.conf"), String.join("\n",
                    "",
                    "# TestPostgres: a throwaway cluster for tests",
                    "listen_addresses = '127.0.0.1'",
                    "unix_socket_directories = '" + socketDir + "'",
                    "fsync = off",
                    "synchronous_commit = off",
                    "full_page_writes = off",
                    "shared_buffers = 32MB",
                    ""), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }

        private void startServer() throws IOException, InterruptedException {
            Path log = dir.resolve("server.log");
            for (int attempt = 1; ; attempt++) {
                int candidate = freePort();
                try {
                    runPg(START_TIMEOUT, bin.pgCtl.toString(), "-D", data.toString(), "-l", log.toString(),
                            "-o", "-p " + candidate, "-w", "-t", Long.toString(START_TIMEOUT.toSeconds() - 10),
                            "start");
                    port = candidate;
                    long pid = readPid();
                    postmaster = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException(
                            "pg_ctl reported a started server, but its process " + pid + " is gone; server log:\n"
                                    + tail(log, 30)));
                    return;
                } catch (IllegalStateException e) {
                    String serverLog = tail(log, 30);
                    // another process may have taken the port between freePort() and the bind
                    if (attempt < START_ATTEMPTS && serverLog.contains("could not bind")) {
                        continue;
                    }
                    throw new IllegalStateException(e.getMessage() + "\nserver log (" + log + "):\n" + serverLog, e);
                }
            }
        }

        private long readPid() throws IOException {
            // first line of postmaster.pid is the postmaster's process id
            String first = Files.readAllLines(data.resolve("postmaster.pid"), StandardCharsets.UTF_8).getFirst();
            return Long.parseLong(first.trim());
        }

        private void awaitConnections() throws InterruptedException {
            long deadline = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
            SQLException last;
            do {
                try (Connection c = DriverManager.getConnection(url("postgres"));
                     Statement st = c.createStatement()) {
                    st.execute("select 1");
                    return;
                } catch (SQLException e) {
                    last = e;
                }
                Thread.sleep(100);
            } while (System.nanoTime() < deadline);
            throw new IllegalStateException("PostgreSQL started (pid " + postmaster.pid() + ") but accepted no connection on 127.0.0.1:"
                    + port + " within " + CONNECT_TIMEOUT.toSeconds() + " s: " + last.getMessage()
                    + "\nserver log:\n" + tail(dir.resolve("server.log"), 30));
        }

        /**
         * A shell that blocks reading its stdin, which only this JVM holds open: when the JVM ends in
         * any way, even SIGKILL, the read returns and the shell stops the server and removes the
         * directory. It runs as this JVM's user, which may signal the server (root, or its owner).
         */
        private void startWatchdog() throws IOException {
            String script = "cat >/dev/null; kill -QUIT \"$1\" 2>/dev/null; i=0;"
                    + " while kill -0 \"$1\" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done;"
                    + " kill -KILL \"$1\" 2>/dev/null; rm -rf \"$2\"";
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script, "brisk-pg-watchdog",
                    Long.toString(postmaster.pid()), dir.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            watchdogStdin = p.getOutputStream();
            watchdog = p;
        }

        /** Stops the server and deletes the directory; safe to call more than once. */
        synchronized void stop() {
            Process w = watchdog;
            if (w != null) {
                // the orderly stop below does the watchdog's job; it must not signal a reused pid later
                w.descendants().forEach(ProcessHandle::destroyForcibly);
                w.destroyForcibly();
                watchdog = null;
            }
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    runPg(STOP_TIMEOUT, bin.pgCtl.toString(), "-D", data.toString(), "-m", "immediate", "-w",
                            "-t", Long.toString(STOP_TIMEOUT.toSeconds() - 5), "stop");
                } catch (Exception e) {
                    System.err.println("TestPostgres: pg_ctl stop failed, killing the server: " + e.getMessage());
                }
            }
            ProcessHandle h = postmaster;
            if (h != null && h.isAlive()) {
                h.destroyForcibly();
                try {
                    h.onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.err.println("TestPostgres: server process " + h.pid() + " did not end: " + e);
                }
            }
            deleteTree(dir);
        }

        /** Runs a PostgreSQL binary as the server's OS user. */
        private void runPg(Duration timeout, String... command) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>();
            if (asRoot) {
                cmd.addAll(List.of(runuser(), "-u", OS_USER, "--"));
            }
            cmd.addAll(List.of(command));
            run(cmd, timeout, dir);
        }
    }

    /** Paths of initdb and pg_ctl of one installation. */
    private record Bin(Path initdb, Path pgCtl, String version) {
        static Bin find() {
            Path debian = Path.of("/usr/lib/postgresql");
            if (Files.isDirectory(debian)) {
                try (Stream<Path> versions = Files.list(debian)) {
                    Bin newest = versions
                            .filter(v -> isServerDir(v.resolve("bin")))
                            .max(Comparator.comparing(v -> v.getFileName().toString(), TestPostgres::compareVersions))
                            .map(v -> new Bin(v.resolve("bin/initdb"), v.resolve("bin/pg_ctl"),
                                    "PostgreSQL " + v.getFileName()))
                            .orElse(null);
                    if (newest != null) {
                        return newest;
                    }
                } catch (IOException e) {
                    // unreadable: fall through to PATH
                }
            }
            Path initdb = onPath("initdb");
            Path pgCtl = onPath("pg_ctl");
            return initdb == null || pgCtl == null ? null : new Bin(initdb, pgCtl, "PostgreSQL (" + initdb + ")");
        }

        private static boolean isServerDir(Path bin) {
            return Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl"));
        }
    }

    /** Orders "9.6" before "15" before "16.1": numerically by dot-separated parts. */
    static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Long.compare(i < x.length ? number(x[i]) : 0, i < y.length ? number(y[i]) : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static long number(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name);
            }
        }
        return null;
    }

    private static String runuser() {
        Path found = onPath("runuser");
        for (String candidate : new String[] {"/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"}) {
            if (found == null && Files.isExecutable(Path.of(candidate))) {
                found = Path.of(candidate);
            }
        }
        if (found == null) {
            throw new IllegalStateException("running as root, but runuser (util-linux) is missing, so PostgreSQL "
                    + "cannot be run as the " + OS_USER + " user");
        }
        return found.toString();
    }

    private static boolean isRoot() {
        try {
            // /proc/self belongs to the effective user of this process
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Makes sure the system user exists; PostgreSQL will not run as root. */
    private static void prepareOsUser() throws IOException, InterruptedException {
        Result id = run(List.of("id", "-u", OS_USER), SHORT_TIMEOUT, null, false);
        if (id.exit == 0) {
            return;
        }
        run(List.of("useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                "--shell", "/usr/sbin/nologin", "--comment", "PostgreSQL (created by Brisk tests)", OS_USER),
                SHORT_TIMEOUT, null, true);
    }

    /** A new private directory; under root, owned by the server's user and in a place it can reach. */
    private static Path createDirectory(boolean asRoot) throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        if (asRoot && !othersCanTraverse(base)) {
            // e.g. a tmpdir under /root: the postgres user could not get to its data directory
            base = Path.of("/tmp");
        }
        // short name: the unix socket path inside it must stay under ~100 bytes
        Path dir = Files.createTempDirectory(base, "brisk-pg-");
        if (asRoot) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
            view.setOwner(users.lookupPrincipalByName(OS_USER));
            try {
                view.setGroup(users.lookupPrincipalByGroupName(OS_USER));
            } catch (IOException e) {
                // no group of that name: the owner alone is enough for a 0700 directory
            }
        }
        return dir;
    }

    private static boolean othersCanTraverse(Path dir) {
        try {
            for (Path p = dir.toRealPath(); p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private record Result(int exit, String output) {
    }

    private static void run(List<String> cmd, Duration timeout, Path dir) throws IOException, InterruptedException {
        run(cmd, timeout, dir, true);
    }

    /**
     * Runs a command with a time limit, output (both streams) in a temporary file so a chatty process
     * can never block on a full pipe. Fails with the output when the command fails and {@code check}.
     */
    private static Result run(List<String> cmd, Duration timeout, Path dir, boolean check)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("brisk-pg-cmd-", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Map<String, String> env = pb.environment();
            // a developer's PGDATA, PGPORT, PGHOST... must not steer the throwaway cluster
            env.keySet().removeIf(k -> k.startsWith("PG"));
            env.put("LC_ALL", "C");
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IllegalStateException("could not run " + String.join(" ", cmd) + ": " + e.getMessage(), e);
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish within "
                        + timeout.toSeconds() + " s; its output:\n" + Files.readString(out, StandardCharsets.UTF_8).strip());
            }
            String output = Files.readString(out, StandardCharsets.UTF_8).strip();
            if (check && p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + p.exitValue()
                        + "); its output:\n" + output);
            }
            return new Result(p.exitValue(), output);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
            for (Path child : children) {
                if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                    deleteTree(child);
                } else {
                    Files.deleteIfExists(child);
                }
            }
            Files.deleteIfExists(root);
        } catch (IOException e) {
            System.err.println("TestPostgres: could not delete " + root + ": " + e);
        }
    }
}
