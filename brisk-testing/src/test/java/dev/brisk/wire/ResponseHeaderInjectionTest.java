package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Context;
import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import dev.brisk.testing.RawConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** A handler can never put CR, LF or other control bytes into the response head. */
@ParameterizedClass
@EnumSource(Engine.class)
class ResponseHeaderInjectionTest {
    @Parameter
    Engine engine;


    /** Runs {@code attempt}; returns "refused" when it throws IllegalArgumentException, else "ACCEPTED". */
    private static String attempt(Context ctx, Consumer<Context> attempt) {
        try {
            attempt.accept(ctx);
            return "ACCEPTED";
        } catch (IllegalArgumentException e) {
            return "refused";
        }
    }

    @Test
    void headerValuesAndNamesWithCrLfAreRefusedAndNeverWritten() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/inject", ctx -> {
            List<String> outcomes = new ArrayList<>();
            outcomes.add(attempt(ctx, x -> x.header("X", "a\r\nInjected: 1")));
            outcomes.add(attempt(ctx, x -> x.header("X", "a\nInjected: 2")));
            outcomes.add(attempt(ctx, x -> x.header("X", "a\rInjected: 3")));
            outcomes.add(attempt(ctx, x -> x.addHeader("X", "a\r\nInjected: 4")));
            outcomes.add(attempt(ctx, x -> x.header("X\r\nInjected", "5")));
            outcomes.add(attempt(ctx, x -> x.header("X: y\r\nInjected", "6")));
            outcomes.add(attempt(ctx, x -> x.contentType("text/plain\r\nInjected: 7")));
            outcomes.add(attempt(ctx, x -> x.header("Content-Type", "text/plain\r\nInjected: 8")));
            outcomes.add(attempt(ctx, x -> x.redirect("/next\r\nInjected: 9")));
            outcomes.add(attempt(ctx, x -> x.header("X", "a\0Injected: 10")));
            outcomes.add(attempt(ctx, x -> x.header("X", "a\u2028Injected: 11")));
            outcomes.add(attempt(ctx, x -> x.header("X", "a\u010d\u010aInjected: 12"))); // chars that truncate to CR LF
            ctx.header("X-Safe", "ok");
            ctx.text(String.join(",", outcomes));
        }))) {
            try (RawConnection c = t.raw()) {
                c.send("GET /inject HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                c.timeout(3_000);
                String wire = c.readAll();
                int headEnd = wire.indexOf("\r\n\r\n");
                assertThat(headEnd).isPositive();
                String head = wire.substring(0, headEnd + 2);
                String body = wire.substring(headEnd + 4);

                assertThat(head).startsWith("HTTP/1.1 200 OK\r\n");
                assertThat(head).doesNotContainIgnoringCase("Injected");
                assertThat(head).contains("\r\nX-Safe: ok\r\n");
                assertThat(head).contains("\r\nContent-Type: text/plain; charset=utf-8\r\n");
                assertThat(head).doesNotContain("\r\nLocation:");
                // every header line is "name: value" with no stray CR or LF
                for (String line : head.split("\r\n", -1)) {
                    assertThat(line).doesNotContain("\r").doesNotContain("\n");
                }
                assertThat(body).isEqualTo(String.join(",", java.util.Collections.nCopies(12, "refused")));
            }
        }
    }

    @Test
    void framingHeadersCannotBeSetByAHandler() {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/framing", ctx -> {
            List<String> outcomes = new ArrayList<>();
            outcomes.add(attempt(ctx, x -> x.header("Content-Length", "0")));
            outcomes.add(attempt(ctx, x -> x.header("Transfer-Encoding", "chunked")));
            outcomes.add(attempt(ctx, x -> x.header("Connection", "keep-alive")));
            outcomes.add(attempt(ctx, x -> x.addHeader("content-length", "999")));
            ctx.text(String.join(",", outcomes));
        })); RawConnection c = t.raw()) {
            c.send("GET /framing HTTP/1.1\r\nHost: x\r\n\r\nGET /framing HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response r = c.read();
            assertThat(r.body()).isEqualTo("refused,refused,refused,refused");
            assertThat(r.header("Content-Length")).isEqualTo("31");
            assertThat(r.header("Transfer-Encoding")).isNull();
            assertThat(r.header("Connection")).isNull();
            assertThat(c.read().body()).isEqualTo("refused,refused,refused,refused");
        }
    }
}
