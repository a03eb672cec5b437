package dev.brisk.events.sim;

import dev.brisk.events.ConsoleLogs;
import java.util.Locale;

/**
 * Runs the provider simulator from {@code SIM_*} environment variables (see {@link SimulatorOptions})
 * until the process is told to stop (SIGTERM, SIGINT).
 */
public final class SimulatorMain {
    private SimulatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ConsoleLogs.oneLine();
        SimulatorOptions o;
        ProviderSimulator sim;
        try {
            o = SimulatorOptions.fromEnvironment();
            sim = ProviderSimulator.start(o).closeOnShutdown();
        } catch (RuntimeException e) {
            // a bad SIM_* value: one line and 2, as ./brisk events and ./brisk demo say it
            System.exit(dev.brisk.events.EventsMain.startFailed("brisk simulator", e));
            return;
        }
        System.out.println("Provider simulator: " + sim.feedUrl());
        System.out.println("  dialect " + o.dialect() + ", " + o.events() + " events x " + o.zones() + " zones, seed "
                + o.seed() + ", churn " + (o.churnInterval().isZero() ? "manual" : "every " + o.churnInterval()));
        System.out.println("  faults: latency " + o.latency() + " (+" + o.latencyJitter() + "), failure rate "
                + o.failureRate() + " (resets " + o.resetShare() + "), malformed " + o.malformedRate()
                + ", bad records " + o.badRecordRate() + ", down "
                + (o.downEvery().isZero() ? "never" : o.downFor() + " every " + o.downEvery()));
        RenderedFeed feed = sim.currentFeed(o.dialect());
        System.out.printf(Locale.ROOT, "  feed: %.1f MB, rendered in %d ms%n", feed.body().length / 1e6,
                feed.renderNanos() / 1_000_000);
        System.out.println("  health: " + sim.baseUrl() + "/health. Stop with Ctrl-C.");
        sim.awaitClose();
    }
}
