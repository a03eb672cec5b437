package dev.brisk.internal.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class HpackDecoderTest {
    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    private static List<String> decode(HpackDecoder d, String block) throws Http2Exception {
        List<String> out = new ArrayList<>();
        byte[] b = hex(block);
        d.decode(b, 0, b.length, (n, no, nl, v, vo, vl) -> out.add(new String(n, no, nl, StandardCharsets.ISO_8859_1)
                + ": " + new String(v, vo, vl, StandardCharsets.ISO_8859_1)));
        return out;
    }

    /** RFC 7541 C.3: three requests without Huffman coding, on one connection. */
    @Test
    void decodesTheRfcRequestsWithoutHuffman() throws Exception {
        HpackDecoder d = new HpackDecoder(4096);
        assertThat(decode(d, "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d"))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com");
        assertThat(d.tableSize()).isEqualTo(57);
        assertThat(decode(d, "8286 84be 5808 6e6f 2d63 6163 6865"))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                        "cache-control: no-cache");
        assertThat(d.tableSize()).isEqualTo(110);
        assertThat(decode(d, "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"))
                .containsExactly(":method: GET", ":scheme: https", ":path: /index.html",
                        ":authority: www.example.com", "custom-key: custom-value");
        assertThat(d.tableSize()).isEqualTo(164);
        assertThat(d.tableEntries()).isEqualTo(3);
    }

    /** RFC 7541 C.4: the same requests with Huffman coding. */
    @Test
    void decodesTheRfcRequestsWithHuffman() throws Exception {
        HpackDecoder d = new HpackDecoder(4096);
        assertThat(decode(d, "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"))
                .containsExactly(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com");
        assertThat(decode(d, "8286 84be 5886 a8eb 1064 9cbf")).endsWith("cache-control: no-cache");
        assertThat(decode(d, "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"))
                .endsWith("custom-key: custom-value");
        assertThat(d.tableSize()).isEqualTo(164);
    }

    @Test
    void evictsTheOldestEntriesToStayWithinTheTableSize() throws Exception {
        HpackDecoder d = new HpackDecoder(100);
        decode(d, "3f45"); // size update to 100: 0x20 | 31, then 69
        // custom-key: custom-value is 54 bytes: two do not fit in 100
        decode(d, "400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65");
        decode(d, "400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 66");
        assertThat(d.tableEntries()).isEqualTo(1);
        assertThat(d.tableSize()).isEqualTo(54);
        assertThat(decode(d, "be")).containsExactly("custom-key: custom-valuf");
        assertThatThrownBy(() -> decode(d, "bf")).isInstanceOf(Http2Exception.class)
                .extracting(e -> ((Http2Exception) e).code).isEqualTo(H2.COMPRESSION_ERROR);
    }

    @Test
    void aSizeUpdateEvictsOnlyWhatNoLongerFits() throws Exception {
        // RFC 7541 4.3: entries go from the oldest until the table fits the new size; the rest stay, and a
        // client's encoder goes on referring to them (found by HpackDecoderFuzzTest: all were dropped)
        HpackDecoder d = new HpackDecoder(4096);
        decode(d, "4003 6162 6303 6465 66"); // abc: def, 38 bytes
        decode(d, "4003 6768 6903 6a6b 6c"); // ghi: jkl, 38 bytes, the newest
        decode(d, "3f 1d"); // size update to 60: room for one
        assertThat(d.tableEntries()).isEqualTo(1);
        assertThat(d.tableSize()).isEqualTo(38);
        assertThat(decode(d, "be")).containsExactly("ghi: jkl");
        decode(d, "3f e1 1f 82"); // back to 4096 (a field after it): nothing more goes
        assertThat(decode(d, "be")).containsExactly("ghi: jkl");
        decode(d, "20"); // size update to 0: empty
        assertThat(d.tableEntries()).isZero();
    }

    @Test
    void anEntryLargerThanTheTableEmptiesIt() throws Exception {
        HpackDecoder d = new HpackDecoder(4096);
        decode(d, "3f 15"); // size update to 52
        decode(d, "4003 6162 6303 6465 66"); // abc: def, 38 bytes
        assertThat(d.tableEntries()).isEqualTo(1);
        decode(d, "400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"); // 54 > 52
        assertThat(d.tableEntries()).isZero();
        assertThat(d.tableSize()).isZero();
    }

    @Test
    void refusesWhatRfc7541Forbids() {
        HpackDecoder d = new HpackDecoder(4096);
        assertCompression(d, "80", "index 0");
        assertCompression(new HpackDecoder(4096), "be", "an index beyond the tables");
        assertCompression(new HpackDecoder(4096), "82 3f e1 1f", "a size update after a field");
        assertCompression(new HpackDecoder(4096), "3f e2 1f", "a size update above SETTINGS_HEADER_TABLE_SIZE");
        assertCompression(new HpackDecoder(4096), "00 05 6162", "a string longer than its block");
        assertCompression(new HpackDecoder(4096), "00 81 18 00", "bad Huffman padding");
        assertCompression(new HpackDecoder(4096), "ff ff ff ff ff 0f", "an integer too large");
        assertCompression(new HpackDecoder(4096), "ff", "an integer cut off");
    }

    private static void assertCompression(HpackDecoder d, String block, String why) {
        assertThatThrownBy(() -> decode(d, block)).as(why).isInstanceOf(Http2Exception.class)
                .extracting(e -> ((Http2Exception) e).code).isEqualTo(H2.COMPRESSION_ERROR);
    }

    @Test
    void aBombDecodesToAListTheSinkBounds() throws Exception {
        // one 4 KiB entry, then a block that references it a thousand times: 4 MiB decoded from 1 KiB
        HpackDecoder d = new HpackDecoder(4096);
        byte[] big = new byte[4000];
        java.util.Arrays.fill(big, (byte) 'a');
        byte[] insert = new byte[6 + big.length];
        insert[0] = 0x40 | 0; // literal with incremental indexing, new name
        insert[1] = 1;
        insert[2] = 'x';
        insert[3] = 0x7f; // value length 4000 = 127 + 3873: 0x7f, then 3873 in 7-bit groups
        insert[4] = (byte) (0x80 | (3873 & 0x7f));
        insert[5] = (byte) (3873 >>> 7);
        System.arraycopy(big, 0, insert, 6, big.length);
        d.decode(insert, 0, insert.length, (n, no, nl, v, vo, vl) -> { });
        byte[] bomb = new byte[1000];
        java.util.Arrays.fill(bomb, (byte) 0xbe);
        RequestFields fields = new RequestFields(16 * 1024, 200, 16 * 1024);
        fields.reset(false);
        d.decode(bomb, 0, bomb.length, fields);
        assertThat(fields.tooLarge()).isTrue();
    }
}
