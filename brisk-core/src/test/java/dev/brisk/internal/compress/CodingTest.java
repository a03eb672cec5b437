package dev.brisk.internal.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Compression;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;

/** Both codings, whole and streamed, against the JDK's decoders, at sizes around the buffers' edges. */
class CodingTest {
    private static final int[] SIZES = {0, 1, 100, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 200_000};

    private static byte[] data(int n, boolean random) {
        byte[] b = new byte[n];
        Random r = new Random(n);
        for (int i = 0; i < n; i++) {
            b[i] = random ? (byte) r.nextInt() : (byte) ('a' + (i % 7) + (i / 1000 % 3));
        }
        return b;
    }

    private static byte[] decode(byte[] b, boolean gzip) throws IOException {
        try (InputStream in = gzip ? new GZIPInputStream(new ByteArrayInputStream(b)) : new InflaterInputStream(new ByteArrayInputStream(b))) {
            return in.readAllBytes();
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void wholeBodiesRoundTrip() throws IOException {
        for (boolean gzip : new boolean[] {true, false}) {
            for (int level : new int[] {1, 6, 9}) {
                Coding c = gzip ? Coding.gzip(level) : Coding.deflate(level);
                for (int n : SIZES) {
                    for (boolean random : new boolean[] {false, true}) {
                        byte[] in = data(n, random);
                        ByteBuffer src = ByteBuffer.wrap(in);
                        byte[] encoded = bytes(c.encode(src));
                        assertThat(src.position()).isZero();
                        assertThat(decode(encoded, gzip)).as("%s level %d, %d bytes", c.name(), level, n).isEqualTo(in);
                    }
                }
            }
        }
    }

    @Test
    void streamsRoundTripWhateverTheReadSize() throws IOException {
        for (boolean gzip : new boolean[] {true, false}) {
            Coding c = gzip ? Coding.gzip(Compression.DEFAULT_LEVEL) : Coding.deflate(Compression.DEFAULT_LEVEL);
            for (int n : SIZES) {
                for (int readSize : new int[] {1, 7, 4096, 65536}) {
                    byte[] in = data(n, n % 2 == 0);
                    AtomicBoolean sourceClosed = new AtomicBoolean();
                    InputStream source = new ByteArrayInputStream(in) {
                        @Override
                        public void close() {
                            sourceClosed.set(true);
                        }
                    };
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    try (EncodingStream s = new EncodingStream(source, c)) {
                        byte[] buf = new byte[readSize];
                        int r;
                        while ((r = s.read(buf, 0, readSize)) >= 0) {
                            out.write(buf, 0, r);
                        }
                    }
                    assertThat(sourceClosed).isTrue();
                    assertThat(decode(out.toByteArray(), gzip)).as("%s, %d bytes read %d at a time", c.name(), n, readSize).isEqualTo(in);
                }
            }
        }
    }

    @Test
    void aDeflaterGoesBackToThePoolOnce() throws IOException {
        Deflaters pool = new Deflaters(1, true);
        var d = pool.acquire();
        pool.release(d);
        assertThat(pool.acquire()).as("reused").isSameAs(d);
        Coding c = Coding.gzip(2);
        EncodingStream s = new EncodingStream(new ByteArrayInputStream(new byte[10]), c);
        s.close();
        s.close(); // a second close must not give the deflater back twice
        var a = c.deflaters().acquire();
        var b = c.deflaters().acquire();
        assertThat(a).isNotSameAs(b);
    }

    /**
     * A file that shrank while it was sent (its stream, sized at 1,000 bytes, ends after 500): encoding it
     * fails rather than close the gzip stream cleanly, which would pass the cut body off as whole.
     */
    @Test
    void aSizedBodyThatEndsShortFailsTheEncoding() throws IOException {
        for (boolean gzip : new boolean[] {true, false}) {
            dev.brisk.internal.files.SizedBody shrunk = new dev.brisk.internal.files.SizedBody() {
                private final InputStream in = new ByteArrayInputStream(data(500, false));

                @Override
                public long length() {
                    return 1_000;
                }

                @Override
                public int read() throws IOException {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    return in.read(b, off, len);
                }
            };
            try (EncodingStream s = new EncodingStream(shrunk, gzip ? Coding.gzip(2) : Coding.deflate(2))) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> pieces(s)).isInstanceOf(IOException.class)
                        .hasMessageContaining("ended after 500 of its 1000 bytes");
            }
        }
    }

    /** A producer's stream: nothing ever "available", so the encoder cannot know whether the next read waits. */
    private static InputStream producer(byte[] in, int piece) {
        return new ByteArrayInputStream(in) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, piece));
            }

            @Override
            public synchronized int available() {
                return 0;
            }
        };
    }

    private static java.util.List<byte[]> pieces(EncodingStream s) throws IOException {
        java.util.List<byte[]> pieces = new java.util.ArrayList<>();
        byte[] buf = new byte[64 * 1024];
        int r;
        while ((r = s.read(buf, 0, buf.length)) >= 0) {
            pieces.add(java.util.Arrays.copyOf(buf, r));
        }
        return pieces;
    }

    private static byte[] joined(java.util.List<byte[]> pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pieces.forEach(out::writeBytes);
        return out.toByteArray();
    }

    @Test
    void aSourceWithEverythingReadyIsEncodedInFewLargePieces() throws IOException {
        byte[] in = data(200_000, false);
        try (EncodingStream s = new EncodingStream(new ByteArrayInputStream(in), Coding.gzip(Compression.DEFAULT_LEVEL))) {
            var pieces = pieces(s);
            // flushed per 16 KiB read, it came out in 14 pieces, the gzip header alone in the first
            assertThat(pieces).as("pieces").hasSizeLessThanOrEqualTo(2);
            assertThat(decode(joined(pieces), true)).isEqualTo(in);
        }
    }

    @Test
    void aProducersEveryPieceIsFlushedBeforeTheNextReadAndTheHeaderComesAtOnce() throws IOException {
        byte[] in = data(50_000, false);
        int piece = 5_000;
        try (EncodingStream s = new EncodingStream(producer(in, piece), Coding.gzip(Compression.DEFAULT_LEVEL))) {
            byte[] buf = new byte[64 * 1024];
            int first = s.read(buf, 0, buf.length);
            assertThat(first).as("the gzip header, before the producer is waited on").isEqualTo(Coding.GZIP_HEADER.length);
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            sent.write(buf, 0, first);
            for (int k = 1; k <= in.length / piece; k++) {
                int r = s.read(buf, 0, buf.length);
                sent.write(buf, 0, r);
                // what was sent so far decodes to the pieces read so far: each was flushed
                java.util.zip.Inflater inf = new java.util.zip.Inflater(true);
                byte[] all = sent.toByteArray();
                inf.setInput(all, Coding.GZIP_HEADER.length, all.length - Coding.GZIP_HEADER.length);
                byte[] got = new byte[in.length];
                int n;
                try {
                    n = inf.inflate(got);
                } catch (java.util.zip.DataFormatException e) {
                    throw new AssertionError(e);
                } finally {
                    inf.end();
                }
                assertThat(n).as("bytes decodable after piece %d", k).isEqualTo(k * piece);
            }
            sent.writeBytes(joined(pieces(s)));
            assertThat(decode(sent.toByteArray(), true)).isEqualTo(in);
        }
    }

    @Test
    void aCloseDuringAReadLeavesThePooledPartsToTheRead() throws IOException {
        Coding c = Coding.deflate(4);
        EncodingStream[] stream = new EncodingStream[1];
        int[] freeDuringRead = new int[1];
        InputStream source = new ByteArrayInputStream(new byte[100]) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                try {
                    stream[0].close(); // as another thread's close would, while this read runs
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                freeDuringRead[0] = c.deflaters().freeBuffers();
                return super.read(b, off, len);
            }
        };
        int before = c.deflaters().freeBuffers();
        stream[0] = new EncodingStream(source, c);
        int taken = c.deflaters().freeBuffers();
        stream[0].read(new byte[1024], 0, 1024);
        assertThat(freeDuringRead[0]).as("still in use by the read").isEqualTo(taken);
        assertThat(c.deflaters().freeBuffers()).as("given back by the read, once").isEqualTo(Math.max(before, taken + 1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> stream[0].read(new byte[10], 0, 10))
                .isInstanceOf(IOException.class);
    }

    @Test
    void sizedStreamsAreEncodedWholeAndAShortOneIsAnError() throws IOException {
        for (boolean gzip : new boolean[] {true, false}) {
            Coding c = gzip ? Coding.gzip(Compression.DEFAULT_LEVEL) : Coding.deflate(Compression.DEFAULT_LEVEL);
            for (int n : SIZES) {
                for (boolean random : new boolean[] {false, true}) {
                    byte[] in = data(n, random);
                    // read in small pieces, as a file may be
                    byte[] encoded = bytes(c.encode(producer(in, 1000), n));
                    assertThat(decode(encoded, gzip)).as("%s, %d bytes, random %s", c.name(), n, random).isEqualTo(in);
                }
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.encode(new ByteArrayInputStream(new byte[100]), 101))
                    .isInstanceOf(IOException.class).hasMessageContaining("100 of its 101");
        }
    }

    /**
     * Files (the static mount's bodies): regions of a real file, read whole into a pooled direct buffer
     * while one is free, by the heap path past the pool's bound or past its size; each must decode to
     * the region's bytes, and a file shorter than its region is an error.
     */
    @Test
    void fileRegionsAreEncodedWholeFromDirectBuffersOrTheHeap(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        int[] sizes = {1, 100, 16 * 1024 + 1, 200_000, Deflaters.WHOLE, Deflaters.WHOLE + 1};
        for (boolean gzip : new boolean[] {true, false}) {
            Coding c = gzip ? Coding.gzip(3) : Coding.deflate(3);
            for (int n : sizes) {
                byte[] all = data(n + 20, false);
                java.nio.file.Path file = java.nio.file.Files.write(dir.resolve("f" + n), all);
                byte[] want = java.util.Arrays.copyOfRange(all, 7, 7 + n); // a region that starts inside the file
                try (var region = region(file, 7, n)) {
                    assertThat(decode(bytes(c.encode(region, n)), gzip)).as("%s, %d bytes", c.name(), n).isEqualTo(want);
                }
            }
            // every direct buffer taken: the next file goes through the heap, with the same result
            java.util.List<ByteBuffer> taken = new java.util.ArrayList<>();
            for (ByteBuffer b; (b = c.deflaters().acquireDirect()) != null; ) {
                taken.add(b);
            }
            assertThat(taken).as("bounded").hasSizeLessThanOrEqualTo(Math.max(2, 2 * Runtime.getRuntime().availableProcessors()));
            byte[] all = data(50_000, true);
            java.nio.file.Path file = java.nio.file.Files.write(dir.resolve("heap"), all);
            try (var region = region(file, 0, all.length)) {
                assertThat(decode(bytes(c.encode(region, all.length)), gzip)).isEqualTo(all);
            }
            taken.forEach(c.deflaters()::releaseDirect);
            // a file that shrank below its region: an error, and the buffer goes back
            java.nio.file.Path shrunk = java.nio.file.Files.write(dir.resolve("shrunk"), new byte[100]);
            try (var region = region(shrunk, 0, 101)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.encode(region, 101))
                        .isInstanceOf(IOException.class).hasMessageContaining("100 of its 101");
            }
            ByteBuffer back = c.deflaters().acquireDirect();
            assertThat(back).as("given back after the failure").isNotNull();
            c.deflaters().releaseDirect(back);
        }
    }

    private static dev.brisk.internal.files.FileRegion region(java.nio.file.Path file, long start, long length)
            throws IOException {
        return new dev.brisk.internal.files.FileRegion(java.nio.channels.FileChannel.open(file), start, length, () -> { });
    }
}
