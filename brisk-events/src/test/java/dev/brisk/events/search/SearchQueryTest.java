package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A next link, read back as a query, is the same page query with the cursor: nothing of the window is lost. */
class SearchQueryTest {
    private static final ZoneId MADRID = ZoneId.of("Europe/Madrid");

    /** The query string's parameters, decoded as the server decodes them. */
    private static Map<String, List<String>> params(String link) {
        String query = URI.create("http://x" + link).getRawQuery();
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            out.computeIfAbsent(pair.substring(0, eq), k -> new ArrayList<>())
                    .add(java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "starts_at=2021-06-01T00:00:00Z&ends_at=2021-06-30T12:00:00%2B02:00&limit=50 | 2021-06-01T02:00 | 2021-06-30T12:00 | 50",
        "starts_at=2021-02-10T20:00:00.000000001 | 2021-02-10T20:00:00.000000001 | - | 1000",
        "ends_at=%2B12021-01-01T00:00:00&limit=7 | - | +12021-01-01T00:00 | 7",
        "limit=10000 | - | - | 10000",
        // a lowercase 't' as the parse takes it, with an offset too; a year's '+' sent unencoded (a space)
        "starts_at=2021-02-01t10:00:00%2B01:00&ends_at=2021-02-01t10:00:00Z | 2021-02-01T10:00 | 2021-02-01T11:00 | 1000",
        "starts_at=%2010000-01-01T00:00:00&ends_at=%2010001-01-01T00:00:00z | +10000-01-01T00:00 | +10001-01-01T01:00 | 1000",
        // a space around a four-digit year's value is only a space, as before
        "starts_at=%202021-02-01T00:00:00&ends_at=2021-02-02T00:00:00%20 | 2021-02-01T00:00 | 2021-02-02T00:00 | 1000",
        // instants in order in the fall-back hour (Madrid, 2021-10-31: 02:00-03:00 twice): 02:45 CEST, then
        // 02:15 CET; wall times cannot tell the two passes apart, so the whole hour is taken
        "starts_at=2021-10-31T00:45:00Z&ends_at=2021-10-31T01:15:00Z | 2021-10-31T02:00 | 2021-10-31T02:59:59.999999999 | 1000",
        "starts_at=2021-10-31T02:45:00%2B02:00&ends_at=2021-10-31T02:15:00%2B01:00 | 2021-10-31T02:00 | 2021-10-31T02:59:59.999999999 | 1000",
        // one end outside the hour, a wall time or open: the other end's pass is widened to the hour's edge
        "starts_at=2021-10-31T00:45:00Z&ends_at=2021-10-31T02:30:00Z | 2021-10-31T02:00 | 2021-10-31T03:30 | 1000",
        "starts_at=2021-10-30T23:30:00Z&ends_at=2021-10-31T01:15:00Z | 2021-10-31T01:30 | 2021-10-31T02:59:59.999999999 | 1000",
        "starts_at=2021-10-31T00:45:00Z&ends_at=2021-10-31T03:30:00 | 2021-10-31T02:00 | 2021-10-31T03:30 | 1000",
        "starts_at=2021-10-31T00:45:00Z | 2021-10-31T02:00 | - | 1000",
        "ends_at=2021-10-31T01:15:00Z | - | 2021-10-31T02:59:59.999999999 | 1000",
        // both ends in one pass: nothing to widen
        "starts_at=2021-10-31T00:10:00Z&ends_at=2021-10-31T00:40:00Z | 2021-10-31T02:10 | 2021-10-31T02:40 | 1000",
        "starts_at=2021-10-31T01:10:00Z&ends_at=2021-10-31T01:40:00Z | 2021-10-31T02:10 | 2021-10-31T02:40 | 1000"})
    void theNextLinkReadsBackAsTheSameQueryWithTheCursor(String query, String from, String to, int limit) {
        SearchQuery q = SearchQuery.parse(params("/search?" + query), MADRID);
        assertThat(q.from()).isEqualTo(from == null ? null : LocalDateTime.parse(from));
        assertThat(q.to()).isEqualTo(to == null ? null : LocalDateTime.parse(to));
        assertThat(q.limit()).isEqualTo(limit);

        Cursor c = Cursor.after(1_614_000_000L, UUID.fromString("f47ac10b-58cc-4372-a567-0e02b2c3d479"));
        String link = q.nextLink(c);
        assertThat(link).startsWith("/search?").doesNotContain("+", " ");
        SearchQuery next = SearchQuery.parse(params(link), MADRID);
        assertThat(next).isEqualTo(new SearchQuery(q.from(), q.to(), q.limit(), c));
    }
}
