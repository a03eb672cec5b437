package dev.brisk;

import java.time.Duration;

/**
 * The liveness and readiness routes of an app, declared with {@link BriskConfig#health}:
 *
 * <pre>{@code
 * cfg.health(h -> h.check("database", db::ping).startNotReady());   // GET /health, GET /ready
 * ...
 * app.ready(true);                                                   // once warmed up
 * }</pre>
 *
 * <ul>
 *   <li>Liveness ({@value #DEFAULT_LIVENESS_PATH}): {@code 200 {"status":"UP"}} as long as the process
 *       answers at all. A fast-static route: prebuilt bytes, no checks, nothing allocated.</li>
 *   <li>Readiness ({@value #DEFAULT_READINESS_PATH}): {@code 200 {"status":"UP"}} while the app is ready
 *       ({@link Brisk#ready}) and every check passes; otherwise {@code 503} with
 *       {@code {"status":"DOWN","reason":R}}, where R is, first match wins: {@code shutting_down}
 *       ({@link Brisk#close} has begun, see the {@code shutdown-delay} option), {@code not_ready} (the
 *       app said so), or {@code checks_failed}, with {@code "failed":{"<name>":"down"|"error"|"timeout",...}}
 *       naming each failed check (an exception's message is logged, never sent).</li>
 * </ul>
 *
 * <p>Both answer {@code GET} and {@code HEAD} with {@code Content-Type: application/json} and
 * {@code Cache-Control: no-store}; both are never shed by {@code max-concurrent-requests}, so an
 * overloaded server still answers its probes; like fast-static routes, neither runs app middleware or
 * before filters, so an authentication filter cannot fail a probe (after filters and
 * {@link BriskConfig#error} handlers do see readiness answers). Readiness without checks answers on the event loop; with checks it runs on a
 * virtual thread and waits for all checks (in parallel) at most {@link #checkTimeout}.
 */
public interface HealthConfig {
    /** The liveness route's path unless {@link #liveness} moves it. */
    String DEFAULT_LIVENESS_PATH = "/health";
    /** The readiness route's path unless {@link #readiness} moves it. */
    String DEFAULT_READINESS_PATH = "/ready";
    /** Below the 1 s a Kubernetes probe waits by default, so a slow check gets a 503, not a probe timeout. */
    Duration DEFAULT_CHECK_TIMEOUT = Duration.ofMillis(500);

    /**
     * The liveness route's exact path (default {@value #DEFAULT_LIVENESS_PATH}).
     *
     * @param path the exact path, starting with {@code /}
     * @return this config
     */
    HealthConfig liveness(String path);

    /**
     * The readiness route's exact path (default {@value #DEFAULT_READINESS_PATH}).
     *
     * @param path the exact path, starting with {@code /}
     * @return this config
     */
    HealthConfig readiness(String path);

    /**
     * Adds a readiness check (see {@link HealthCheck} for its contract). {@code name} appears in the
     * 503 body: letters, digits, {@code _ . -}; unique.
     *
     * @param name the check's name in the 503 body
     * @param check runs on a virtual thread for each readiness probe
     * @return this config
     */
    HealthConfig check(String name, HealthCheck check);

    /**
     * How long one readiness probe waits for its checks (default 500 ms); later ones count as {@code timeout}.
     *
     * @param timeout a positive duration
     * @return this config
     */
    HealthConfig checkTimeout(Duration timeout);

    /**
     * Starts not ready: readiness answers 503 {@code not_ready} until the app calls
     * {@code Brisk.ready(true)}, e.g. after loading its data or warming up. Default: ready at start.
     *
     * @return this config
     */
    HealthConfig startNotReady();
}
