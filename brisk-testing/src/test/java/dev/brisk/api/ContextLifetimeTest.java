package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * A request answered on the thread that read it borrows the connection's buffer for its head: it reads
 * right while its handler runs, even pipelined; elsewhere the head is the exchange's own. Either way a
 * Context kept past its response fails loudly rather than reading another request's bytes (until the
 * connection reuses it for its next request: {@link ExchangeReuseTest}).
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
            Context ctx = kept.get();
            assertThatThrownBy(() -> ctx.header("X-Tag")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only until its handler returns");
            assertThatThrownBy(ctx::headerNames).isInstanceOf(IllegalStateException.class);
            // what was read while the handler ran stays readable
            assertThat(ctx.path()).isEqualTo("/echo/a");
            assertThat(ctx.queryString()).isEqualTo("q=1");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Dispatch.class, names = {"VIRTUAL_THREADS", "WORKER_POOL"})
    void aContextOnAnotherThreadFailsLoudlyPastItsResponse(Dispatch dispatch) {
        AtomicReference<Context> kept = new AtomicReference<>();
        try (BriskTestServer t = start(Engine.NIO, dispatch, kept); RawConnection c = t.raw()) {
            c.send("GET /echo/a HTTP/1.1\r\nHost: x\r\nX-Tag: mine\r\n\r\n");
            assertThat(c.read().body()).isEqualTo("/echo/a|a||mine|[Host, X-Tag]|null");
            Context ctx = kept.get();
            // the loop ends the request once the write returns, which may be a moment after the client reads
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (readable(ctx) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThatThrownBy(() -> ctx.header("X-Tag")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only until its handler returns");
            assertThat(ctx.path()).isEqualTo("/echo/a"); // read while the handler ran
        }
    }

    private static boolean readable(Context ctx) {
        try {
            ctx.header("X-Tag");
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
