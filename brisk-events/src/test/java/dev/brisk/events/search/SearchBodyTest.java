package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchBodyTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "gzip | true", "GZIP | true", "deflate, gzip | true", "gzip;q=0.5 | true", "br, *;q=0.1 | true",
        "x-gzip | true", "gzip;q=0 | false", "gzip; q=0.0 | false", "gzip;q=oops | false", "deflate, br | false",
        "identity | false", "'' | false", "NULL | false", "gzipper | false"})
    void acceptEncoding(String header, boolean gzip) {
        assertThat(SearchBody.acceptsGzip(header)).isEqualTo(gzip);
    }

    @Test
    void gzipFormRoundTripsAndIsMadeOnce() throws Exception {
        byte[] json = "{\"id\":\"abc\",\"title\":\"a month of events\"},".repeat(500).getBytes(StandardCharsets.UTF_8);
        SearchBody body = new SearchBody(json);
        assertThat(body.compressible()).isTrue();
        byte[] gz = body.gzip();
        assertThat(body.gzip()).isSameAs(gz);
        assertThat(gz.length).isLessThan(json.length / 10);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            assertThat(in.readAllBytes()).isEqualTo(json);
        }
        assertThat(new SearchBody(new byte[100]).compressible()).isFalse();
    }
}
