package dev.brisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The helpers for a handler that keeps encoded forms of its own (the event service's page cache). */
class CompressionTest {
    @ParameterizedTest(name = "{0} admits {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "gzip | gzip | true", "GZIP | Gzip | true", "x-gzip | gzip | true", "br, *;q=0.1 | gzip | true",
        "gzip;q=0 | gzip | false", "gzip;q=oops | gzip | false", "deflate | gzip | false", "deflate | deflate | true",
        "'' | gzip | false", "NULL | gzip | false", "gzipper | gzip | false", "*;q=0, gzip | gzip | true"})
    void acceptsByQValue(String header, String coding, boolean admitted) {
        assertThat(Compression.accepts(header, coding)).isEqualTo(admitted);
    }

    @Test
    void gzipEncodesWithoutMovingTheSource() throws IOException {
        byte[] json = "{\"title\":\"an event\",\"tags\":[\"music\"]},".repeat(1000).getBytes(StandardCharsets.UTF_8);
        ByteBuffer src = ByteBuffer.wrap(json);
        ByteBuffer gz = Compression.gzip(src, 1);
        assertThat(src.position()).isZero();
        assertThat(gz.remaining()).isLessThan(json.length / 10);
        byte[] packed = new byte[gz.remaining()];
        gz.get(packed);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(packed))) {
            assertThat(in.readAllBytes()).isEqualTo(json);
        }
        assertThatThrownBy(() -> Compression.gzip(src, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
