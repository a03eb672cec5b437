package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark routes {@code /sleep} and {@code /cpu} of {@link ExampleApp}, over real HTTP. */
class OverloadRoutesTest {
    static BriskTestServer server;

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(ExampleApp::routes);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    // ---- /sleep -------------------------------------------------------------------------------

    @Test
    void sleepBlocksForTheGivenTime() {
        long t0 = System.nanoTime();
        HttpResponse<String> r = server.get("/sleep?ms=200");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
        assertThat(r.body()).isEqualTo("slept 200 ms");
        assertThat(ms).as("round trip of /sleep?ms=200, ms").isGreaterThanOrEqualTo(200);
    }

    @Test
    void sleepZeroAnswersAtOnce() {
        HttpResponse<String> r = server.get("/sleep?ms=0");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("slept 0 ms");
        assertThat(server.get("/sleep?ms=60000x").statusCode()).isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "60001", "", "+5", "1.5", "99999999999", "%D9%A1"})
    void badSleepIs400NamingParameterAndRange(String ms) {
        HttpResponse<String> r = server.get("/sleep?ms=" + ms);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).startsWith("ms must be an integer 0..60000, got '");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "49", "0", "60001"})
    void badTickIntervalIs400WithItsOwnRange(String every) {
        HttpResponse<String> r = server.get("/sse/ticks?every=" + every);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("every must be an integer 50..60000, got '" + every + "'");
    }

    @Test
    void missingSleepIs400() {
        HttpResponse<String> r = server.get("/sleep");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("ms must be an integer 0..60000, got none");
    }

    @Test
    void longBadValuesAreCutInTheMessage() {
        HttpResponse<String> r = server.get("/sleep?ms=" + "x".repeat(500));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("ms must be an integer 0..60000, got '" + "x".repeat(20) + "...'");
    }

    @Test
    void concurrentSleepsRunInParallel() {
        int n = 20;
        int ms = 300;
        long t0 = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // the client opens a connection per request in flight, so the server sees 20 at once
            all.add(server.client().sendAsync(server.request("/sleep?ms=" + ms).GET().build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> f : all) {
            HttpResponse<String> r = f.join();
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("slept 300 ms");
        }
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(elapsed).as("all requests took at least one sleep").isGreaterThanOrEqualTo(ms);
        // one after another would take 6 s; even 3 at a time would take 2.1 s; in parallel it is ~0.3 s
        assertThat(elapsed).as("20 concurrent sleeps of 300 ms, total ms").isLessThan(2000);
    }

    @Test
    void sleepStaysOffTheEventLoopWhenThatIsTheAppDefault() throws Exception {
        // with an event-loop default and one I/O thread, a sleep on the loop would hold up /hello
        try (BriskTestServer t = BriskTestServer.start(cfg -> {
            cfg.configSource(ConfigSource.empty());
            cfg.dispatch(Dispatch.EVENT_LOOP).options().ioThreads(1);
            ExampleApp.routes(cfg);
        })) {
            CompletableFuture<HttpResponse<String>> sleeping = t.client().sendAsync(
                    t.request("/sleep?ms=1500").GET().build(), HttpResponse.BodyHandlers.ofString());
            Thread.sleep(200); // let the sleep start
            long t0 = System.nanoTime();
            HttpResponse<String> hello = t.get("/hello");
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(hello.body()).isEqualTo("Hello, World!");
            assertThat(sleeping.isDone()).as("/sleep still sleeping when /hello answered").isFalse();
            assertThat(ms).as("/hello while /sleep runs, ms").isLessThan(1000);
            assertThat(sleeping.get(10, TimeUnit.SECONDS).body()).isEqualTo("slept 1500 ms");
        }
    }

    // ---- /cpu ---------------------------------------------------------------------------------

    @Test
    void cpuIsDeterministic() {
        String a = server.get("/cpu?work=50").body();
        String b = server.get("/cpu?work=50").body();
        String c = server.get("/cpu?work=51").body();
        assertThat(a).matches("work=50 checksum=[0-9a-f]{16}");
        assertThat(b).isEqualTo(a);
        assertThat(c).matches("work=51 checksum=[0-9a-f]{16}");
        assertThat(checksum(c)).isNotEqualTo(checksum(a));
        // the body carries exactly what benchmarks get from CpuWork.run
        assertThat(checksum(a)).isEqualTo(String.format("%016x", CpuWork.run(50)));
        assertThat(server.get("/cpu?work=0").body()).isEqualTo(String.format("work=0 checksum=%016x", CpuWork.run(0)));
    }

    @Test
    void cpuWorkChecksumsDifferAcrossWork() {
        List<Long> sums = new ArrayList<>();
        for (int w = 0; w <= 20; w++) {
            sums.add(CpuWork.run(w));
        }
        assertThat(sums).doesNotHaveDuplicates();
        assertThat(CpuWork.run(7)).isEqualTo(CpuWork.run(7));
        assertThatThrownBy(() -> CpuWork.run(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuWork.run(CpuWork.MAX_WORK + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "-1", "1000001", "", "1e3", "0x10"})
    void badCpuIs400NamingParameterAndRange(String work) {
        HttpResponse<String> r = server.get("/cpu?work=" + work);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).startsWith("work must be an integer 0..1000000, got '");
        assertThat(server.get("/cpu").body()).isEqualTo("work must be an integer 0..1000000, got none");
    }

    @Test
    void moreWorkTakesLonger() {
        HttpRequest small = server.request("/cpu?work=10").GET().build();
        HttpRequest large = server.request("/cpu?work=5000").GET().build();
        // warm up both (and the JIT) before timing; interleave so a noisy neighbour hits both alike
        for (int i = 0; i < 3; i++) {
            server.send(small);
            server.send(large);
        }
        long smallNanos = 0;
        long largeNanos = 0;
        for (int i = 0; i < 5; i++) {
            smallNanos += timed(small);
            largeNanos += timed(large);
        }
        assertThat(largeNanos).as("5 x work=5000 vs 5 x work=10, ns").isGreaterThan(smallNanos);
    }

    private static long timed(HttpRequest request) {
        long t0 = System.nanoTime();
        HttpResponse<String> r = server.send(request);
        long nanos = System.nanoTime() - t0;
        assertThat(r.statusCode()).isEqualTo(200);
        return nanos;
    }

    private static String checksum(String body) {
        return body.substring(body.indexOf("checksum=") + "checksum=".length());
    }
}
