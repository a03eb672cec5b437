/**
 * The built-in simulator of the unreliable events provider, for the demo and end-to-end tests.
 *
 * <p>{@link dev.brisk.events.sim.ProviderSimulator} is a Brisk app on its own port serving
 * {@code GET /feed}: the provider's XML feed in dialect A ({@code planList}) or B ({@code eventList}),
 * generated from a seed, changing by generations, with ETag / Last-Modified validators. Faults
 * (latency, 500s, connection resets, outages, malformed documents, bad records) are set in
 * {@link dev.brisk.events.sim.SimulatorOptions} and can be changed while it runs.
 * {@link dev.brisk.events.sim.ProviderSimulator#onlineEvents()} tells a test what a correct reader
 * must have stored. {@link dev.brisk.events.sim.SimulatorMain} runs it from {@code SIM_*} variables.
 *
 * <p>Class map: {@code CatalogueGenerator} (catalogue and generations: {@code Catalogue},
 * {@code BasePlan}, {@code Plan}, {@code Zone}, {@code Names}), {@code RecordDefects} (which records
 * are bad), {@code FeedRenderer} with {@code PlanListRenderer} / {@code EventListRenderer} over
 * {@code XmlBytes}, {@code FeedState} / {@code FeedCache} / {@code RenderedFeed} (what is served,
 * rendered once), {@code FeedEndpoint} (HTTP, conditional requests, fault injection), {@code Faults},
 * {@code DownSchedule}, {@code MalformedBodies}, {@code ResetBody}, {@code StatsCounters}.
 */
package dev.brisk.events.sim;
