package dev.brisk.http2;

import static dev.brisk.http2.H2Conn.DATA;
import static dev.brisk.http2.H2Conn.GOAWAY;
import static dev.brisk.http2.H2Conn.HEADERS;
import static dev.brisk.http2.H2Conn.PING;
import static dev.brisk.http2.H2Conn.on;
import static dev.brisk.http2.H2Conn.type;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Brisk;
import dev.brisk.testing.Engine;
import dev.brisk.testing.EnginesSideBySide;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Issue 17: graceful shutdown of an HTTP/2 connection with HTTP/1.1's drain rules: a GOAWAY that
 * announces the drain (stream id 2^31-1) and a PING; what the client sent before the ping came back
 * is served; then the final GOAWAY with the last stream id; streams in flight finish, nothing sent
 * before the final GOAWAY goes unanswered, and the connection closes when none is left.
 */
class Http2DrainTest {
    /** Every engine, side by side: the tests mostly wait on the server's clock. */
    @EnginesSideBySide
    class OnEachEngine {
        @Parameter
        Engine engine;

        private Brisk app;
        private final CountDownLatch slowStarted = new CountDownLatch(1);

        @AfterEach
        void stop() {
            if (app != null) {
                app.close();
            }
        }

        private void start(Duration drainGrace) {
            start(drainGrace, 0);
        }

        private void start(Duration drainGrace, int maxRequestsPerConnection) {
            app = Brisk.create(cfg -> {
                engine.apply(cfg);
                cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(5)).drainGrace(drainGrace)
                        .maxRequestsPerConnection(maxRequestsPerConnection);
                cfg.get("/hello", ctx -> ctx.text("hello"));
                cfg.get("/slow", ctx -> {
                    slowStarted.countDown();
                    Thread.sleep(400);
                    ctx.text("slow");
                });
            }).start();
        }

        private Thread closeInBackground() {
            Thread t = Thread.ofVirtual().start(app::close);
            return t;
        }

        @Test
        void theDrainServesWhatCameBeforeTheFinalGoAwayAndClosesWhenDone() throws Exception {
            start(Duration.ofSeconds(2));
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/slow");
                assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
                Thread closer = closeInBackground();
                List<H2Conn.Frame> rest = new ArrayList<>(); // every frame read, in order
                H2Conn.Frame first = until(c, rest, type(GOAWAY));
                assertThat(first.lastStream()).as("the drain announced").isEqualTo(Integer.MAX_VALUE);
                assertThat(first.errorCode()).isEqualTo(H2Conn.NO_ERROR);
                H2Conn.Frame ping = until(c, rest, f -> f.type() == PING && !f.has(H2Conn.ACK));
                c.get(3, "/hello"); // sent before the client answers the ping: still served
                c.frame(PING, H2Conn.ACK, 0, ping.payload());
                H2Conn.Frame f;
                boolean finalSeen = false;
                while ((f = c.read()) != null) {
                    rest.add(f);
                    if (f.type() == GOAWAY && !finalSeen) {
                        finalSeen = true;
                        c.get(5, "/hello"); // after the final GOAWAY: not served
                    }
                }
                H2Conn.Frame last = rest.stream().filter(type(GOAWAY)).filter(g -> g != first).findFirst().orElseThrow();
                assertThat(last.lastStream()).as("the final GOAWAY").isEqualTo(3);
                assertThat(statusOf(rest, 1)).isEqualTo(200);
                assertThat(bodyOf(rest, 1)).isEqualTo("slow");
                assertThat(statusOf(rest, 3)).isEqualTo(200);
                assertThat(bodyOf(rest, 3)).isEqualTo("hello");
                assertThat(rest).noneMatch(x -> x.stream() == 5);
                closer.join(10_000);
                assertThat(closer.isAlive()).isFalse();
            }
        }

        /**
         * A stream the client opens after the final GOAWAY is not served; what it then sends on it (here
         * trailers right after the head, a request without a body) is ignored. It used to be a connection
         * error (STREAM_CLOSED on the trailers), which cut the streams still being answered.
         */
        @Test
        void framesOnAStreamOpenedAfterTheFinalGoAwayDoNotEndTheDrain() throws Exception {
            start(Duration.ofSeconds(2));
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/slow");
                assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
                Thread closer = closeInBackground();
                List<H2Conn.Frame> rest = new ArrayList<>();
                until(c, rest, type(GOAWAY));
                H2Conn.Frame ping = until(c, rest, f -> f.type() == PING && !f.has(H2Conn.ACK));
                c.frame(PING, H2Conn.ACK, 0, ping.payload());
                H2Conn.Frame last = until(c, rest, type(GOAWAY));
                assertThat(last.lastStream()).as("the final GOAWAY").isEqualTo(1);
                c.headers(3, false, H2Conn.request("POST", "/hello"));
                java.io.ByteArrayOutputStream trailers = new java.io.ByteArrayOutputStream();
                H2Conn.literal(trailers, "x-checksum", "1");
                c.headers(3, true, trailers.toByteArray());
                H2Conn.Frame f;
                while ((f = c.read()) != null) {
                    rest.add(f);
                }
                assertThat(rest).noneMatch(x -> x.type() == GOAWAY && x.errorCode() != H2Conn.NO_ERROR);
                assertThat(statusOf(rest, 1)).as("the stream in flight is still answered").isEqualTo(200);
                assertThat(bodyOf(rest, 1)).isEqualTo("slow");
                assertThat(rest).noneMatch(x -> x.stream() == 3 && x.type() == HEADERS);
                closer.join(10_000);
                assertThat(closer.isAlive()).isFalse();
            }
        }

        /**
         * A request the client sent before the shutdown began, still unread in the socket behind a slow
         * handler (on the blocking engine, which reads frames only between its inline handlers), is served
         * too: the drain must read what is there before it sends the final GOAWAY.
         */
        @Test
        void aRequestSentBeforeTheShutdownIsServedEvenIfNotYetRead() throws Exception {
            start(Duration.ofMillis(100)); // a grace shorter than /slow: it ends while the handler runs
            try (H2Conn c = new H2Conn(app.port())) {
                // the server has read our SETTINGS and waits for more, idle: the request comes in an idle read
                // (on the blocking engine the drain once shut the input under that read's handler)
                c.await(f -> f.type() == H2Conn.SETTINGS && f.has(H2Conn.ACK));
                c.get(1, "/slow");
                assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
                c.get(3, "/hello"); // while /slow runs
                Thread closer = closeInBackground();
                List<H2Conn.Frame> rest = new ArrayList<>();
                H2Conn.Frame f;
                while ((f = c.read()) != null) {
                    rest.add(f);
                    if (f.type() == PING && !f.has(H2Conn.ACK)) {
                        c.frame(PING, H2Conn.ACK, 0, f.payload());
                    }
                }
                assertThat(statusOf(rest, 1)).isEqualTo(200);
                assertThat(statusOf(rest, 3)).as("sent before the shutdown: %s", rest).isEqualTo(200);
                assertThat(bodyOf(rest, 3)).isEqualTo("hello");
                H2Conn.Frame last = rest.stream().filter(type(GOAWAY)).filter(g -> g.lastStream() != Integer.MAX_VALUE)
                        .findFirst().orElseThrow();
                assertThat(last.lastStream()).isGreaterThanOrEqualTo(3);
                closer.join(10_000);
                assertThat(closer.isAlive()).isFalse();
            }
        }

        @Test
        void withoutGraceTheFinalGoAwayComesAtOnce() throws Exception {
            start(Duration.ZERO);
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/slow");
                assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
                Thread closer = closeInBackground();
                List<H2Conn.Frame> rest = new ArrayList<>();
                H2Conn.Frame f;
                while ((f = c.read()) != null) {
                    rest.add(f);
                }
                H2Conn.Frame goAway = rest.stream().filter(type(GOAWAY)).findFirst().orElseThrow();
                assertThat(goAway.lastStream()).isEqualTo(1);
                assertThat(statusOf(rest, 1)).isEqualTo(200);
                assertThat(bodyOf(rest, 1)).isEqualTo("slow");
                closer.join(10_000);
            }
        }

        @Test
        void aDrainAfterTheFinalGoAwayNeverRaisesItsLastStream() throws Exception {
            start(Duration.ofSeconds(2), 1); // the first stream is the connection's last: its GOAWAY names it
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/slow");
                assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
                Thread closer = closeInBackground(); // drains while stream 1 is still handled
                List<H2Conn.Frame> rest = new ArrayList<>();
                H2Conn.Frame f;
                while ((f = c.read()) != null) {
                    rest.add(f);
                }
                // RFC 9113 6.8: the last stream id of a later GOAWAY must not be larger than an earlier one's
                assertThat(rest.stream().filter(type(GOAWAY)).map(H2Conn.Frame::lastStream).toList())
                        .as("every GOAWAY's last stream").isNotEmpty().containsOnly(1);
                assertThat(statusOf(rest, 1)).isEqualTo(200);
                assertThat(bodyOf(rest, 1)).isEqualTo("slow");
                closer.join(10_000);
                assertThat(closer.isAlive()).isFalse();
            }
        }

        /**
         * A connection error after the final {@code GOAWAY}: its own {@code GOAWAY} names no later stream than
         * the final one did, though the client opened one since (it was never served).
         */
        @Test
        void aConnectionErrorAfterTheFinalGoAwayNamesNoLaterStream() throws Exception {
            // a loop reads the next frames while the handler runs; a blocking engine's connection thread runs it
            org.junit.jupiter.api.Assumptions.assumeTrue(engine == Engine.NIO || engine == Engine.URING, "a loop engine");
            start(Duration.ofSeconds(2), 1); // the first stream is the connection's last: its GOAWAY names it
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/slow");
                assertThat(c.await(type(GOAWAY)).lastStream()).isEqualTo(1);
                c.get(3, "/hello"); // after the final GOAWAY: not served
                c.frame(DATA, 0, 0, new byte[1]); // DATA on stream 0: a connection error
                List<H2Conn.Frame> rest = new ArrayList<>();
                H2Conn.Frame f;
                while ((f = c.read()) != null) {
                    rest.add(f);
                }
                List<H2Conn.Frame> goAways = rest.stream().filter(type(GOAWAY)).toList();
                assertThat(goAways).as("the connection error's GOAWAY").isNotEmpty();
                assertThat(goAways.stream().map(H2Conn.Frame::lastStream).toList()).containsOnly(1);
            }
        }

        @Test
        void anIdleConnectionGetsItsGoAwayAndCloses() throws Exception {
            start(Duration.ofMillis(300));
            try (H2Conn c = new H2Conn(app.port())) {
                c.get(1, "/hello");
                assertThat(c.await(on(HEADERS, 1)).status()).isEqualTo(200);
                long t0 = System.nanoTime();
                Thread closer = closeInBackground();
                H2Conn.Frame g = c.await(type(GOAWAY));
                assertThat(g.errorCode()).isEqualTo(H2Conn.NO_ERROR);
                // the client does not answer the ping: the grace ends it
                assertThat(c.closedWithin(Duration.ofSeconds(5))).isTrue();
                closer.join(10_000);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
            }
        }

        /** Reads frames into {@code seen} until one matches, and returns it. */
        private static H2Conn.Frame until(H2Conn c, List<H2Conn.Frame> seen, java.util.function.Predicate<H2Conn.Frame> what)
                throws java.io.IOException {
            H2Conn.Frame f = c.await(x -> {
                seen.add(x);
                return what.test(x);
            });
            return f;
        }

        private static int statusOf(List<H2Conn.Frame> frames, int stream) {
            return frames.stream().filter(on(HEADERS, stream)).findFirst().orElseThrow(
                    () -> new AssertionError("no answer on stream " + stream + ": " + frames)).status();
        }

        private static String bodyOf(List<H2Conn.Frame> frames, int stream) {
            StringBuilder b = new StringBuilder();
            frames.stream().filter(on(DATA, stream)).forEach(f -> b.append(new String(f.payload(), StandardCharsets.UTF_8)));
            return b.toString();
        }
    }
}
