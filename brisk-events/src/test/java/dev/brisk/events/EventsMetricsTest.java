package dev.brisk.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.search.EventCatalog;
import dev.brisk.events.search.ResponseCache;
import dev.brisk.events.search.WideAnswers;
import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The service's own meters, scraped as Prometheus reads them. */
class EventsMetricsTest {

    /**
     * The poll-age gauge, the one README says to alert on, reads the poller through a supplier that
     * nothing else holds (the service passes a method reference): it must survive a GC, where a weakly
     * held one turned the gauge into NaN for good.
     */
    @Test
    void thePollAgeGaugeOutlivesAGarbageCollection() {
        Instant polled = Instant.now().minusSeconds(30);
        try (WideAnswers wide = new WideAnswers(1, 1)) {
            Supplier<Instant> lastSuccess = () -> polled;
            WeakReference<Supplier<Instant>> watch = new WeakReference<>(lastSuccess);
            EventsMetrics metrics = new EventsMetrics(new EventCatalog(), new ResponseCache(10, 1 << 20), wide, lastSuccess);
            lastSuccess = null; // from here only the metrics may hold it
            for (int i = 0; i < 5 && watch.get() != null; i++) {
                System.gc();
            }
            assertThat(watch.get()).as("the supplier is still reachable").isNotNull();
            String line = metrics.scrape().lines().filter(l -> l.startsWith("events_poll_last_success_age_seconds "))
                    .findFirst().orElseThrow();
            double age = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            assertThat(age).isBetween(29.0, 600.0);
        }
    }
}
