package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.events.Event;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A feed of 10,000 events x 100 zones (about 100 MB), generated while it is read so that the test
 * never holds it. Timings are printed, not asserted: the machine is shared.
 */
class FeedLargeFeedTest {
    private static final int EVENTS = 10_000;
    private static final int PLANS_PER_BASE = 10;
    private static final int ZONES = 100;
    private static final LocalDateTime FIRST_START = LocalDateTime.of(2021, 1, 1, 18, 0, 0);

    @Test
    void parsesALargeFeed() throws Exception {
        long size;
        long generateOnly;
        try (GeneratedFeed feed = new GeneratedFeed()) {
            long t0 = System.nanoTime();
            size = feed.transferTo(OutputStream.nullOutputStream());
            generateOnly = System.nanoTime() - t0;
        }
        assertThat(size).isGreaterThan(80_000_000L);

        FeedParser parser = new FeedParser(FeedParser.DEFAULT_MAX_BYTES, new FeedParserTest.RecordingLogger());
        for (String run : new String[] {"first (cold)", "second"}) {
            FeedResult result;
            long t0 = System.nanoTime();
            try (GeneratedFeed feed = new GeneratedFeed()) {
                result = parser.parse(feed);
            }
            long elapsed = System.nanoTime() - t0;
            System.out.printf("large feed (%d events x %d zones, %.1f MB), %s run: %d ms parsing "
                            + "(generating alone took %d ms)%n", EVENTS, ZONES, size / 1e6, run,
                    elapsed / 1_000_000, generateOnly / 1_000_000);

            assertThat(result.records()).isEqualTo(EVENTS);
            assertThat(result.skipped()).isZero();
            assertThat(result.notOnline()).isZero();
            List<Event> events = result.events();
            assertThat(events).hasSize(EVENTS);
            for (int i = 0; i < EVENTS; i++) {
                assertThat(events.get(i)).isEqualTo(expected(i));
            }
        }
    }

    private static Event expected(int i) {
        LocalDateTime start = FIRST_START.plusHours(i);
        double min = i % 100;
        return Event.of(baseId(i), planId(i), title(i), start, start.plusMinutes(90), min, min + (ZONES - 1) * 0.25);
    }

    private static String baseId(int i) {
        return "base-" + i / PLANS_PER_BASE;
    }

    /** Plan ids repeat under every base, as the provider's do. */
    private static String planId(int i) {
        return String.valueOf(i % PLANS_PER_BASE);
    }

    private static String title(int i) {
        return "Concierto n\u00ba " + i / PLANS_PER_BASE + " & friends";
    }

    /**
     * The feed, produced one plan at a time as it is read. A plan's zones depend only on its index
     * modulo 100, so those 100 zone lists are rendered once: the time measured is the parser's.
     */
    private static final class GeneratedFeed extends InputStream {
        private static final byte[][] ZONE_LISTS = new byte[100][];

        static {
            for (int k = 0; k < ZONE_LISTS.length; k++) {
                StringBuilder zones = new StringBuilder(ZONES * 96);
                for (int z = 0; z < ZONES; z++) {
                    int step = (z * 37 + 11) % ZONES; // a permutation: the cheapest zone is the 98th, the dearest the 25th
                    int cents = k * 100 + step * 25;
                    zones.append("    <zone zone_id=\"").append(z).append("\" capacity=\"").append(100 + z)
                            .append("\" price=\"").append(cents / 100).append('.').append(cents % 100 / 10)
                            .append(cents % 10).append("\" name=\"Zona ").append(z).append("\" numbered=\"true\" />\n");
                }
                ZONE_LISTS[k] = zones.toString().getBytes(StandardCharsets.UTF_8);
            }
        }

        private int next; // the next event to produce; EVENTS + 1 once the tail was produced
        private byte[][] parts = {("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<planList version=\"1.0\">\n <output>\n")
                .getBytes(StandardCharsets.UTF_8)};
        private int part;
        private int position;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            while (position == parts[part].length) {
                position = 0;
                if (++part == parts.length && !produce()) {
                    part--;
                    position = parts[part].length;
                    return -1;
                }
            }
            int n = Math.min(len, parts[part].length - position);
            System.arraycopy(parts[part], position, b, off, n);
            position += n;
            return n;
        }

        /** The next plan (head, zones, tail) or the document's end; false after that. */
        private boolean produce() {
            if (next > EVENTS) {
                return false;
            }
            if (next == EVENTS) {
                parts = new byte[][] {" </output>\n</planList>\n".getBytes(StandardCharsets.UTF_8)};
            } else {
                parts = new byte[][] {head(next), ZONE_LISTS[next % 100], tail(next)};
            }
            part = 0;
            next++;
            return true;
        }

        private static byte[] head(int i) {
            StringBuilder text = new StringBuilder(400);
            if (i % PLANS_PER_BASE == 0) {
                text.append("  <base_plan base_plan_id=\"").append(baseId(i))
                        .append("\" sell_mode=\"online\" organizer_company_id=\"1\" title=\"")
                        .append(title(i).replace("&", "&amp;")).append("\">\n");
            }
            LocalDateTime start = FIRST_START.plusHours(i);
            text.append("   <plan plan_start_date=\"").append(start).append(":00\" plan_end_date=\"")
                    .append(start.plusMinutes(90)).append(":00\" plan_id=\"").append(planId(i))
                    .append("\" sell_from=\"2020-07-01T00:00:00\" sell_to=\"2021-06-30T20:00:00\" sold_out=\"false\">\n");
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }

        private static byte[] tail(int i) {
            String tail = "   </plan>\n";
            if (i % PLANS_PER_BASE == PLANS_PER_BASE - 1) {
                tail += "  </base_plan>\n";
            }
            return tail.getBytes(StandardCharsets.UTF_8);
        }
    }
}
