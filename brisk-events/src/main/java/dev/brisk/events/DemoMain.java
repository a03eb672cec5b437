package dev.brisk.events;

import dev.brisk.events.sim.ProviderSimulator;
import dev.brisk.events.sim.SimulatorOptions;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code ./brisk demo}: the provider simulator and the event search service side by side, so the whole
 * loop (poll → store → search) runs with one command. The simulator gets a demo flavour (events that
 * come and go, some latency, some failures and bad records) unless {@code SIM_*} variables say
 * otherwise; the service reads its usual settings, with the simulator's feed as provider.
 */
public final class DemoMain {
    /** Demo defaults for the simulator, each overridable by its SIM_* variable. */
    static final Map<String, String> DEMO_SIMULATOR = Map.of(
            "SIM_EVENTS", "2000",
            "SIM_ZONES", "20",
            "SIM_CHURN_INTERVAL", "PT20S",
            "SIM_LATENCY", "PT0.05S",
            "SIM_FAILURE_RATE", "0.1",
            "SIM_BAD_RECORD_RATE", "0.01");

    private DemoMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ConsoleLogs.oneLine();
        Map<String, String> env = new HashMap<>(DEMO_SIMULATOR);
        env.putAll(System.getenv());
        ProviderSimulator sim;
        EventsService service;
        try {
            sim = ProviderSimulator.start(SimulatorOptions.fromEnvironment(env));
            EventsConfig config = EventsConfig.load();
            if (config.providerUrl() == null) {
                config = config.withProviderUrl(URI.create(sim.feedUrl()));
            }
            service = EventsService.start(config);
        } catch (RuntimeException e) {
            // exit, not return: the simulator's server, already up, would keep this JVM alive
            System.exit(EventsMain.startFailed("brisk demo", e));
            return;
        }
        ProviderSimulator s = sim;
        EventsService svc = service;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            svc.close();
            s.close();
        }, "demo-shutdown"));
        SimulatorOptions o = sim.options();
        System.out.println("Provider simulator on " + sim.feedUrl() + ": " + o.events() + " events x " + o.zones()
                + " zones, dialect " + o.dialect() + ", churn every " + o.churnInterval() + ", failure rate "
                + o.failureRate() + ", latency " + o.latency() + " (SIM_* variables change these)");
        EventsMain.printBanner("Brisk event search demo", service);
        service.awaitClose();
    }
}
