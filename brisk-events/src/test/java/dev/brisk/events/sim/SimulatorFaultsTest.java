package dev.brisk.events.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXParseException;

/** Injected faults, observed over real HTTP. */
class SimulatorFaultsTest {

    private static SimulatorOptions.Builder options() {
        return SimulatorOptions.builder().events(200).zones(5).seed(99);
    }

    private static long millisOf(ThrowingRunnable r) throws Exception {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void latencyDelaysTheFeedAnswer() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().latency(Duration.ofMillis(400)).build())) {
            long ms = millisOf(() -> assertThat(SimHttp.get(sim.feedUrl()).statusCode()).isEqualTo(200));
            assertThat(ms).isGreaterThanOrEqualTo(400);

            sim.latency(Duration.ofMillis(150), Duration.ofMillis(300));
            for (int i = 0; i < 3; i++) {
                assertThat(millisOf(() -> SimHttp.get(sim.feedUrl()))).isGreaterThanOrEqualTo(150);
            }
            sim.latency(Duration.ZERO);
            // no upper bound on a shared machine, but far below the configured delay
            assertThat(millisOf(() -> SimHttp.get(sim.feedUrl()))).isLessThan(2_000);
        }
    }

    @Test
    void failureRateOneWithoutResetsGives500s() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().failureRate(1).resetShare(0).build())) {
            for (int i = 0; i < 10; i++) {
                assertThat(SimHttp.get(sim.feedUrl()).statusCode()).isEqualTo(500);
            }
            assertThat(sim.stats().serverErrors()).isEqualTo(10);
            assertThat(sim.stats().failures()).isEqualTo(10);
            assertThat(sim.stats().served()).isZero();
        }
    }

    @Test
    void aResetClosesTheConnectionMidBodyAndTheClientSeesAnIOException() {
        try (ProviderSimulator sim = ProviderSimulator.start(options().failureRate(1).resetShare(1).build())) {
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> SimHttp.get(sim.feedUrl())).isInstanceOf(IOException.class);
            }
            assertThat(sim.stats().resets()).isEqualTo(5);
            // the server is fine afterwards
            sim.failureRate(0);
            assertThat(SimHttp.fetch(sim.feedUrl()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void failureRateOneGivesOnly500sOrResetsAndZeroGivesNone() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().failureRate(1).build())) {
            int errors = 0;
            int resets = 0;
            for (int i = 0; i < 20; i++) {
                Throwable t = catchThrowable(() -> {
                    HttpResponse<byte[]> r = SimHttp.get(sim.feedUrl());
                    assertThat(r.statusCode()).isEqualTo(500);
                });
                if (t == null) {
                    errors++;
                } else {
                    assertThat(t).isInstanceOf(IOException.class);
                    resets++;
                }
            }
            assertThat(errors).isPositive();
            assertThat(resets).isPositive();
            assertThat(sim.stats().serverErrors()).isEqualTo(errors);
            assertThat(sim.stats().resets()).isEqualTo(resets);

            sim.failureRate(0);
            for (int i = 0; i < 20; i++) {
                HttpResponse<byte[]> r = SimHttp.get(sim.feedUrl());
                assertThat(r.statusCode()).isEqualTo(200);
                FeedXml.parse(r.body());
            }
            assertThat(sim.stats().failures()).isEqualTo(20);
            assertThat(sim.stats().served()).isEqualTo(20);
        }
    }

    @Test
    void aPartialFailureRateFailsSomeRequests() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().failureRate(0.5).resetShare(0).build())) {
            int failed = 0;
            for (int i = 0; i < 40; i++) {
                if (SimHttp.get(sim.feedUrl()).statusCode() == 500) {
                    failed++;
                }
            }
            assertThat(failed).isBetween(8, 32);
        }
    }

    @Test
    void downGives503ForEverythingUntilUp() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().build())) {
            sim.down(true);
            assertThat(SimHttp.get(sim.feedUrl()).statusCode()).isEqualTo(503);
            assertThat(SimHttp.get(sim.baseUrl() + "/health").statusCode()).isEqualTo(503);
            assertThat(sim.stats().unavailable()).isEqualTo(1);
            sim.down(false);
            assertThat(SimHttp.get(sim.feedUrl()).statusCode()).isEqualTo(200);
            assertThat(SimHttp.get(sim.baseUrl() + "/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aDownScheduleAlternatesUpAndDown() throws Exception {
        SimulatorOptions o = options().downSchedule(Duration.ofMillis(600), Duration.ofMillis(300)).build();
        try (ProviderSimulator sim = ProviderSimulator.start(o)) {
            List<Integer> seen = new ArrayList<>();
            String retryAfter = null;
            long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                HttpResponse<byte[]> r = SimHttp.get(sim.baseUrl() + "/health");
                seen.add(r.statusCode());
                if (r.statusCode() == 503) {
                    retryAfter = r.headers().firstValue("Retry-After").orElse(retryAfter);
                }
                Thread.sleep(50);
            }
            assertThat(seen).contains(200, 503).containsOnly(200, 503);
            assertThat(retryAfter).isEqualTo("1");

            sim.downSchedule(Duration.ZERO, Duration.ZERO);
            for (int i = 0; i < 10; i++) {
                assertThat(SimHttp.get(sim.feedUrl()).statusCode()).isEqualTo(200);
                Thread.sleep(50);
            }
        }
    }

    @Test
    void malformedAnswersAreRejectedByTheJdkXmlParser() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().malformedRate(1).build())) {
            List<String> starts = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                HttpResponse<byte[]> r = SimHttp.get(sim.feedUrl());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("ETag")).isEmpty();
                assertThatThrownBy(() -> FeedXml.parse(r.body())).isInstanceOf(SAXParseException.class);
                starts.add(new String(r.body(), 0, Math.min(5, r.body().length), StandardCharsets.ISO_8859_1));
            }
            assertThat(sim.stats().malformed()).isEqualTo(24);
            // both broken XML documents and non-XML garbage came out
            assertThat(starts).contains("<?xml").anySatisfy(s -> assertThat(s).doesNotStartWith("<?xml"));

            sim.malformedRate(0);
            FeedXml.parse(SimHttp.get(sim.feedUrl()).body());
        }
    }

    @Test
    void badRecordsCarryInvalidDatesMissingAttributesAndBadPrices() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(options().events(400).badRecordRate(1).build())) {
            byte[] body = SimHttp.get(sim.feedUrl()).body();
            String text = new String(body, StandardCharsets.UTF_8);
            var doc = FeedXml.parse(body); // records are bad, the document is well-formed

            Matcher impossible = Pattern.compile("plan_start_date=\"\\d{4}-(02-30|(04|06|09|11)-31)T").matcher(text);
            assertThat(impossible.find()).as("a start on a day that does not exist").isTrue();
            assertThat(text).contains("T24:00:00\"");
            assertThat(text).containsPattern("plan_start_date=\"\\d{2}/\\d{2}/\\d{4} ");
            assertThat(text).containsPattern("price=\"(12,50|free|NaN|)\"");
            List<FeedXml.PlanRecord> plans = FeedXml.plans(doc);
            assertThat(plans).anySatisfy(p -> assertThat(p.attributes()).doesNotContainKey("plan_id"));
            assertThat(plans).anySatisfy(p -> assertThat(p.zones()).isEmpty());

            assertThat(FeedXml.onlineEvents(doc)).isEmpty();
            assertThat(sim.onlineEvents()).isEmpty();
            assertThat(sim.badRecordCount()).isEqualTo(400 - sim.offlineRecordCount());
            // offline records are never spoiled
            assertThat(plans.stream().filter(p -> p.sellMode().equals("offline")))
                    .allSatisfy(p -> assertThat(FeedXml.eventOf(p, Dialect.A)).isNotNull());

            sim.badRecordRate(0);
            assertThat(sim.badRecordCount()).isZero();
            assertThat(FeedXml.onlineEvents(FeedXml.parse(SimHttp.get(sim.feedUrl()).body())))
                    .hasSize(400 - sim.offlineRecordCount()).isEqualTo(sim.onlineEvents());
        }
    }

    @Test
    void aHigherBadRecordRateKeepsTheRecordsALowerOneSpoiled() {
        try (ProviderSimulator sim = ProviderSimulator.start(options().events(400).badRecordRate(0.1).build())) {
            var good = sim.onlineEvents();
            int bad = sim.badRecordCount();
            sim.badRecordRate(0.3);
            assertThat(sim.badRecordCount()).isGreaterThan(bad);
            assertThat(good).containsAll(sim.onlineEvents());
        }
    }
}
