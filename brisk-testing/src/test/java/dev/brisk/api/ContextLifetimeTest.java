package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Context;
import dev.brisk.Dispatch;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A request answered on the thread that read it borrows the connection's buffer for its head: it reads
 * right while its handler runs, even pipelined; elsewhere the head is the exchange's own. Either way a
 * Context kept past its response fails loudly, every method of it, rather than reading another request's
 * bytes or setting headers on its answer, also once the connection reuses the exchange for its next request
 * ({@link ExchangeReuseTest}).
 */
class ContextLifetimeTest {
    private static final String REQUESTS =
            "GET /echo/one?q=1 HTTP/1.1\r\nHost: x\r\nX-Tag: first\r\n\r\n"
            + "GET /echo/two HTTP/1.1\r\nHost: x\r\nX-Other: o\r\nX-Tag: second\r\n\r\n"
            + "GET /echo/caf%C3%A9?q=3&r=4 HTTP/1.1\r\nX-Tag: third\r\nHost: x\r\n\r\n";

    private static BriskTestServer start(Engine engine, Dispatch dispatch, AtomicReference<Context> kept) {
        return BriskTestServer.start(engine, cfg -> {
            cfg.dispatch(dispatch);
            cfg.get("/echo/{name}", ctx -> {
                kept.set(ctx);
                ctx.text(ctx.path() + "|" + ctx.pathParam("name") + "|" + ctx.queryString() + "|"
                        + ctx.header("x-tag") + "|" + ctx.headerNames() + "|" + ctx.queryParam("q"));
            });
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void pipelinedRequestsReadTheirOwnHeadOnEveryEngineAndDispatch(Engine engine) {
        for (Dispatch dispatch : Dispatch.values()) {
            try (BriskTestServer t = start(engine, dispatch, new AtomicReference<>()); RawConnection c = t.raw()) {
                c.send(REQUESTS);
                List<RawConnection.Response> rs = c.read(3);
                assertThat(rs.get(0).body()).as(dispatch.name())
                        .isEqualTo("/echo/one|one|q=1|first|[Host, X-Tag]|1");
                assertThat(rs.get(1).body()).as(dispatch.name())
                        .isEqualTo("/echo/two|two||second|[Host, X-Other, X-Tag]|null");
                assertThat(rs.get(2).body()).as(dispatch.name())
                        .isEqualTo("/echo/café|café|q=3&r=4|third|[X-Tag, Host]|3");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "BLOCKING_VIRTUAL"})
    void aContextKeptPastItsEventLoopHandlerFailsLoudly(Engine engine) {
        AtomicReference<Context> kept = new AtomicReference<>();
        try (BriskTestServer t = start(engine, Dispatch.EVENT_LOOP, kept)) {
            assertThat(t.get("/echo/a?q=1").body()).startsWith("/echo/a|");
            assertOverSoon(kept.get());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Dispatch.class, names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void aContextOnAnotherThreadFailsLoudlyPastItsResponse(Dispatch dispatch) {
        AtomicReference<Context> kept = new AtomicReference<>();
        try (BriskTestServer t = start(Engine.NIO, dispatch, kept); RawConnection c = t.raw()) {
            c.send("GET /echo/a HTTP/1.1\r\nHost: x\r\nX-Tag: mine\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("/echo/a|a||mine|[Host, X-Tag]|null");
            assertOverSoon(kept.get());
        }
    }

    /**
     * A context handed to a thread that outlives its handler, used while the connection's next request is
     * being handled on the same (reused) exchange: it reads nothing of that request and sets nothing on its
     * answer, on every engine and dispatch — behind a proxy that pools connections that request is often
     * another user's. Each of its methods throws instead.
     */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aContextKeptPastItsResponseNeverReachesTheNextRequest(Engine engine) throws Exception {
        for (Dispatch dispatch : Dispatch.values()) {
            AtomicReference<Context> kept = new AtomicReference<>();
            CountDownLatch nextStarted = new CountDownLatch(1);
            CountDownLatch lateDone = new CountDownLatch(1);
            List<String> late = new CopyOnWriteArrayList<>();
            try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
                cfg.dispatch(dispatch);
                cfg.get("/late", ctx -> {
                    kept.set(ctx);
                    ctx.text("early");
                });
                cfg.get("/next", ctx -> {
                    nextStarted.countDown();
                    if (!lateDone.await(5, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the late thread did not finish");
                    }
                    ctx.text("next " + ctx.header("X-Tag"));
                });
            }); RawConnection c = t.raw()) {
                c.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(c.read().body()).isEqualTo("early");
                Context ctx = kept.get();
                Thread straggler = Thread.ofVirtual().start(() -> {
                    try {
                        if (nextStarted.await(5, TimeUnit.SECONDS)) {
                            late.add(attempt(() -> ctx.header("X-Late", "1")));
                            late.add(attempt(() -> ctx.status(500)));
                            late.add(attempt(() -> ctx.text("late")));
                            late.add(attempt(ctx::path));
                            late.add(attempt(() -> ctx.header("X-Tag")));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        lateDone.countDown();
                    }
                });
                c.send("GET /next HTTP/1.1\r\nHost: x\r\nX-Tag: someone-else\r\n\r\n");
                RawConnection.Response next = c.read();
                straggler.join(5_000);
                assertThat(next.status()).as(dispatch.name()).isEqualTo(200);
                assertThat(next.header("X-Late")).as(dispatch.name()).isNull();
                assertThat(next.body()).as(dispatch.name()).isEqualTo("next someone-else");
                assertThat(late).as(dispatch + ": each late call on the kept context")
                        .containsExactly("IllegalStateException", "IllegalStateException", "IllegalStateException",
                                "IllegalStateException", "IllegalStateException");
            }
        }
    }

    /**
     * A call on a kept context that passed its check before the request ended and is still running when
     * it ends (here a JSON codec that waits inside {@code ctx.json}) keeps the exchange from being reused:
     * the next request gets another one, and what the call sets when it returns never reaches that request.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"NIO", "BLOCKING_VIRTUAL"})
    void aCallInProgressOnAKeptContextKeepsItsExchangeFromTheNextRequest(Engine engine) throws Exception {
        CountDownLatch inCodec = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        AtomicReference<String> firstExchange = new AtomicReference<>();
        AtomicReference<String> nextExchange = new AtomicReference<>();
        dev.brisk.JsonCodec waiting = new dev.brisk.JsonCodec() {
            @Override
            public byte[] write(Object value) {
                inCodec.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "{\"late\":true}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }

            @Override
            public <T> T read(byte[] json, Class<T> type) {
                throw new UnsupportedOperationException();
            }
        };
        try (BriskTestServer t = BriskTestServer.start(engine, cfg -> {
            cfg.json(waiting);
            cfg.get("/first", ctx -> {
                firstExchange.set(ctx.toString());
                Thread.ofVirtual().start(() -> {
                    try {
                        ctx.json("late"); // waits in the codec, past the end of its request
                    } catch (IllegalStateException expected) {
                        // may be refused once the codec returns: either way nothing reaches /next
                    } finally {
                        written.countDown();
                    }
                });
                if (!inCodec.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the late call did not start");
                }
                ctx.text("first");
            });
            cfg.get("/next", ctx -> {
                nextExchange.set(ctx.toString());
                release.countDown(); // the late call returns while this request is being handled
                if (!written.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the late call did not end");
                }
                ctx.text("next");
            });
        }); RawConnection c = t.raw()) {
            c.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("first");
            c.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response next = c.read();
            assertThat(next.body()).isEqualTo("next");
            assertThat(next.header("Content-Type")).startsWith("text/plain");
            assertThat(exchangeOf(nextExchange.get())).as("not the exchange a call was still in")
                    .isNotEqualTo(exchangeOf(firstExchange.get()));
        } finally {
            release.countDown();
        }
    }

    private static String exchangeOf(String handle) {
        return handle.substring(handle.indexOf(" on ") + 4).replace(" (over)", "");
    }

    /** The simple name of what {@code call} throws, or what it returned. */
    private static String attempt(java.util.concurrent.Callable<?> call) {
        try {
            return String.valueOf(call.call());
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }

    /** The loop ends the request once the write returns, which may be a moment after the client reads. */
    private static void assertOverSoon(Context ctx) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (readable(ctx) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThatThrownBy(() -> ctx.header("X-Tag")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("this request is over");
        assertThatThrownBy(ctx::path).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ctx.header("X-After", "1")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ctx.text("after")).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Whether the request is not over yet for {@code ctx}. Asked of the response's status, which the
     * request's end alone takes away: a request read fails a moment earlier, once the answer is handed to
     * the socket and the head it borrowed is given back, while {@code path()}, made once, still answers
     * until the loop ends the request after the write.
     */
    private static boolean readable(Context ctx) {
        try {
            ctx.status();
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
