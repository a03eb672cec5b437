import dev.brisk.events.Event;
import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import dev.brisk.events.store.EventStore;
import java.time.Instant;
import java.util.List;

/**
 * Fills an event store with N events of the provider simulator's catalogue, for bench scripts
 * (events-search-bounds.sh): run as a source file on the brisk-events classpath,
 * {@code java -cp 'brisk-events/target/brisk-events.jar:brisk-events/target/lib/*' bench/EventsStoreLoad.java N JDBC-URL}.
 *
 * <p>The events are the simulator's own truth for its first catalogue (what a poll of its feed would
 * store: {@code onlineEvents()}), written by the service's own {@link EventStore} in one transaction;
 * the feed is never rendered or parsed, which at 600k events would take longer than the measurement.
 * The service then starts on that store and loads it as it does at every start.
 */
public final class EventsStoreLoad {
    public static void main(String[] args) {
        if (args.length != 2 || !args[0].matches("[1-9][0-9]{0,7}")) {
            System.err.println("usage: EventsStoreLoad N JDBC-URL   (N from 1 to 99999999)");
            System.exit(2);
        }
        int wanted = Integer.parseInt(args[0]);
        long t0 = System.nanoTime();
        // about 12 % of the simulator's records are offline and never stored: ask for enough records
        int records = (int) Math.min(10_000_000, wanted / 0.85 + 100);
        SimulatorOptions options = SimulatorOptions.builder().events(records).zones(1).build();
        List<Event> events;
        try (ProviderSimulator sim = ProviderSimulator.start(options)) {
            events = sim.onlineEvents();
        }
        if (events.size() < wanted) {
            System.err.println("the simulator gave only " + events.size() + " online events of the " + wanted + " wanted");
            System.exit(1);
        }
        events = events.subList(0, wanted);
        long t1 = System.nanoTime();
        try (EventStore store = EventStore.open(args[1])) {
            store.upsert(events, Instant.now());
            System.out.printf("stored %d events in %s: generated in %d ms, written in %d ms; the store holds %d%n",
                    wanted, store.describe(), (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000, store.count());
        }
    }
}
