package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.ChildJvm;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Memory stays bounded while parsing: a feed of some 200 MB (1,000 events × 2,000 zones), streamed,
 * is read in a JVM whose whole heap is 48 MB. A parser that kept the document, or the zones, could not.
 */
class FeedMemoryTest {
    static final int EVENTS = 1_000;
    static final int ZONES = 2_000;

    @Test
    void aFeedFourTimesTheHeapParsesInABoundedHeap() throws Exception {
        try (ChildJvm child = new ChildJvm(Probe.class.getName(), Map.of(), "-Xmx48m")) {
            String line = child.await(l -> l.startsWith("parsed ") || l.contains("Error"), 120);
            assertThat(line).isEqualTo("parsed " + EVENTS + " events, min 1.0 max 2000.0, bytes > 150000000: true");
            assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process().exitValue()).isZero();
        }
    }

    /** Runs in the child JVM: generates the feed on the fly and parses it. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            Generated feed = new Generated();
            FeedResult r = new FeedParser().parse(feed);
            double min = r.events().stream().mapToDouble(e -> e.minPrice()).min().orElse(-1);
            double max = r.events().stream().mapToDouble(e -> e.maxPrice()).max().orElse(-1);
            System.out.println("parsed " + r.events().size() + " events, min " + min + " max " + max
                    + ", bytes > 150000000: " + (feed.produced > 150_000_000L));
        }
    }

    /** The document, produced piece by piece as it is read: never held whole. */
    static final class Generated extends InputStream {
        private byte[] piece = "<planList><output>".getBytes(StandardCharsets.US_ASCII);
        private int pos;
        private int event;
        private boolean done;
        long produced;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (pos == piece.length) {
                if (done) {
                    return -1;
                }
                next();
            }
            int n = Math.min(len, piece.length - pos);
            System.arraycopy(piece, pos, b, off, n);
            pos += n;
            produced += n;
            return n;
        }

        private void next() {
            pos = 0;
            if (event == EVENTS) {
                piece = "</output></planList>".getBytes(StandardCharsets.US_ASCII);
                done = true;
                return;
            }
            StringBuilder sb = new StringBuilder(ZONES * 110);
            sb.append("<base_plan base_plan_id=\"").append(event).append("\" sell_mode=\"online\" title=\"Event ")
                    .append(event).append("\"><plan plan_id=\"1\" plan_start_date=\"2021-06-30T21:00:00\" ")
                    .append("plan_end_date=\"2021-06-30T22:00:00\" sell_from=\"2021-01-01T00:00:00\" sold_out=\"false\">");
            for (int z = 1; z <= ZONES; z++) {
                sb.append("<zone zone_id=\"").append(z).append("\" capacity=\"100\" price=\"").append(z)
                        .append(".00\" name=\"Zone number ").append(z).append(" of the hall\" numbered=\"true\"/>\n");
            }
            sb.append("</plan></base_plan>\n");
            piece = sb.toString().getBytes(StandardCharsets.US_ASCII);
            event++;
        }
    }
}
