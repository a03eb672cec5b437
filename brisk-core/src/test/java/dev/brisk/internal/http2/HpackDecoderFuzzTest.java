package dev.brisk.internal.http2;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.internal.http.FuzzInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of {@link HpackDecoder} with Jazzer: {@code ./brisk fuzz --target hpack}
 * fuzzes it; the default test run (Jazzer's regression mode) runs it on the seeds of {@link #decode()}
 * and on every input kept in {@code src/test/resources/dev/brisk/internal/http2/HpackDecoderFuzzTestInputs/decode/}.
 *
 * <p>An input is a {@link FuzzInput}: its selector picks the table size the decoder announced
 * ({@link #TABLE_SIZES}), its split points cut the payload into successive header blocks of one
 * connection, decoded by one decoder (so the dynamic table carries from block to block). Properties,
 * checked block by block against {@link ReferenceHpack}:
 * <ul>
 *   <li>where the reference decodes a block, the decoder gives the same fields in the same order, and
 *       its dynamic table then holds the same number of entries and the same size;</li>
 *   <li>where the reference finds the block invalid, the decoder fails it, with a connection error of
 *       {@code COMPRESSION_ERROR} (and the connection, and so the input, ends there);</li>
 *   <li>it throws nothing else; every field it hands its sink lies within the array it is given; the
 *       table never holds more than the size announced.</li>
 * </ul>
 */
class HpackDecoderFuzzTest {
    /** The SETTINGS_HEADER_TABLE_SIZE a connection announced: none, small ones, and the default. */
    static final int[] TABLE_SIZES = {0, 64, 256, 4096};

    /** Seeds: RFC 7541's request examples (C.3 plain, C.4 Huffman) and random valid blocks. */
    static Stream<byte[]> decode() {
        List<byte[]> seeds = new ArrayList<>();
        String[][] rfc = {
            {"828684410f7777772e6578616d706c652e636f6d", "828684be58086e6f2d6361636865",
                "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"},
            {"828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf",
                "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"},
        };
        for (String[] blocks : rfc) {
            byte[][] b = Arrays.stream(blocks).map(HexFormat.of()::parseHex).toArray(byte[][]::new);
            byte[] all = concat(b);
            int[] ends = {b[0].length, b[0].length + b[1].length};
            for (int s = 0; s < TABLE_SIZES.length; s++) {
                seeds.add(FuzzInput.encode(s, ends, all));
            }
        }
        Random r = new Random(0x4A5C);
        for (int i = 0; i < 8; i++) {
            seeds.add(FuzzInput.encode(i, new int[0], randomBlock(r)));
        }
        seeds.add(FuzzInput.encode(3, new int[0], HexFormat.of().parseHex("3fe11f82"))); // a size update, then a field
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] data) {
        FuzzInput in = FuzzInput.of(data);
        int max = TABLE_SIZES[in.selector() % TABLE_SIZES.length];
        byte[] payload = in.payload();
        HpackDecoder decoder = new HpackDecoder(max);
        ReferenceHpack reference = new ReferenceHpack(max);
        int start = 0;
        for (int end : in.ends()) {
            byte[] block = Arrays.copyOfRange(payload, start, end);
            String at = "table size " + max + ", block [" + start + ", " + end + ") of "
                    + HexFormat.of().formatHex(payload) + ": ";
            start = end;
            List<List<String>> expected;
            try {
                expected = reference.decode(block);
            } catch (ReferenceHpack.Invalid e) {
                expectFailure(decoder, block, at + "the reference finds it invalid (" + e.getMessage() + ")");
                return;
            }
            List<List<String>> got = new ArrayList<>();
            try {
                // the block at the start of an array larger than it: the decoder must stay within its length
                byte[] padded = Arrays.copyOf(block, block.length + 3);
                padded[block.length] = (byte) 0x82;
                decoder.decode(padded, 0, block.length, sink(padded, got));
            } catch (Http2Exception e) {
                throw new AssertionError(at + "the decoder refused it (" + e.getMessage() + ") but the reference decodes "
                        + expected);
            } catch (RuntimeException e) {
                throw new AssertionError(at + "the decoder threw " + e, e);
            }
            if (!got.equals(expected)) {
                throw new AssertionError(at + "decoded " + got + " but the reference " + expected);
            }
            if (decoder.tableSize() != reference.size() || decoder.tableEntries() != reference.entries()) {
                throw new AssertionError(at + "table " + decoder.tableEntries() + " entries, " + decoder.tableSize()
                        + " bytes; the reference's " + reference.entries() + ", " + reference.size());
            }
            if (decoder.tableSize() > max) {
                throw new AssertionError(at + "table of " + decoder.tableSize() + " bytes, above " + max);
            }
        }
    }

    private static void expectFailure(HpackDecoder decoder, byte[] block, String at) {
        try {
            decoder.decode(block, 0, block.length, sink(block, new ArrayList<>()));
        } catch (Http2Exception e) {
            if (e.code != H2.COMPRESSION_ERROR) {
                throw new AssertionError(at + ", and the decoder failed it with code " + e.code);
            }
            return;
        } catch (RuntimeException e) {
            throw new AssertionError(at + ", and the decoder threw " + e, e);
        }
        throw new AssertionError(at + ", but the decoder took it");
    }

    private static HpackDecoder.Sink sink(byte[] block, List<List<String>> out) {
        return (n, no, nl, v, vo, vl) -> {
            if (no < 0 || nl < 0 || no + nl > n.length || vo < 0 || vl < 0 || vo + vl > v.length) {
                throw new AssertionError("a field outside its array: name " + no + "+" + nl + " of " + n.length
                        + ", value " + vo + "+" + vl + " of " + v.length);
            }
            out.add(List.of(new String(n, no, nl, StandardCharsets.ISO_8859_1),
                    new String(v, vo, vl, StandardCharsets.ISO_8859_1)));
        };
    }

    /** A valid block of random fields in every representation, encoded here by hand. */
    private static byte[] randomBlock(Random r) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int fields = 1 + r.nextInt(6);
        for (int i = 0; i < fields; i++) {
            int kind = r.nextInt(3);
            if (kind == 0) {
                putInt(out, 0x80, 7, 1 + r.nextInt(StaticTable.SIZE)); // indexed, static
            } else {
                putInt(out, kind == 1 ? 0x40 : 0x00, kind == 1 ? 6 : 4, 0); // a literal name
                putString(out, "x-" + Integer.toHexString(r.nextInt()));
                putString(out, "v" + r.nextInt(1000));
            }
        }
        return out.toByteArray();
    }

    private static void putInt(java.io.ByteArrayOutputStream out, int flags, int prefix, int v) {
        int mask = (1 << prefix) - 1;
        if (v < mask) {
            out.write(flags | v);
            return;
        }
        out.write(flags | mask);
        v -= mask;
        while (v >= 0x80) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static void putString(java.io.ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        putInt(out, 0, 7, b.length);
        out.writeBytes(b);
    }

    private static byte[] concat(byte[][] parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
