package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact bytes of the API's JSON. */
class SearchJsonTest {
    @Test
    void eventHasTheExactShape() {
        Event e = Event.of("291", "291", "Camela en concierto",
                LocalDateTime.parse("2021-06-30T21:00:00"), LocalDateTime.parse("2021-06-30T22:00:00"), 15, 30);
        assertThat(new String(SearchJson.event(e), StandardCharsets.UTF_8)).isEqualTo(
                "{\"id\":\"" + e.id() + "\",\"title\":\"Camela en concierto\",\"start_date\":\"2021-06-30\","
                        + "\"start_time\":\"21:00:00\",\"end_date\":\"2021-06-30\",\"end_time\":\"22:00:00\","
                        + "\"min_price\":15.0,\"max_price\":30.0}");
    }

    @Test
    void titlesAreEscapedAndUtf8() {
        Event e = Event.of("1", "2", "Quote \" back\\slash \n tab\t ñ € 🎵 \u2028",
                LocalDateTime.parse("0999-01-02T03:04:05"), LocalDateTime.parse("0999-01-02T03:04:06"), 0.5, 1234.25);
        String json = new String(SearchJson.event(e), StandardCharsets.UTF_8);
        assertThat(json).contains("\"title\":\"Quote \\\" back\\\\slash \\u000a tab\\u0009 ñ € 🎵 \\u2028\"");
        assertThat(json).contains("\"start_date\":\"0999-01-02\",\"start_time\":\"03:04:05\"");
        assertThat(json).contains("\"min_price\":0.5,\"max_price\":1234.25");
    }

    @Test
    void envelopeAndErrorShapes() {
        EventIndex empty = EventIndex.of(1, List.of());
        assertThat(new String(empty.render(empty.page(new SearchQuery(null, null))), StandardCharsets.UTF_8))
                .isEqualTo("{\"data\":{\"events\":[],\"next\":null},\"error\":null}");
        assertThat(new String(SearchJson.error("invalid_parameter", "bad \"x\""), StandardCharsets.UTF_8))
                .isEqualTo("{\"error\":{\"code\":\"invalid_parameter\",\"message\":\"bad \\\"x\\\"\"},\"data\":null}");
    }
}
