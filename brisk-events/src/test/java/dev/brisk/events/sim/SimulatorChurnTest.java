package dev.brisk.events.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Generations: events leave and arrive, survivors keep (or occasionally change) their values. */
class SimulatorChurnTest {

    private static Map<UUID, Event> byId(List<Event> events) {
        return events.stream().collect(Collectors.toMap(Event::id, Function.identity()));
    }

    @Test
    void advanceRemovesSomeEventsAndAddsNewOnesInTheServedDocument() throws Exception {
        SimulatorOptions o = SimulatorOptions.builder().events(400).zones(4).seed(3).churnFraction(0.1).build();
        try (ProviderSimulator sim = ProviderSimulator.start(o)) {
            Map<UUID, Event> before = byId(FeedXml.onlineEvents(FeedXml.parse(SimHttp.get(sim.feedUrl()).body())));
            assertThat(sim.generation()).isEqualTo(1);

            assertThat(sim.advance()).isEqualTo(2);

            assertThat(sim.generation()).isEqualTo(2);
            HttpResponse<byte[]> r = SimHttp.get(sim.feedUrl());
            List<Event> afterList = FeedXml.onlineEvents(FeedXml.parse(r.body()));
            assertThat(sim.onlineEvents()).isEqualTo(afterList);
            assertThat(sim.recordCount()).isEqualTo(400);
            Map<UUID, Event> after = byId(afterList);
            Set<UUID> removed = new HashSet<>(before.keySet());
            removed.removeAll(after.keySet());
            Set<UUID> added = new HashSet<>(after.keySet());
            added.removeAll(before.keySet());
            // 40 plan records replaced (about 12 % of them offline, which the online view does not show)
            assertThat(removed).hasSizeBetween(25, 40);
            assertThat(added).hasSizeBetween(25, 40);
            assertThat(after.size() - added.size()).isEqualTo(before.size() - removed.size());
        }
    }

    @Test
    void anEventThatLeftNeverComesBackAndSurvivorsMostlyKeepTheirValues() {
        SimulatorOptions o = SimulatorOptions.builder().events(500).zones(5).seed(11).build();
        try (ProviderSimulator sim = ProviderSimulator.start(o)) {
            Map<UUID, Event> current = byId(sim.onlineEvents());
            Set<UUID> gone = new HashSet<>();
            int kept = 0;
            int changed = 0;
            int priceChanges = 0;
            int titleChanges = 0;
            for (int g = 0; g < 20; g++) {
                sim.advance();
                Map<UUID, Event> next = byId(sim.onlineEvents());
                for (UUID id : next.keySet()) {
                    assertThat(gone).as("generation %d brings back an id that left", sim.generation()).doesNotContain(id);
                }
                for (Map.Entry<UUID, Event> e : current.entrySet()) {
                    Event now = next.get(e.getKey());
                    if (now == null) {
                        gone.add(e.getKey());
                        continue;
                    }
                    kept++;
                    Event was = e.getValue();
                    assertThat(now.start()).isEqualTo(was.start());
                    assertThat(now.end()).isEqualTo(was.end());
                    if (!now.sameValues(was)) {
                        changed++;
                        if (!now.title().equals(was.title())) {
                            titleChanges++;
                        }
                        if (now.minPrice() != was.minPrice() || now.maxPrice() != was.maxPrice()) {
                            priceChanges++;
                        }
                    }
                }
                current = next;
            }
            assertThat(sim.generation()).isEqualTo(21);
            assertThat(gone).hasSizeGreaterThan(500);
            assertThat(changed).isPositive().isLessThan(kept / 10);
            assertThat(priceChanges).isPositive();
            assertThat(titleChanges).isPositive();
        }
    }

    @Test
    void idsStayUniqueAcrossGenerationsEvenWherePlanIdsRepeat() {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(300).seed(5).build())) {
            Map<UUID, String> meaning = new HashMap<>();
            for (int g = 0; g < 10; g++) {
                for (Event e : sim.onlineEvents()) {
                    String pair = e.baseId() + "/" + e.planId();
                    assertThat(meaning.putIfAbsent(e.id(), pair)).isIn(null, pair);
                }
                sim.advance();
            }
        }
    }

    @Test
    void theChurnIntervalAdvancesOnItsOwn() throws Exception {
        SimulatorOptions o = SimulatorOptions.builder().events(50).churnInterval(Duration.ofMillis(100)).build();
        try (ProviderSimulator sim = ProviderSimulator.start(o)) {
            String firstTag = SimHttp.get(sim.feedUrl()).headers().firstValue("ETag").orElseThrow();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (sim.generation() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(sim.generation()).isGreaterThanOrEqualTo(3);
            assertThat(SimHttp.get(sim.feedUrl()).headers().firstValue("ETag")).isPresent().get().isNotEqualTo(firstTag);
        }
    }

    @Test
    void withoutAChurnIntervalTheGenerationStays() throws Exception {
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorOptions.builder().events(20).build())) {
            Thread.sleep(300);
            assertThat(sim.generation()).isEqualTo(1);
        }
    }
}
