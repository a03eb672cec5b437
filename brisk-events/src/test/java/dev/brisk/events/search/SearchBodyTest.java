package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
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
        ByteBuffer gz = body.gzip();
        assertThat(body.gzip()).isSameAs(gz);
        assertThat(gz.remaining()).isLessThan(json.length / 10);
        assertThat(gunzip(gz)).isEqualTo(json);
        assertThat(bytes(body.identity())).isEqualTo(json);
        assertThat(new SearchBody(new byte[100]).compressible()).isFalse();
    }

    @Test
    void aKeptBodyIsDirectReadOnlyAndCarriesBothForms() throws Exception {
        byte[] json = "{\"title\":\"kept for many requests\"},".repeat(300).getBytes(StandardCharsets.UTF_8);
        SearchBody heap = new SearchBody(json);
        assertThat(heap.identity().isDirect()).isFalse();
        ByteBuffer heapGzip = heap.gzip();

        SearchBody kept = heap.kept();
        assertThat(kept.identity().isDirect()).isTrue();
        assertThat(kept.identity().isReadOnly()).isTrue();
        assertThat(kept.kept()).isSameAs(kept);
        assertThat(bytes(kept.identity())).isEqualTo(json);
        assertThat(kept.length()).isEqualTo(json.length);
        assertThat(kept.gzip().isDirect()).as("the gzip form made before keeping moves along").isTrue();
        assertThat(bytes(kept.gzip())).isEqualTo(bytes(heapGzip));

        SearchBody keptFirst = new SearchBody(json).kept();
        assertThat(keptFirst.gzip().isDirect()).as("a gzip form made after keeping is direct too").isTrue();
        assertThat(gunzip(keptFirst.gzip())).isEqualTo(json);
        assertThat(keptFirst.identity().position()).as("reading never consumes the shared buffer").isZero();
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    private static byte[] gunzip(ByteBuffer gz) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes(gz)))) {
            return in.readAllBytes();
        }
    }
}
