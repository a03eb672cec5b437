package dev.brisk.events.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The feed document over real HTTP: shape, quirks, escaping, and agreement with the truth. */
class SimulatorFeedTest {
    private static final Pattern PRICE = Pattern.compile("\\d+\\.\\d{2}");

    private static SimulatorOptions.Builder small(Dialect d) {
        return SimulatorOptions.builder().dialect(d).events(300).zones(5).seed(7);
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void theFeedIsWellFormedXmlWithEveryPlanAndZone(Dialect dialect) throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(small(dialect).build())) {
            HttpResponse<byte[]> r = SimHttp.get(sim.feedUrl());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/xml");
            Document doc = FeedXml.parse(r.body());

            String root = dialect == Dialect.A ? "planList" : "eventList";
            assertThat(doc.getDocumentElement().getTagName()).isEqualTo(root);
            assertThat(doc.getDocumentElement().getAttribute("version")).isEqualTo("1.0");
            assertThat(doc.getElementsByTagName("output").getLength()).isEqualTo(1);
            assertThat(doc.getElementsByTagName(dialect == Dialect.A ? "plan" : "event").getLength()).isEqualTo(300);
            assertThat(doc.getElementsByTagName("zone").getLength()).isEqualTo(300 * 5);
            assertThat(doc.getElementsByTagName(dialect == Dialect.A ? "base_event" : "base_plan").getLength()).isZero();

            List<FeedXml.PlanRecord> plans = FeedXml.plans(doc);
            assertThat(plans).hasSize(300);
            assertThat(sim.recordCount()).isEqualTo(300);
            long offline = plans.stream().filter(p -> p.sellMode().equals("offline")).count();
            assertThat(offline).isPositive().isEqualTo(sim.offlineRecordCount());
            assertThat(plans).allSatisfy(p -> assertThat(p.sellMode()).isIn("online", "offline"));
            assertThat(plans).allSatisfy(p -> assertThat(p.zones()).hasSize(5)
                    .allSatisfy(z -> assertThat(z.get("price")).matches(PRICE)));
            if (dialect == Dialect.A) {
                assertThat(plans).allSatisfy(p -> assertThat(p.attributes()).containsOnlyKeys(
                        "plan_start_date", "plan_end_date", "plan_id", "sell_from", "sell_to", "sold_out"));
            } else {
                assertThat(plans).allSatisfy(p -> assertThat(p.attributes()).containsOnlyKeys(
                        "event_id", "event_start_date", "event_end_date", "sell_from", "sell_to", "sold_out"));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void onlineEventsAreWhatTheDocumentSaysForOnlineWellFormedRecords(Dialect dialect) throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(small(dialect).badRecordRate(0.2).build())) {
            Document doc = FeedXml.parse(SimHttp.get(sim.feedUrl()).body());
            List<Event> fromXml = FeedXml.onlineEvents(doc);
            List<Event> truth = sim.onlineEvents();

            assertThat(truth).isEqualTo(fromXml); // same events, values and order
            long onlineRecords = FeedXml.plans(doc).stream().filter(p -> p.sellMode().equals("online")).count();
            assertThat(sim.badRecordCount()).isPositive().isEqualTo(onlineRecords - fromXml.size());
            assertThat(truth.size() + sim.badRecordCount() + sim.offlineRecordCount()).isEqualTo(300);
            assertThat(truth).allSatisfy(e -> {
                assertThat(e.id()).isEqualTo(Event.idOf(e.baseId(), e.planId()));
                assertThat(e.minPrice()).isPositive().isLessThanOrEqualTo(e.maxPrice());
            });
        }
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void titlesAreEscapedAndSurviveTheRoundTrip(Dialect dialect) throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(small(dialect).build())) {
            byte[] body = SimHttp.get(sim.feedUrl()).body();
            String text = new String(body, StandardCharsets.UTF_8);
            assertThat(text).contains("&amp;", "&lt;", "&gt;", "&quot;");
            assertThat(text).doesNotContain("title=\"Tributo a \"Queen\"");

            Set<String> titles = new HashSet<>();
            FeedXml.plans(FeedXml.parse(body)).forEach(p -> titles.add(p.title()));
            assertThat(titles).anySatisfy(t -> assertThat(t).contains("&"));
            assertThat(titles).anySatisfy(t -> assertThat(t).contains("<"));
            assertThat(titles).anySatisfy(t -> assertThat(t).contains("\""));
            assertThat(titles).anySatisfy(t -> assertThat(t).containsPattern("[^\\x00-\\x7F]"));
            Set<String> truthTitles = new HashSet<>();
            sim.onlineEvents().forEach(e -> truthTitles.add(e.title()));
            assertThat(titles).containsAll(truthTitles);
        }
    }

    @Test
    void theCatalogueHasTheProvidersIdQuirks() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(small(Dialect.A).zones(20).build())) {
            List<FeedXml.PlanRecord> plans = FeedXml.plans(FeedXml.parse(SimHttp.get(sim.feedUrl()).body()));

            Map<String, Set<String>> basesOfPlanId = new HashMap<>();
            Set<String> pairs = new HashSet<>();
            for (FeedXml.PlanRecord p : plans) {
                String planId = p.attributes().get("plan_id");
                basesOfPlanId.computeIfAbsent(planId, k -> new HashSet<>()).add(p.baseId());
                assertThat(pairs.add(p.baseId() + "/" + planId)).as("pair %s/%s once", p.baseId(), planId).isTrue();
            }
            assertThat(basesOfPlanId.values()).as("a plan id under several base plans").anySatisfy(b -> assertThat(b).hasSizeGreaterThan(1));
            assertThat(plans).as("a zone id twice in one plan").anySatisfy(p -> {
                Set<String> ids = new HashSet<>();
                assertThat(p.zones().stream().map(z -> z.get("zone_id")).filter(id -> !ids.add(id)).count()).isPositive();
            });
            assertThat(plans).as("bases with several plans").anySatisfy(p ->
                    assertThat(plans.stream().filter(q -> q.baseId().equals(p.baseId())).count()).isGreaterThan(1));
        }
    }

    @Test
    void datesAreLocalIsoWithinTheConfiguredRangeAndEventsLastHours() throws Exception {
        LocalDate first = LocalDate.of(2022, 3, 1);
        SimulatorOptions o = small(Dialect.B).firstDay(first).spanDays(90).build();
        try (ProviderSimulator sim = ProviderSimulator.start(o)) {
            List<FeedXml.PlanRecord> plans = FeedXml.plans(FeedXml.parse(SimHttp.get(sim.feedUrl()).body()));
            Pattern iso = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}");
            for (FeedXml.PlanRecord p : plans) {
                for (String attr : List.of("event_start_date", "event_end_date", "sell_from", "sell_to")) {
                    assertThat(p.attributes().get(attr)).matches(iso);
                }
                LocalDateTime start = LocalDateTime.parse(p.attributes().get("event_start_date"));
                LocalDateTime end = LocalDateTime.parse(p.attributes().get("event_end_date"));
                assertThat(start.toLocalDate()).isBetween(first, first.plusDays(89));
                assertThat(Duration.between(start, end)).isBetween(Duration.ofHours(1), Duration.ofHours(4));
                assertThat(LocalDateTime.parse(p.attributes().get("sell_to"))).isBefore(start);
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameDocumentAndAnotherSeedAnotherOne() throws Exception {
        byte[] a;
        byte[] b;
        byte[] c;
        try (ProviderSimulator s1 = ProviderSimulator.start(small(Dialect.A).build());
             ProviderSimulator s2 = ProviderSimulator.start(small(Dialect.A).build());
             ProviderSimulator s3 = ProviderSimulator.start(small(Dialect.A).seed(8).build())) {
            s1.advance();
            s2.advance();
            s3.advance();
            a = SimHttp.get(s1.feedUrl()).body();
            b = SimHttp.get(s2.feedUrl()).body();
            c = SimHttp.get(s3.feedUrl()).body();
        }
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void healthAnswersOk() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.defaults())) {
            HttpResponse<byte[]> r = SimHttp.get(sim.baseUrl() + "/health");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("OK");
            assertThat(sim.feedUrl()).isEqualTo("http://127.0.0.1:" + sim.port() + "/feed");
            assertThat(sim.port()).isPositive();
        }
    }

    @Test
    void anUnknownDialectIsABadRequest() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.defaults())) {
            assertThat(SimHttp.get(sim.feedUrl() + "?dialect=C").statusCode()).isEqualTo(400);
            assertThat(sim.stats().badRequests()).isEqualTo(1);
            assertThat(SimHttp.get(sim.feedUrl() + "?dialect=b").body()).asString(StandardCharsets.UTF_8).contains("<eventList");
            sim.dialect(Dialect.B);
            assertThat(SimHttp.get(sim.feedUrl()).body()).asString(StandardCharsets.UTF_8).contains("<eventList");
        }
    }
}
