package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fields a handler may set that HTTP/2 forbids in a response (RFC 9113 8.2.2: the connection-specific
 * ones, and {@code TE}, which only a request may carry): left out of the HTTP/2 answer, which a client
 * would otherwise reject as malformed ({@code PROTOCOL_ERROR}), and sent as set over HTTP/1.1. A value
 * with white space at its ends (8.2.1) is sent without it, over both. curl as
 * the client, h2c with prior knowledge, every engine.
 */
class Http2ResponseFieldsTest {
    private static BriskTestServer start(Engine engine) {
        return BriskTestServer.start(engine, cfg -> cfg.get("/fields", ctx -> ctx
                .header("TE", "trailers")
                .header("Keep-Alive", "timeout=5")
                .header("Upgrade", "websocket")
                .header("Proxy-Connection", "keep-alive")
                .header("X-Kept", "yes")
                .header("X-Spaced", " \t spaced out \t ")
                .text("answered")));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void connectionSpecificFieldsAHandlerSetAreLeftOutOfAnHttp2Answer(Engine engine) throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        try (BriskTestServer t = start(engine)) {
            String h2 = Curl.run("--http2-prior-knowledge", t.uri("/fields").toString());
            assertThat(h2).startsWith("HTTP/2 200").contains("\nx-kept: yes\n").endsWith("\nanswered");
            // a field value has no white space at its ends (RFC 9110 5.5); HTTP/2 forbids sending it (RFC 9113 8.2.1)
            assertThat(h2).contains("\nx-spaced: spaced out\n");
            assertThat(h2.toLowerCase()).doesNotContain("\nte:", "\nkeep-alive:", "\nupgrade:", "\nproxy-connection:");

            String h1 = Curl.run("--http1.1", t.uri("/fields").toString());
            assertThat(h1).startsWith("HTTP/1.1 200").contains("\nTE: trailers\n", "\nX-Kept: yes\n",
                    "\nX-Spaced: spaced out\n");
        }
    }
}
