package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HpackEncoderTest {
    private static List<String> decode(HpackDecoder d, HpackEncoder e) throws Http2Exception {
        List<String> out = new ArrayList<>();
        d.decode(e.bytes(), 0, e.length(), (n, no, nl, v, vo, vl) -> out.add(
                new String(n, no, nl, StandardCharsets.ISO_8859_1) + ": " + new String(v, vo, vl, StandardCharsets.ISO_8859_1)));
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 204, 206, 304, 400, 404, 500, 201, 302, 431, 503, 599})
    void statusRoundTrips(int status) throws Exception {
        HpackEncoder e = new HpackEncoder();
        e.begin();
        e.status(status);
        assertThat(decode(new HpackDecoder(4096), e)).containsExactly(":status: " + status);
        assertThat(e.length()).isLessThanOrEqualTo(5);
    }

    @Test
    void fieldsRoundTripWithNamesInLowerCase() throws Exception {
        HpackEncoder e = new HpackEncoder();
        e.begin();
        e.status(200);
        e.field("Content-Type", "text/plain; charset=utf-8");
        e.field("X-Request-Id", "abc-123");
        e.field("set-cookie", "a=b; Path=/; HttpOnly");
        e.field("x-empty", "");
        e.field("x-latin1", "caf\u00e9");
        byte[] date = "Date: Tue, 24 Nov 2026 04:23:28 GMT\r\n".getBytes(StandardCharsets.US_ASCII);
        e.field(33, date, 6, date.length - 8);
        HpackDecoder d = new HpackDecoder(4096);
        assertThat(decode(d, e)).containsExactly(":status: 200", "content-type: text/plain; charset=utf-8",
                "x-request-id: abc-123", "set-cookie: a=b; Path=/; HttpOnly", "x-empty: ", "x-latin1: caf\u00e9",
                "date: Tue, 24 Nov 2026 04:23:28 GMT");
        assertThat(d.tableEntries()).as("the encoder never indexes").isZero();
    }

    @Test
    void numbersAreWrittenWithoutAString() throws Exception {
        HpackEncoder e = new HpackEncoder();
        e.begin();
        e.field(28, 0);
        e.field(28, 7);
        e.field(28, 1_234_567_890_123L);
        assertThat(decode(new HpackDecoder(4096), e))
                .containsExactly("content-length: 0", "content-length: 7", "content-length: 1234567890123");
    }

    @Test
    void aLowerPeerTableSizeIsAnnouncedAtTheStartOfTheNextBlock() throws Exception {
        HpackEncoder e = new HpackEncoder();
        e.peerTableSize(0);
        e.begin();
        e.status(200);
        assertThat(e.bytes()[0] & 0xff).as("size update to 0").isEqualTo(0x20);
        assertThat(decode(new HpackDecoder(4096), e)).containsExactly(":status: 200");
        e.begin();
        e.status(200);
        assertThat(e.length()).as("announced once").isEqualTo(1);
    }

    @Test
    void aSizeUpdateInABlockThatIsNotSentGoesIntoTheNext() throws Exception {
        HpackEncoder e = new HpackEncoder();
        e.peerTableSize(0);
        e.begin();
        e.status(200);
        for (int i = 0; i < 40 && !e.tooLarge(); i++) {
            e.field("x-big-" + i, "v".repeat(60_000));
        }
        assertThat(e.tooLarge()).isTrue();
        e.abandon();
        e.begin();
        e.status(500);
        assertThat(e.bytes()[0] & 0xff).as("size update to 0, still owed").isEqualTo(0x20);
        assertThat(decode(new HpackDecoder(4096), e)).containsExactly(":status: 500");
        e.begin();
        e.status(200);
        assertThat(e.length()).as("announced once it is sent").isEqualTo(1);
    }

    @Test
    void aBlockOverTheLimitIsFlaggedAndStopsGrowing() {
        HpackEncoder e = new HpackEncoder();
        e.begin();
        String value = "v".repeat(60_000);
        for (int i = 0; i < 40; i++) {
            e.field("x-big-" + i, value);
        }
        assertThat(e.tooLarge()).isTrue();
        assertThat(e.length()).isLessThan(HpackEncoder.MAX_BLOCK + 70_000);
    }
}
