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
}
