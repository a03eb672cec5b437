package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Handler;
import dev.brisk.HttpException;
import dev.brisk.Middleware;
import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Middleware and filters: order, scope (app, group, route), short-circuiting, and the 404/405 answers.
 * Every step appends to {@link #events}; the chain has finished before the response is written, so the
 * list is complete when the client has the response.
 */
class MiddlewareTest {
    private static final List<String> events = new CopyOnWriteArrayList<>();
    private static final AtomicInteger applyCalls = new AtomicInteger();
    private static BriskTestServer server;

    /** A middleware that logs {@code name>} before and {@code <name} after the rest of the chain. */
    private static Middleware logging(String name) {
        return next -> {
            applyCalls.incrementAndGet();
            return ctx -> {
                events.add(name + ">");
                try {
                    next.handle(ctx);
                } finally {
                    events.add("<" + name);
                }
            };
        };
    }

    private static Handler log(String name) {
        return ctx -> events.add(name);
    }

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            // registered before any middleware: app middleware still wraps it
            cfg.get("/early", ctx -> {
                events.add("handler");
                ctx.text("early");
            });
            cfg.use(logging("app1"));
            cfg.use(logging("app2"));
            cfg.before(log("before1"));
            cfg.before(log("before2"));
            cfg.after(log("after1"));
            cfg.after(ctx -> {
                events.add("after2");
                ctx.header("X-After", "status=" + ctx.status());
            });

            cfg.get("/plain", ctx -> {
                events.add("handler");
                ctx.text("plain");
            });
            cfg.get("/route-mw", ctx -> {
                events.add("handler");
                ctx.text("route");
            }).use(logging("route1")).use(logging("route2"));

            cfg.group("/g", g -> {
                g.get("/before-use", ctx -> {
                    events.add("handler");
                    ctx.text("before-use");
                });
                g.use(logging("group1"));
                g.get("/after-use", ctx -> {
                    events.add("handler");
                    ctx.text("after-use");
                }).use(logging("route"));
                g.group("/inner", inner -> {
                    inner.use(logging("inner"));
                    inner.get("/x", ctx -> {
                        events.add("handler");
                        ctx.text("inner");
                    });
                });
                g.use(logging("group2")); // added after the nested group: does not reach it
                g.get("/both", ctx -> {
                    events.add("handler");
                    ctx.text("both");
                });
            });

            cfg.group("/guarded", g -> {
                g.use(next -> ctx -> {
                    if (!"secret".equals(ctx.header("X-Token"))) {
                        events.add("denied");
                        ctx.status(401).text("no token");
                        return; // short-circuit: next is not called
                    }
                    next.handle(ctx);
                });
                g.get("/data", ctx -> {
                    events.add("handler");
                    ctx.text("data");
                });
            });

            cfg.group("/filtered", g -> g.get("/x", ctx -> {
                events.add("handler");
                ctx.text("x");
            }));
            cfg.get("/throws", ctx -> {
                events.add("handler");
                throw new HttpException.Conflict("conflict!");
            });
            cfg.post("/post-only", ctx -> ctx.text("posted"));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clear() {
        events.clear();
    }

    @Test
    void globalMiddlewareRunsOutermostFirstAroundFiltersAndHandler() {
        HttpResponse<String> r = server.get("/plain");
        assertThat(r.body()).isEqualTo("plain");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "handler", "<app2", "<app1",
                "after1", "after2");
    }

    @Test
    void appMiddlewareAlsoWrapsRoutesRegisteredBeforeIt() {
        server.get("/early");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "handler", "<app2", "<app1",
                "after1", "after2");
    }

    @Test
    void routeMiddlewareIsInnermostInRegistrationOrder() {
        server.get("/route-mw");
        assertThat(events).containsExactly("app1>", "app2>", "route1>", "route2>", "before1", "before2", "handler",
                "<route2", "<route1", "<app2", "<app1", "after1", "after2");
    }

    @Test
    void groupMiddlewareWrapsOnlyRoutesRegisteredAfterIt() {
        server.get("/g/before-use");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "handler", "<app2", "<app1",
                "after1", "after2");

        events.clear();
        server.get("/g/after-use");
        assertThat(events).containsExactly("app1>", "app2>", "group1>", "route>", "before1", "before2", "handler",
                "<route", "<group1", "<app2", "<app1", "after1", "after2");

        events.clear();
        server.get("/g/both");
        assertThat(events).containsExactly("app1>", "app2>", "group1>", "group2>", "before1", "before2", "handler",
                "<group2", "<group1", "<app2", "<app1", "after1", "after2");
    }

    @Test
    void nestedGroupInheritsTheParentMiddlewareAtItsCreation() {
        assertThat(server.get("/g/inner/x").body()).isEqualTo("inner");
        assertThat(events).containsExactly("app1>", "app2>", "group1>", "inner>", "before1", "before2", "handler",
                "<inner", "<group1", "<app2", "<app1", "after1", "after2");
    }

    @Test
    void middlewareThatDoesNotCallNextShortCircuits() {
        HttpResponse<String> denied = server.get("/guarded/data");
        assertThat(denied.statusCode()).isEqualTo(401);
        assertThat(denied.body()).isEqualTo("no token");
        assertThat(events).containsExactly("app1>", "app2>", "denied", "<app2", "<app1", "after1", "after2");
        assertThat(denied.headers().firstValue("X-After")).hasValue("status=401");

        events.clear();
        HttpResponse<String> allowed = server.send(server.request("/guarded/data").header("X-Token", "secret").build());
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).isEqualTo("data");
        assertThat(events).contains("handler");
    }

    @Test
    void middlewareIsAppliedOncePerRouteAtStartNotPerRequest() {
        int before = applyCalls.get();
        for (int i = 0; i < 5; i++) {
            server.get("/plain");
        }
        assertThat(applyCalls.get()).isEqualTo(before);
        assertThat(before).isPositive();
    }

    @Test
    void middlewareAndFiltersSeeThe404() {
        HttpResponse<String> r = server.get("/no/such/path");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).isEqualTo("Not Found");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "<app2", "<app1", "after1",
                "after2");
        assertThat(r.headers().firstValue("X-After")).hasValue("status=404");
    }

    @Test
    void middlewareAndFiltersSeeThe405() {
        HttpResponse<String> r = server.get("/post-only");
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("POST, OPTIONS");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "<app2", "<app1", "after1",
                "after2");
        assertThat(r.headers().firstValue("X-After")).hasValue("status=405");
    }

    @Test
    void automaticOptionsRunsThroughMiddleware() {
        HttpResponse<String> r = server.send(server.request("/plain").method("OPTIONS", BodyPublishers.noBody()).build());
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "<app2", "<app1", "after1",
                "after2");
    }

    @Test
    void afterFiltersRunAfterAnExceptionWasMapped() {
        HttpResponse<String> r = server.get("/throws");
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.body()).isEqualTo("conflict!");
        assertThat(events).containsExactly("app1>", "app2>", "before1", "before2", "handler", "<app2", "<app1",
                "after1", "after2");
        assertThat(r.headers().firstValue("X-After")).hasValue("status=409");
    }

    @Test
    void aMiddlewareCanDecorateA404AfterNextReturns() {
        // the 404 is answered inside next: the middleware sees it as the status, not as an exception
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(next -> ctx -> {
                next.handle(ctx);
                if (ctx.status() >= 400) {
                    ctx.header("X-Seen-By", "mw").text("mw saw " + ctx.status());
                }
            });
            cfg.get("/ok", ctx -> ctx.text("ok"));
        })) {
            HttpResponse<String> r = s.get("/missing");
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.headers().firstValue("X-Seen-By")).hasValue("mw");
            assertThat(r.body()).isEqualTo("mw saw 404");
        }
    }

    @Test
    void headerSetByMiddlewareAppearsOnA404() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(next -> ctx -> {
                ctx.header("X-Request-Id", "abc123");
                next.handle(ctx);
            });
            cfg.get("/ok", ctx -> ctx.text("ok"));
        })) {
            assertThat(s.get("/ok").headers().firstValue("X-Request-Id")).hasValue("abc123");
            HttpResponse<String> r = s.get("/missing");
            assertThat(r.statusCode()).isEqualTo(404);
            // observed: the header is missing from the 404 answer
            assertThat(r.headers().firstValue("X-Request-Id")).hasValue("abc123");
        }
    }

    @Test
    void beforeFilterThrowingStopsTheChainButAfterFiltersStillRun() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.before(ctx -> {
                events.add("before");
                if (ctx.header("Authorization") == null) {
                    throw new HttpException.Unauthorized("login first");
                }
            });
            cfg.after(log("after"));
            cfg.get("/x", ctx -> {
                events.add("handler");
                ctx.text("x");
            });
        })) {
            HttpResponse<String> r = s.get("/x");
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.body()).isEqualTo("login first");
            assertThat(events).containsExactly("before", "after");
        }
    }

    @Test
    void middlewareCanChangeTheResponseAfterNext() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.use(next -> ctx -> {
                next.handle(ctx);
                ctx.header("X-Wrapped", "yes").status(ctx.status() == 200 ? 203 : ctx.status());
            });
            cfg.get("/x", ctx -> ctx.text("x"));
        })) {
            HttpResponse<String> r = s.get("/x");
            assertThat(r.statusCode()).isEqualTo(203);
            assertThat(r.headers().firstValue("X-Wrapped")).hasValue("yes");
            assertThat(r.body()).isEqualTo("x");
        }
    }
}
