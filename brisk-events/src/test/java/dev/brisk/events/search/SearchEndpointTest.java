package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Dispatch;
import dev.brisk.events.Event;
import dev.brisk.testing.BriskTestServer;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /search} on the event loop of a real server, over HTTP, with its wide answers bounded: while
 * the one wide slot is taken, a wide page is {@code 503 busy} and a narrow one is answered at once.
 */
class SearchEndpointTest {
    private final EventCatalog catalog = new EventCatalog();
    private final WideAnswers wide = new WideAnswers(1, 1);
    private BriskTestServer server;

    @BeforeEach
    void start() {
        List<Event> events = new ArrayList<>();
        LocalDateTime t0 = LocalDateTime.of(2021, 3, 1, 0, 0);
        for (int i = 0; i < 3_000; i++) {
            events.add(Event.of("b" + i, "p" + i, "Event number " + i, t0.plusMinutes(i), t0.plusMinutes(i + 60), 1, 2));
        }
        catalog.load(events);
        SearchEndpoint search = new SearchEndpoint(catalog, new QueryMemo(100), new ResponseCache(100, 64L << 20), wide,
                ZoneOffset.UTC);
        server = BriskTestServer.start(cfg -> cfg.get("/search", search).dispatch(Dispatch.EVENT_LOOP));
    }

    @AfterEach
    void stop() {
        server.close();
        wide.close();
    }

    @Test
    void aWidePageIsBusyWhileTheWideSlotsAreTakenAndANarrowOneIsNot() throws Exception {
        InputStream held = wide.send(ByteBuffer.allocate(1)); // another wide answer, still being written
        try {
            HttpResponse<String> busy = server.get("/search?limit=3000");
            assertThat(busy.statusCode()).isEqualTo(503);
            assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(busy.headers().firstValue("ETag")).as("a 503 carries no page's tag").isEmpty();
            assertThat(busy.body()).isEqualTo("{\"error\":{\"code\":\"busy\",\"message\":\"too many wide searches are being"
                    + " answered; retry shortly, or ask for a smaller limit\"},\"data\":null}");

            HttpResponse<String> narrow = server.get("/search?limit=100");
            assertThat(narrow.statusCode()).isEqualTo(200);
            assertThat(narrow.headers().firstValue("Content-Length")).hasValue(Integer.toString(narrow.body().length()));
            assertThat(wide.refused()).isEqualTo(1);
        } finally {
            held.close();
        }
        HttpResponse<String> page = server.get("/search?limit=3000");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Length")).as("streamed").isEmpty();
        assertThat(page.body()).startsWith("{\"data\":{\"events\":[{\"id\":").endsWith("],\"next\":null},\"error\":null}");
        assertThat(page.body().split("\"id\":").length - 1).isEqualTo(3_000);
        assertThat(wide.inFlight()).isZero();
    }
    @Test
    void aPageTheClientHasIs304UntilTheSnapshotChangesAndOnlyForThisProcess() throws Exception {
        HttpResponse<String> first = server.get("/search?limit=10");
        String tag = first.headers().firstValue("ETag").orElseThrow();
        assertThat(tag).startsWith("W/\"");

        HttpResponse<String> same = server.get("/search?limit=10", "If-None-Match", tag);
        assertThat(same.statusCode()).isEqualTo(304);
        assertThat(same.body()).isEmpty();
        assertThat(same.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        assertThat(server.get("/search?limit=10", "If-None-Match", tag, "Accept-Encoding", "gzip").statusCode())
                .as("the gzip form is the same page").isEqualTo(304);

        InputStream held = wide.send(ByteBuffer.allocate(1)); // the only wide slot taken
        try {
            assertThat(server.get("/search?limit=3000", "If-None-Match", tag).statusCode())
                    .as("a wide page the client has takes no slot").isEqualTo(304);
        } finally {
            held.close();
        }
        assertThat(server.get("/search?limit=0", "If-None-Match", tag).statusCode()).as("a bad query stays 400")
                .isEqualTo(400);

        catalog.load(List.of(Event.of("b1", "p1", "Only one", LocalDateTime.of(2021, 3, 1, 0, 0),
                LocalDateTime.of(2021, 3, 1, 1, 0), 1, 2)));
        HttpResponse<String> changed = server.get("/search?limit=10", "If-None-Match", tag);
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.body().split("\"id\":").length - 1).isEqualTo(1);
        assertThat(changed.headers().firstValue("ETag")).isPresent().isNotEqualTo(java.util.Optional.of(tag));

        SearchEndpoint other = new SearchEndpoint(catalog, new QueryMemo(100), new ResponseCache(100, 64L << 20), wide,
                ZoneOffset.UTC); // another instance with the same snapshot version
        try (BriskTestServer second = BriskTestServer.start(cfg -> cfg.get("/search", other))) {
            String now = changed.headers().firstValue("ETag").orElseThrow();
            assertThat(second.get("/search?limit=10", "If-None-Match", now).statusCode()).isEqualTo(200);
        }
    }
}
