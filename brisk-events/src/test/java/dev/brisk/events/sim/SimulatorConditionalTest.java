package dev.brisk.events.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** ETag / Last-Modified validators and 304 answers. */
class SimulatorConditionalTest {
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private static ProviderSimulator start(Dialect d) {
        return ProviderSimulator.start(SimulatorOptions.builder().dialect(d).events(50).zones(3).build());
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void ifNoneMatchWithTheCurrentETagGives304UntilTheNextGeneration(Dialect d) throws Exception {
        try (ProviderSimulator sim = start(d)) {
            HttpResponse<byte[]> first = SimHttp.get(sim.feedUrl());
            String etag = first.headers().firstValue("ETag").orElseThrow();
            assertThat(etag).matches("\"[^\"]+\"").endsWith("-" + d + "\"");

            HttpResponse<byte[]> again = SimHttp.get(sim.feedUrl(), "If-None-Match", etag);
            assertThat(again.statusCode()).isEqualTo(304);
            assertThat(again.body()).isEmpty();
            assertThat(again.headers().firstValue("ETag")).hasValue(etag);
            assertThat(again.headers().firstValue("Last-Modified")).isEqualTo(first.headers().firstValue("Last-Modified"));
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", "W/" + etag).statusCode()).isEqualTo(304);
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", "\"other\", " + etag).statusCode()).isEqualTo(304);
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", "*").statusCode()).isEqualTo(304);
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
            assertThat(sim.stats().notModified()).isEqualTo(4);
            assertThat(sim.stats().served()).isEqualTo(2);

            sim.advance();
            HttpResponse<byte[]> changed = SimHttp.get(sim.feedUrl(), "If-None-Match", etag);
            assertThat(changed.statusCode()).isEqualTo(200);
            assertThat(changed.body()).isNotEqualTo(first.body());
            String newTag = changed.headers().firstValue("ETag").orElseThrow();
            assertThat(newTag).isNotEqualTo(etag);
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", newTag).statusCode()).isEqualTo(304);
        }
    }

    @Test
    void ifModifiedSinceComparesWithLastModified() throws Exception {
        try (ProviderSimulator sim = start(Dialect.A)) {
            HttpResponse<byte[]> first = SimHttp.get(sim.feedUrl());
            String lastModified = first.headers().firstValue("Last-Modified").orElseThrow();
            ZonedDateTime lm = ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME);

            assertThat(SimHttp.get(sim.feedUrl(), "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
            assertThat(SimHttp.get(sim.feedUrl(), "If-Modified-Since", HTTP_DATE.format(lm.plusHours(1))).statusCode())
                    .isEqualTo(304);
            assertThat(SimHttp.get(sim.feedUrl(), "If-Modified-Since", HTTP_DATE.format(lm.minusSeconds(1))).statusCode())
                    .isEqualTo(200);
            assertThat(SimHttp.get(sim.feedUrl(), "If-Modified-Since", "yesterday").statusCode()).isEqualTo(200);
            // If-None-Match decides when both are sent
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", "\"other\"", "If-Modified-Since", lastModified)
                    .statusCode()).isEqualTo(200);

            sim.advance(); // within the same second: Last-Modified must still move on
            HttpResponse<byte[]> changed = SimHttp.get(sim.feedUrl(), "If-Modified-Since", lastModified);
            assertThat(changed.statusCode()).isEqualTo(200);
            ZonedDateTime newLm = ZonedDateTime.parse(changed.headers().firstValue("Last-Modified").orElseThrow(),
                    DateTimeFormatter.RFC_1123_DATE_TIME);
            assertThat(newLm).isAfter(lm);
        }
    }

    @Test
    void eachDialectHasItsOwnETag() throws Exception {
        try (ProviderSimulator sim = start(Dialect.A)) {
            String a = SimHttp.get(sim.feedUrl()).headers().firstValue("ETag").orElseThrow();
            HttpResponse<byte[]> b = SimHttp.get(sim.feedUrl() + "?dialect=B", "If-None-Match", a);
            assertThat(b.statusCode()).isEqualTo(200);
            assertThat(b.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(a);
        }
    }

    @Test
    void aNewBadRecordRateIsANewDocument() throws Exception {
        try (ProviderSimulator sim = start(Dialect.A)) {
            String etag = SimHttp.get(sim.feedUrl()).headers().firstValue("ETag").orElseThrow();
            sim.badRecordRate(0.5);
            assertThat(SimHttp.get(sim.feedUrl(), "If-None-Match", etag).statusCode()).isEqualTo(200);
            assertThat(sim.generation()).isEqualTo(1);
        }
    }
}
