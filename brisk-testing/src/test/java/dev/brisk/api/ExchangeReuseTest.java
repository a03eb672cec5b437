package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An HTTP/1.1 connection reuses a request's exchange for its next request, so that a request allocates
 * little or nothing (an event-loop one nothing at all): the reused one must carry nothing of
 * the request before (attributes, parsed query and cookies, routing, status, headers, body), sent one
 * after the other or pipelined, on every engine and dispatch.
 */
class ExchangeReuseTest {
    private static final String FIRST = "GET /first/one?q=1&r=2 HTTP/1.1\r\nHost: x\r\nCookie: a=b\r\nX-Tag: first\r\n\r\n";
    private static final String SECOND = "GET /second HTTP/1.1\r\nHost: x\r\n\r\n";

    private static BriskTestServer start(Engine engine, Dispatch dispatch, AtomicReference<Context> first,
                                         AtomicReference<Context> second) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            cfg.get("/first/{name}", ctx -> {
                first.set(ctx);
                ctx.attribute("seen", "first");
                ctx.header("X-First", ctx.pathParam("name") + ctx.queryParamMap().size() + ctx.cookie("a"));
                ctx.status(201).text("first " + ctx.header("X-Tag"));
            });
            cfg.get("/second", ctx -> {
                second.set(ctx);
                ctx.text(ctx.attribute("seen") + "|" + ctx.queryParamMap() + "|" + ctx.cookies() + "|"
                        + ctx.header("X-Tag") + "|" + ctx.pathParams() + "|" + ctx.queryString() + "|" + ctx.path()
                        + "|" + ctx.routeTemplate());
            });
        });
    }

    /**
     * The exchange under a context: each request's context is a handle of its own (it fails once the
     * request is over), whose {@code toString} names the exchange it is a handle on.
     */
    private static String exchangeOf(Context ctx) {
        String s = ctx.toString();
        return s.substring(s.indexOf(" on ") + 4).replace(" (over)", "");
    }

    private static void assertFresh(List<RawConnection.Response> rs) {
        assertThat(rs.get(0).status()).isEqualTo(201);
        assertThat(rs.get(0).header("X-First")).isEqualTo("one2b");
        assertThat(rs.get(0).body()).isEqualTo("first first");
        RawConnection.Response r = rs.get(1);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("X-First")).isNull();
        assertThat(r.header("Content-Type")).startsWith("text/plain");
        assertThat(r.body()).isEqualTo("null|{}|{}|null|{}||/second|/second");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aReusedExchangeCarriesNothingOfTheRequestBefore(Engine engine) {
        for (Dispatch dispatch : Dispatch.values()) {
            AtomicReference<Context> first = new AtomicReference<>();
            AtomicReference<Context> second = new AtomicReference<>();
            try (BriskTestServer t = start(engine, dispatch, first, second); RawConnection c = t.raw()) {
                c.send(FIRST);
                RawConnection.Response r1 = c.read();
                c.send(SECOND);
                // reused, unless the loop's scan found the connection waiting in between (it then lets go)
                assertFresh(List.of(r1, c.read()));

                c.send(FIRST + SECOND); // pipelined: the second request is read while the first is handled
                assertFresh(c.read(2));
                if (dispatch == Dispatch.VIRTUAL_THREADS && engine != Engine.BLOCKING_VIRTUAL
                        && engine != Engine.BLOCKING_PLATFORM) {
                    // a loop that finds both buffered hands them to the connection's thread together, as a
                    // pipeline run, each on an exchange of its own; read apart, the second reuses the first's
                    assertThat(second.get()).isNotNull();
                } else {
                    assertThat(exchangeOf(second.get())).as(dispatch + ": the next request reused the exchange")
                            .isEqualTo(exchangeOf(first.get()));
                }
            }
        }
    }

    /** The loops' 100 ms scan finds the connection waiting and lets go of the exchange it kept. */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "URING"})
    void anIdleConnectionHoldsNoExchange(Engine engine) throws InterruptedException {
        AtomicReference<Context> first = new AtomicReference<>();
        AtomicReference<Context> second = new AtomicReference<>();
        try (BriskTestServer t = start(engine, Dispatch.VIRTUAL_THREADS, first, second); RawConnection c = t.raw()) {
            c.send(FIRST);
            assertThat(c.read().status()).isEqualTo(201);
            Context kept = first.get();
            long deadline = System.nanoTime() + 3_000_000_000L;
            boolean renewed = false;
            while (!renewed && System.nanoTime() < deadline) {
                // two scans between two requests (the second finds none served since the first): the poll's
                // interval, bounded above
                Thread.sleep(250);
                c.send(SECOND);
                assertThat(c.read().status()).isEqualTo(200);
                renewed = !exchangeOf(second.get()).equals(exchangeOf(kept));
                kept = second.get();
            }
            assertThat(renewed).as("a request after an idle spell gets a new exchange").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRequestWithABodyAndOneAfterItEachReadTheirOwn(Engine engine) {
        // the first head is longer than the arrays an exchange starts with: its copy grows them
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.post("/echo", ctx -> ctx.text(ctx.bodyAsString() + "|" + ctx.header("X-Tag")));
            cfg.get("/second", ctx -> {
                ctx.text(ctx.bodyAsString() + "|" + ctx.header("X-Tag") + "|" + ctx.header("Content-Length"));
            });
        }); RawConnection c = t.raw()) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nX-Tag: a-rather-long-header-value-" + "x".repeat(600)
                    + "\r\nContent-Length: 5\r\n\r\nhello" + SECOND);
            List<RawConnection.Response> rs = c.read(2);
            assertThat(rs.get(0).body()).isEqualTo("hello|a-rather-long-header-value-" + "x".repeat(600));
            assertThat(rs.get(1).body()).isEqualTo("|null|null");
        }
    }

    /** The path parameters' slots are kept too: each request sees its own route's values, and only those. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void pathParametersAreEachRequestsOwn(Engine engine) {
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.get("/two/{a}/{b}", ctx -> ctx.text(ctx.pathParams().toString()));
            cfg.get("/one/{z}", ctx -> ctx.text(ctx.pathParams() + " " + ctx.pathParam("a")));
            cfg.get("/files/*", ctx -> ctx.text(ctx.pathParams().toString()));
            cfg.get("/none", ctx -> ctx.text(ctx.pathParams() + " " + ctx.pathParam("z")));
        }); RawConnection c = t.raw()) {
            c.send("GET /two/x/y HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /one/%41 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /files/p/q HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /none HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /two/1/2 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read(5)).extracting(RawConnection.Response::body)
                    .containsExactly("{a=x, b=y}", "{z=A} null", "{*=p/q}", "{} null", "{a=1, b=2}");
        }
    }
}
