package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.AccessLogMode;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccessLogTest {

    /** A logger that keeps the messages, and blocks each write until released when asked to. */
    static class Captured implements System.Logger {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final CountDownLatch release;
        final CountDownLatch entered = new CountDownLatch(1);

        Captured(boolean block) {
            release = new CountDownLatch(block ? 1 : 0);
        }

        @Override public String getName() { return AccessLog.LOGGER_NAME; }
        @Override public boolean isLoggable(Level level) { return level.getSeverity() >= Level.INFO.getSeverity(); }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            log(level, bundle, msg, (Object[]) null);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            entered.countDown();
            try {
                release.await(); // an interrupt (close giving up) ends the wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            lines.add(format);
        }
    }

    private static AccessLog.Line line(int status) {
        return new AccessLog.Line("GET", "/users/{id}", "/users/" + status, status, 12, 153_400, "127.0.0.1:5000",
                "id-" + status, "http/1.1");
    }

    private static void awaitLines(Captured c, int n) throws InterruptedException {
        for (int i = 0; i < 500 && c.lines.size() < n; i++) {
            Thread.sleep(10);
        }
        assertThat(c.lines).hasSize(n);
    }

    @Test
    void formatsOneLogfmtLine() {
        assertThat(AccessLog.format(line(200))).isEqualTo("method=GET route=/users/{id} path=/users/200 status=200"
                + " bytes=12 duration_us=153 remote=127.0.0.1:5000 request_id=id-200 protocol=http/1.1");
        assertThat(AccessLog.format(new AccessLog.Line(null, null, null, 400, 0, -1, "[::1]:80", null, "h2")))
                .isEqualTo("method=- route=- path=- status=400 bytes=0 duration_us=- remote=[::1]:80 request_id=-"
                        + " protocol=h2");
        assertThat(AccessLog.format(new AccessLog.Line("GET", "/a", "/a", 200, -1, 0, "r", "x==", null)))
                .as("streamed body, padded id").contains("bytes=- duration_us=0").endsWith("request_id=\"x==\" protocol=-");
    }

    @Test
    void quotesAndEscapesWhatCouldForgeAField() {
        String f = AccessLog.format(new AccessLog.Line("GET", "/x y", "/a\"b\\c\r\nstatus=500\u0001", 200, 1, 1, "r", "i", "h2c"));
        assertThat(f).contains("route=\"/x y\"")
                .contains("path=\"/a\\\"b\\\\c\\r\\nstatus=500\\u0001\"")
                .doesNotContain("\r").doesNotContain("\n");
        assertThat(AccessLog.format(new AccessLog.Line("GET", "", "/", 200, 1, 1, "r", "i", "h2c"))).contains("route=\"\"");
    }

    @Test
    void longPathsAreCut() {
        String f = AccessLog.format(new AccessLog.Line("GET", null, "/" + "a".repeat(1000), 404, 1, 1, "r", "i", "h2c"));
        assertThat(f).contains("path=/" + "a".repeat(AccessLog.MAX_PATH - 1) + "... status=404");
    }

    @ParameterizedTest(name = "shared={0}")
    @ValueSource(booleans = {false, true})
    void samplerTakesTheFirstOfEveryNAndEvery5xx(boolean shared) {
        AccessLog.Sampler s = new AccessLog.Sampler(10, shared);
        int taken = 0;
        for (int i = 0; i < 100; i++) {
            if (s.take(200)) {
                taken++;
            }
        }
        assertThat(taken).isEqualTo(10);
        assertThat(new AccessLog.Sampler(10, shared).take(200)).as("the first one").isTrue();
        AccessLog.Sampler errors = new AccessLog.Sampler(1000, shared);
        errors.take(200);
        for (int i = 0; i < 50; i++) {
            assertThat(errors.take(503)).isTrue();
            assertThat(errors.take(404)).isFalse();
            assertThat(errors.take(501)).as("a method the client made up: sampled").isFalse();
            assertThat(errors.take(505)).isFalse();
        }
        AccessLog.Sampler every = new AccessLog.Sampler(1, shared);
        for (int i = 0; i < 50; i++) {
            assertThat(every.take(200)).isTrue();
        }
    }

    @Test
    void offModeMakesNoLog() {
        assertThat(AccessLog.create(AccessLogMode.OFF, 10)).isNull();
        assertThat(AccessLog.create(AccessLogMode.FULL, 10)).isNotNull();
    }

    @Test
    void writesOnItsOwnThreadAndDrainsOnClose() throws Exception {
        Captured c = new Captured(false);
        AccessLog log = new AccessLog(1, 100, c, 5_000);
        log.start();
        for (int i = 0; i < 50; i++) {
            assertThat(log.offer(line(200 + i))).isTrue();
        }
        log.close();
        assertThat(c.lines).hasSize(50);
        assertThat(c.lines.get(0)).contains("status=200");
        assertThat(c.lines.get(49)).contains("status=249");
        assertThat(log.dropped()).isZero();
        assertThat(threadAlive()).isFalse();
    }

    @Test
    void wakesUpForALineAfterIdling() throws Exception {
        Captured c = new Captured(false);
        AccessLog log = new AccessLog(1, 100, c, 5_000);
        log.start();
        Thread.sleep(50); // idle: parked
        log.offer(line(200));
        awaitLines(c, 1);
        Thread.sleep(50);
        log.offer(line(201));
        awaitLines(c, 2);
        log.close();
    }

    @Test
    void aFullQueueDropsAndCountsWithoutBlocking() throws Exception {
        Captured c = new Captured(true);
        AccessLog log = new AccessLog(1, 4, c, 5_000);
        log.start();
        assertThat(log.offer(line(200))).isTrue();
        assertThat(c.entered.await(5, TimeUnit.SECONDS)).isTrue(); // the writer holds line 1, blocked
        long t0 = System.nanoTime();
        int accepted = 0;
        for (int i = 0; i < 10; i++) {
            if (log.offer(line(201 + i))) {
                accepted++;
            }
        }
        assertThat(System.nanoTime() - t0).as("offers never wait").isLessThan(TimeUnit.SECONDS.toNanos(1));
        assertThat(accepted).isEqualTo(4);
        assertThat(log.dropped()).isEqualTo(6);
        c.release.countDown();
        log.close();
        assertThat(c.lines).hasSize(5);
        assertThat(threadAlive()).isFalse();
    }

    @Test
    void closeGivesUpOnAStuckLogger() throws Exception {
        Captured c = new Captured(true);
        AccessLog log = new AccessLog(1, 4, c, 200);
        log.start();
        log.offer(line(200));
        log.offer(line(201));
        assertThat(c.entered.await(5, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        log.close();
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(2));
        for (int i = 0; i < 100 && threadAlive(); i++) {
            Thread.sleep(10);
        }
        assertThat(threadAlive()).as("interrupted, it stops instead of writing the rest").isFalse();
        assertThat(c.lines).isEmpty();
    }

    @Test
    void aFailingLoggerCountsDropsAndKeepsGoing() throws Exception {
        Captured failing = new Captured(false) {
            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                if (format.contains("status=500")) {
                    throw new IllegalStateException("disk full");
                }
                super.log(level, bundle, format, params);
            }
        };
        AccessLog log = new AccessLog(1, 10, failing, 5_000);
        log.start();
        log.offer(line(500));
        log.offer(line(200));
        log.close();
        assertThat(failing.lines).hasSize(1);
        assertThat(log.dropped()).isEqualTo(1);
    }

    private static boolean threadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(AccessLog.THREAD_NAME) && t.isAlive());
    }
}
