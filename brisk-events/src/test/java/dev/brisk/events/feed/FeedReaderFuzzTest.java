package dev.brisk.events.feed;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.brisk.events.Event;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the feed reader ({@link FeedParser} on Aalto, {@link FeedDocumentReader},
 * {@link BoundedXmlReader}, {@link FeedValues}, {@link BadRecordLog}) with Jazzer:
 * {@code ./brisk fuzz --target feed-reader} fuzzes it; the default test run (Jazzer's regression mode) runs
 * it on the seeds of {@link #read()} and on every input kept in
 * {@code src/test/resources/dev/brisk/events/feed/FeedReaderFuzzTestInputs/read/}.
 *
 * <p>An input is {@code [piece][document]}: the first byte sets how many bytes at most each read of the
 * streamed copy returns (1 to 64), the rest is the document. Properties, checked for every input:
 * <ul>
 *   <li>the parser returns a result or throws {@link FeedFormatException}, its one documented failure; any
 *       other throwable (a runtime exception, a stack overflow, an out-of-memory error) is a bug;</li>
 *   <li>a result holds together: every event has its ids (at most {@link Event#MAX_ID_LENGTH} chars), a
 *       title, a finite non-negative price range and an end not before its start; (base, record) pairs are
 *       unique; events + skipped + not online never exceed the records read; the reasons add up to the
 *       skipped count; the bad-record log stays within its line budget and no line of it has a control
 *       character (a provider's value must not forge log lines);</li>
 *   <li>the outcome does not depend on how the bytes arrive: the document streamed in small pieces gives an
 *       equal result or the same kind of failure;</li>
 *   <li>the size bound holds exactly: bounded at the document's length the outcome is the same, one byte
 *       less and it is never accepted;</li>
 *   <li>memory is bounded by the input: a parse allocates no more than {@link AllocationBudget} allows, a few times
 *       the empty document's plus sixteen times the fixtures' most per byte (an entity expansion or a
 *       quadratic copy would not fit);</li>
 *   <li>where the JDK's own StAX parser, driven by the same {@link FeedDocumentReader}, also accepts the
 *       document, both results are equal (the two parsers read the same values).</li>
 * </ul>
 */
class FeedReaderFuzzTest {
    /** The bound the fuzzed parser works under: far above any input the fuzzer makes. */
    static final long MAX_BYTES = 1 << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /**
     * What a parse may allocate, measured here on the fixtures, so that it holds with and without the
     * fuzzer's instrumentation (whose hooks allocate on every string comparison): {@code base} for the empty
     * document, {@code perByte} the most per byte of any fixture (the one of bad records, whose log lines
     * are built).
     */
    record AllocationBudget(long base, double perByte) {
        /** Slack over the fixtures' rate: an amplification (an entity, a quadratic copy) is far above it. */
        static final int FACTOR = 16;

        long allows(int length) {
            return 4 * base + (long) (FACTOR * perByte * length) + (1 << 20);
        }
    }

    /** Measured at the first check, inside the test run: with the fuzzer's instrumentation when fuzzing. */
    private static final class Budget {
        static final AllocationBudget VALUE = calibrate();
    }

    private static AllocationBudget calibrate() {
        try {
            long base = allocation(new byte[0]);
            double perByte = 0;
            for (String name : List.of("event-list.xml", "plan-list.xml", "bad-records.xml")) {
                byte[] doc = FeedParserTest.fixtureBytes(name);
                perByte = Math.max(perByte, (double) allocation(doc) / doc.length);
            }
            return new AllocationBudget(base, perByte);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Bytes this thread allocates to parse {@code doc}: the least of three parses (the first loads classes). */
    static long allocation(byte[] doc) {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            parse(new ByteArrayInputStream(doc), MAX_BYTES, "measured");
            least = Math.min(least, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        return least;
    }

    /** Seeds: the fixtures and a few documents at the edges of the reader's checks, read in pieces of 7. */
    static Stream<byte[]> read() throws IOException {
        List<byte[]> documents = new ArrayList<>();
        for (String name : List.of("event-list.xml", "plan-list.xml", "bad-records.xml")) {
            documents.add(FeedParserTest.fixtureBytes(name));
        }
        for (String xml : List.of(
                "<planList><output><base_plan base_plan_id=\"1\" sell_mode=\"online\" title=\"t &amp; &#x41;\">"
                        + "<plan plan_id=\"2\" plan_start_date=\"2021-02-28T23:59:59\" plan_end_date=\"2024-02-29T00:00:00\">"
                        + "<zone price=\" 1.5e1 \"/><zone price=\"0\"/></plan></base_plan></output></planList>",
                "<?xml version=\"1.0\"?><!DOCTYPE planList [<!ENTITY a \"b\">]><planList/>",
                "<eventList><output><base_event base_event_id=\"x\" sell_mode=\"offline\"><event/></base_event>"
                        + "<![CDATA[<]]><!-- c --><?pi x?></output></eventList>")) {
            documents.add(xml.getBytes(StandardCharsets.UTF_8));
        }
        return documents.stream().map(doc -> {
            byte[] input = new byte[doc.length + 1];
            input[0] = 6;
            System.arraycopy(doc, 0, input, 1, doc.length);
            return input;
        });
    }

    @MethodSource
    @FuzzTest(maxDuration = "60s")
    @DictionaryFile(resourcePath = "feed.dict")
    void read(byte[] data) {
        int piece = data.length > 0 ? 1 + (data[0] & 0x3f) : 1;
        byte[] doc = data.length > 0 ? java.util.Arrays.copyOfRange(data, 1, data.length) : data;
        try {
            check(doc, piece);
        } catch (AssertionError e) {
            throw new AssertionError("document(" + doc.length + ", pieces of " + piece + ")="
                    + escape(doc) + "\n  " + e.getMessage(), e);
        }
    }

    private static void check(byte[] doc, int piece) {
        AllocationBudget budget = Budget.VALUE;
        long before = THREADS.getCurrentThreadAllocatedBytes();
        Outcome whole = parse(new ByteArrayInputStream(doc), MAX_BYTES, "whole");
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        // measured again when over: the first parse that reaches a class loads it (and, fuzzing, instruments it)
        if (allocated > budget.allows(doc.length) && (allocated = allocation(doc)) > budget.allows(doc.length)) {
            throw new AssertionError("a parse of " + doc.length + " bytes allocated " + allocated + " bytes; "
                    + budget + " allows " + budget.allows(doc.length));
        }
        if (whole.result() != null) {
            checkResult(whole);
        }
        Outcome streamed = parse(new Trickle(doc, piece), MAX_BYTES, "streamed");
        if (!streamed.equals(whole)) {
            throw new AssertionError("whole " + whole + " but streamed in pieces of " + piece + ": " + streamed);
        }
        Outcome exact = parse(new ByteArrayInputStream(doc), doc.length, "bounded at its length");
        if (!exact.equals(whole)) {
            throw new AssertionError("bounded at its length " + exact + " but unbounded " + whole);
        }
        if (doc.length > 0) {
            Outcome over = parse(new ByteArrayInputStream(doc), doc.length - 1, "bounded one byte short");
            if (over.result() != null) {
                throw new AssertionError("accepted with a bound one byte under its length: " + over);
            }
        }
        if (whole.result() != null) {
            FeedResult jdk = parseWithJdk(doc);
            if (jdk != null && !jdk.equals(whole.result())) {
                throw new AssertionError("Aalto " + whole.result() + " but the JDK's parser " + jdk);
            }
        }
    }

    /**
     * The kind of a failure: the stream could not be read, it was larger than the bound, or the document
     * itself was refused. Which of a document's faults is reported depends on how far Aalto had decoded
     * when it saw one, and so on where its input buffer was cut: "<ÿ>" in UTF-32 with its last character
     * cut short is "not well-formed" read whole, "unknown root element" read in pieces; its error location
     * too (a control character at column 28 is reported at column 29 read whole, 15 in pieces of 7). So
     * only these kinds are compared: an I/O failure for a fault of the document is a bug.
     */
    static String failureKind(String message) {
        for (String kind : List.of("feed is larger than ", "feed could not be read ")) {
            if (message.startsWith(kind)) {
                return kind.strip();
            }
        }
        return "the document refused";
    }

    /**
     * A result and the bad-record log's lines, or the kind of failure ({@link #failureKind}) and no lines
     * (those logged before a failure depend on where it was seen, and nothing of the document is kept).
     */
    record Outcome(FeedResult result, String failure, List<String> log) {
    }

    static Outcome parse(InputStream in, long maxBytes, String way) {
        FeedParserTest.RecordingLogger log = new FeedParserTest.RecordingLogger();
        try {
            return new Outcome(new FeedParser(maxBytes, log).parse(in), null, log.lines);
        } catch (FeedFormatException e) {
            return new Outcome(null, failureKind(e.getMessage()), List.of());
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            throw new AssertionError(way + ": " + e, e);
        }
    }

    private static void checkResult(Outcome outcome) {
        FeedResult r = outcome.result();
        Set<List<String>> keys = new HashSet<>();
        for (Event e : r.events()) {
            for (String id : new String[] {e.baseId(), e.planId()}) {
                if (id.isBlank() || id.length() > Event.MAX_ID_LENGTH) {
                    throw new AssertionError("event id '" + id + "' in " + e);
                }
            }
            if (e.title().isBlank()) {
                throw new AssertionError("blank title in " + e);
            }
            if (!(e.minPrice() >= 0 && e.minPrice() <= e.maxPrice() && Double.isFinite(e.maxPrice()))) {
                throw new AssertionError("price range in " + e);
            }
            if (e.end().isBefore(e.start()) || !e.id().equals(Event.idOf(e.baseId(), e.planId()))) {
                throw new AssertionError("dates or id in " + e);
            }
            if (!keys.add(List.of(e.baseId(), e.planId()))) {
                throw new AssertionError("two events for one (base, record) pair: " + e);
            }
        }
        if (r.events().size() + r.skipped() + r.notOnline() > r.records() || r.skipped() < 0 || r.notOnline() < 0) {
            throw new AssertionError("counts: " + r);
        }
        int reasons = r.skipReasons().values().stream().mapToInt(Integer::intValue).sum();
        if (reasons != r.skipped() || r.skipReasons().values().stream().anyMatch(n -> n <= 0)) {
            throw new AssertionError("skip reasons " + r.skipReasons() + " for " + r.skipped() + " skipped");
        }
        if (outcome.log().size() > BadRecordLog.FULL_LINES + 1) {
            throw new AssertionError(outcome.log().size() + " log lines");
        }
        for (String line : outcome.log()) {
            if (line.chars().anyMatch(Character::isISOControl)) {
                throw new AssertionError("a control character in the log line " + escape(line.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    /** The same reading on the JDK's StAX parser, configured as FeedParser configures Aalto; null when it refuses. */
    static FeedResult parseWithJdk(byte[] doc) {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, false);
        try {
            var xml = new BoundedXmlReader(factory.createXMLStreamReader(new ByteArrayInputStream(doc)), 64, 256);
            return new FeedDocumentReader(xml, new BadRecordLog(new FeedParserTest.RecordingLogger()), id -> null).read();
        } catch (XMLStreamException | FeedFormatException | RuntimeException e) {
            return null; // the JDK's parser's own verdict: only agreement on what both accept is checked
        }
    }

    /** The document, handed out at most {@code piece} bytes a read. */
    static final class Trickle extends InputStream {
        private final byte[] doc;
        private final int piece;
        private int pos;

        Trickle(byte[] doc, int piece) {
            this.doc = doc;
            this.piece = piece;
        }

        @Override
        public int read() {
            return pos < doc.length ? doc[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (pos == doc.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, piece), doc.length - pos);
            System.arraycopy(doc, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    /** Java-escaped text of the bytes (Latin-1), for failure messages. */
    static String escape(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length + 16).append('"');
        for (byte x : b) {
            int c = x & 0xff;
            switch (c) {
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> sb.append(c < 0x20 || c >= 0x7f ? String.format("\\u%04x", c) : String.valueOf((char) c));
            }
        }
        return sb.append('"').toString();
    }
}
