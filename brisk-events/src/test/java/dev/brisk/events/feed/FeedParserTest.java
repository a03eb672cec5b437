package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.InstanceOfAssertFactories;

import dev.brisk.events.Event;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the parser makes of well-formed feeds: events, identities, counts and bad records. */
class FeedParserTest {

    @Test
    void readsThePlanListDialect() throws Exception {
        FeedResult result = new FeedParser().parse(fixture("plan-list.xml"));

        assertThat(result.events()).containsExactly(
                event("291", "291", "Camela en concierto", "2021-06-30T21:00:00", "2021-06-30T22:00:00", 12.5, 30.0),
                // replaced by the later (322, 1642) record, kept at the position of the first
                event("322", "1642", "Pantomima Full (nueva fecha)", "2021-02-12T20:00:00", "2021-02-12T21:30:00",
                        60.0, 65.0),
                // the zone inside <extra> does not count, the zone with a child element does
                event("322", "1643", "Pantomima Full", "2021-02-11T20:00:00", "2021-02-11T21:30:00", 35.5, 55.0),
                // plan id 291 again, under base 444: another event; start == end is allowed
                event("444", "291", "Tributo a Camela & amigos", "2021-08-01T00:00:00", "2021-08-01T00:00:00",
                        0.0, 10.0));
        assertThat(result.records()).isEqualTo(7);
        assertThat(result.notOnline()).isEqualTo(2);
        assertThat(result.skipped()).isZero();
        assertThat(result.skipReasons()).isEmpty();
    }

    @Test
    void readsTheEventListDialect() throws Exception {
        FeedResult result = new FeedParser().parse(fixture("event-list.xml"));

        assertThat(result.events()).containsExactly(
                event("7", "70", "Jazz en el parque", "2021-07-10T19:30:00", "2021-07-10T23:00:00", 18.0, 45.9),
                event("7", "71", "Jazz en el parque", "2021-07-11T19:30:00", "2021-07-11T23:00:00", 18.0, 18.0),
                event("8", "70", "Jazz en el parque (matinal)", "2021-07-10T11:00:00", "2021-07-10T13:00:00",
                        9.99, 9.99));
        assertThat(result.records()).isEqualTo(4);
        assertThat(result.notOnline()).isEqualTo(1);
        assertThat(result.skipped()).isZero();
    }

    @Test
    void parsedAgainstStoredEventsOnlyTheDifferentOnesAreKept() throws Exception {
        FeedDialect d = FeedDialect.PLAN_LIST;
        String xml = document(d, base(d, "1", "online", "Known", record(d, "10", "2021-01-01T20:00:00", "2021-01-01T21:00:00", "5"))
                + base(d, "2", "online", "Changed", record(d, "20", "2021-01-02T20:00:00", "2021-01-02T21:00:00", "7"))
                + base(d, "3", "online", "New", record(d, "30", "2021-01-03T20:00:00", "2021-01-03T21:00:00", "9"))
                // the same record twice: first as stored, then other values (a conflict, the last wins)
                + base(d, "4", "online", "Flip", record(d, "40", "2021-01-04T20:00:00", "2021-01-04T21:00:00", "1")
                        + record(d, "40", "2021-01-04T20:00:00", "2021-01-04T21:00:00", "2"))
                // other values, then back to the stored ones: a conflict, and nothing to store
                + base(d, "5", "online", "Back", record(d, "50", "2021-01-05T20:00:00", "2021-01-05T21:00:00", "3")
                        + record(d, "50", "2021-01-05T20:00:00", "2021-01-05T21:00:00", "1")));
        java.util.Map<java.util.UUID, Event> stored = new java.util.HashMap<>();
        for (Event e : List.of(
                event("1", "10", "Known", "2021-01-01T20:00:00", "2021-01-01T21:00:00", 5, 5),
                event("2", "20", "Changed", "2021-01-02T20:00:00", "2021-01-02T21:00:00", 6, 6),
                event("4", "40", "Flip", "2021-01-04T20:00:00", "2021-01-04T21:00:00", 1, 1),
                event("5", "50", "Back", "2021-01-05T20:00:00", "2021-01-05T21:00:00", 1, 1))) {
            stored.put(e.id(), e);
        }
        FeedParser parser = new FeedParser(1 << 20, new RecordingLogger());
        FeedResult all = parser.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        FeedResult changed = parser.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), stored::get);

        assertThat(all.events()).hasSize(5);
        assertThat(changed.events()).containsExactly(
                event("2", "20", "Changed", "2021-01-02T20:00:00", "2021-01-02T21:00:00", 7, 7),
                event("3", "30", "New", "2021-01-03T20:00:00", "2021-01-03T21:00:00", 9, 9),
                event("4", "40", "Flip", "2021-01-04T20:00:00", "2021-01-04T21:00:00", 2, 2));
        assertThat(changed.records()).isEqualTo(all.records()).isEqualTo(7);
        assertThat(changed.conflicts()).isEqualTo(all.conflicts()).isEqualTo(2);
        assertThat(changed.skipped()).isEqualTo(all.skipped()).isZero();
    }

    @Test
    void eventIdsAreThoseOfTheBaseAndPlanPair() throws Exception {
        List<Event> events = new FeedParser().parse(fixture("plan-list.xml")).events();

        assertThat(events).extracting(Event::id).doesNotHaveDuplicates().containsExactly(
                Event.idOf("291", "291"), Event.idOf("322", "1642"), Event.idOf("322", "1643"),
                Event.idOf("444", "291"));
        assertThat(events.get(0).id()).isNotEqualTo(events.get(3).id()); // same plan id, other base
    }

    @Test
    void skipsEveryKindOfBadRecordAndKeepsTheRest() throws Exception {
        FeedResult result = new FeedParser(FeedParser.DEFAULT_MAX_BYTES, new RecordingLogger())
                .parse(fixture("bad-records.xml"));

        assertThat(result.events()).containsExactly(
                event("1", "10", "Good base", "2021-09-30T10:00:00", "2021-09-30T12:00:00", 10.0, 10.0),
                event("1", "19", "Good base", "2021-10-01T10:00:00", "2021-10-01T12:00:00", 11.0, 22.0),
                event("4", "40", "Last good base", "2021-12-31T23:00:00", "2022-01-01T01:00:00", 5.0, 5.0));
        assertThat(result.records()).isEqualTo(16);
        assertThat(result.skipped()).isEqualTo(13);
        assertThat(result.notOnline()).isZero();
        assertThat(result.skipReasons()).isEqualTo(Map.of(
                SkipReason.BAD_DATE, 2,
                SkipReason.MISSING_ATTRIBUTE, 6,
                SkipReason.BAD_PRICE, 3,
                SkipReason.NO_ZONES, 1,
                SkipReason.END_BEFORE_START, 1));
    }

    /** One bad record between two good ones, in both dialects: exactly it is skipped, for its reason. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            31st of September     | id="9" start="2021-09-31T10:00:00" end="2021-10-01T10:00:00" | <zone price="1"/>               | BAD_DATE
            29th of February 2021 | id="9" start="2021-02-29T10:00:00" end="2021-03-01T10:00:00" | <zone price="1"/>               | BAD_DATE
            hour 24               | id="9" start="2021-09-30T24:00:00" end="2021-10-01T10:00:00" | <zone price="1"/>               | BAD_DATE
            no seconds            | id="9" start="2021-09-30T10:00" end="2021-10-01T10:00:00"    | <zone price="1"/>               | BAD_DATE
            offset                | id="9" start="2021-09-30T10:00:00Z" end="2021-10-01T10:00:00"| <zone price="1"/>               | BAD_DATE
            missing id            | start="2021-09-30T10:00:00" end="2021-10-01T10:00:00"        | <zone price="1"/>               | MISSING_ATTRIBUTE
            blank id              | id=" " start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="1"/>               | MISSING_ATTRIBUTE
            missing start         | id="9" end="2021-10-01T10:00:00"                             | <zone price="1"/>               | MISSING_ATTRIBUTE
            missing end           | id="9" start="2021-09-30T10:00:00"                           | <zone price="1"/>               | MISSING_ATTRIBUTE
            end before start      | id="9" start="2021-09-30T10:00:01" end="2021-09-30T10:00:00" | <zone price="1"/>               | END_BEFORE_START
            no zones              | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <other price="1"/>              | NO_ZONES
            zone without price    | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="1"/><zone/>        | BAD_PRICE
            price not a number    | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="1"/><zone price="1,5"/> | BAD_PRICE
            negative price        | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="-0.01"/>           | BAD_PRICE
            NaN price             | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="NaN"/>             | BAD_PRICE
            infinite price        | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="Infinity"/>        | BAD_PRICE
            overflowing price     | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price="1e999"/>           | BAD_PRICE
            empty price           | id="9" start="2021-09-30T10:00:00" end="2021-10-01T10:00:00" | <zone price=""/><zone price="2"/> | BAD_PRICE
            """)
    void skipsOneBadRecord(String name, String attributes, String zones, SkipReason reason) throws Exception {
        for (FeedDialect dialect : FeedDialect.values()) {
            String bad = "<" + dialect.record + " " + attributes.replace("id=", dialect.recordId + "=")
                    .replace("start=", dialect.start + "=").replace("end=", dialect.end + "=") + ">"
                    + zones + "</" + dialect.record + ">";
            String xml = document(dialect, base(dialect, "b", "online", "T",
                    record(dialect, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "5")
                            + bad
                            + record(dialect, "2", "2021-01-02T10:00:00", "2021-01-02T11:00:00", "6", "7")));

            FeedResult result = parse(xml);

            assertThat(result.events()).as(dialect.name()).containsExactly(
                    event("b", "1", "T", "2021-01-01T10:00:00", "2021-01-01T11:00:00", 5, 5),
                    event("b", "2", "T", "2021-01-02T10:00:00", "2021-01-02T11:00:00", 6, 7));
            assertThat(result.skipped()).as(dialect.name()).isEqualTo(1);
            assertThat(result.records()).as(dialect.name()).isEqualTo(3);
            assertThat(result.skipReasons()).as(dialect.name()).isEqualTo(Map.of(reason, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no id        |               | online | T
            blank id     | ' '           | online | T
            no title     | b             | online |
            no sell_mode | b             |        | T
            no title and an id over 200 characters | BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB | online |
            """)
    void aBadBaseMakesAllItsRecordsBad(String name, String baseId, String sellMode, String title) throws Exception {
        for (FeedDialect dialect : FeedDialect.values()) {
            String records = record(dialect, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "5")
                    + record(dialect, "2", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "5");
            String xml = document(dialect, base(dialect, baseId, sellMode, title, records)
                    + base(dialect, "ok", "online", "Fine", record(dialect, "1", "2021-01-01T10:00:00",
                    "2021-01-01T11:00:00", "3")));

            FeedResult result = parse(xml);

            assertThat(result.events()).as(dialect.name()).containsExactly(
                    event("ok", "1", "Fine", "2021-01-01T10:00:00", "2021-01-01T11:00:00", 3, 3));
            assertThat(result.skipReasons()).as(dialect.name()).isEqualTo(Map.of(SkipReason.MISSING_ATTRIBUTE, 2));
            assertThat(result.records()).as(dialect.name()).isEqualTo(3);
        }
    }

    @Test
    void recordsOfANotOnlineBaseAreIgnoredWithoutValidation() throws Exception {
        String xml = document(FeedDialect.PLAN_LIST,
                // no id, no title, bad records: a not-online base is not looked into
                "<base_plan sell_mode=\"offline\"><plan plan_id=\"1\"/><plan/></base_plan>"
                        + base(FeedDialect.PLAN_LIST, "b", "ONLINE", "T",
                        record(FeedDialect.PLAN_LIST, "2", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1"))
                        + base(FeedDialect.PLAN_LIST, "b", "online", "T",
                        record(FeedDialect.PLAN_LIST, "3", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1")));

        FeedResult result = parse(xml);

        assertThat(result.events()).extracting(Event::planId).containsExactly("3");
        assertThat(result.notOnline()).isEqualTo(3); // sell_mode is matched exactly
        assertThat(result.records()).isEqualTo(4);
        assertThat(result.skipped()).isZero();
    }

    @Test
    void aLaterBadOrOfflineRecordDoesNotRemoveAnEarlierGoodOne() throws Exception {
        FeedDialect a = FeedDialect.PLAN_LIST;
        String xml = document(a,
                base(a, "b", "online", "First", record(a, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1"))
                        + base(a, "b", "online", "Second", record(a, "1", "2021-01-01T10:00:00",
                        "2021-01-01T09:00:00", "1"))
                        + base(a, "b", "offline", "Third", record(a, "1", "2021-01-01T10:00:00",
                        "2021-01-01T11:00:00", "2")));

        FeedResult result = parse(xml);

        assertThat(result.events()).containsExactly(
                event("b", "1", "First", "2021-01-01T10:00:00", "2021-01-01T11:00:00", 1, 1));
        assertThat(result.skipped()).isEqualTo(1);
        assertThat(result.notOnline()).isEqualTo(1);
    }

    @Test
    void idsLongerThanTheStoreHoldsAreBadRecords() throws Exception {
        String longest = "p".repeat(Event.MAX_ID_LENGTH);
        String tooLong = "q".repeat(Event.MAX_ID_LENGTH + 1);
        for (FeedDialect d : FeedDialect.values()) {
            String xml = document(d,
                    base(d, "b", "online", "T", record(d, longest, "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1")
                            + record(d, tooLong, "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1"))
                            + base(d, "B".repeat(Event.MAX_ID_LENGTH + 1), "online", "T",
                            record(d, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1")
                                    + record(d, "2", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1")));

            FeedResult result = parse(xml);

            assertThat(result.events()).as(d.name()).extracting(Event::planId).containsExactly(longest);
            assertThat(result.skipReasons()).as(d.name()).isEqualTo(Map.of(SkipReason.ID_TOO_LONG, 3));
            assertThat(result.records()).as(d.name()).isEqualTo(4);
        }
    }

    @Test
    void anEventsIdNeverChanges() {
        // clients and every instance's store hold these: a change to how ids are derived breaks them all
        assertThat(Event.idOf("291", "291")).hasToString("c7accb42-5e19-3337-8a51-354e523f5fb6");
        assertThat(Event.idOf("322", "1642")).hasToString("b601ae03-6d84-3cc4-9689-5e9a7fb79264");
    }

    @Test
    void baseAndRecordIdsAreOnePairNotAConcatenation() throws Exception {
        FeedDialect a = FeedDialect.PLAN_LIST;
        String xml = document(a,
                base(a, "1:2", "online", "X", record(a, "3", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1"))
                        + base(a, "1", "online", "Y", record(a, "2:3", "2021-01-01T10:00:00",
                        "2021-01-01T11:00:00", "2")));

        assertThat(parse(xml).events()).extracting(Event::title).containsExactly("X", "Y");
    }

    @Test
    void namespacesAreIgnoredNamesAreReadByTheirLocalPart() throws Exception {
        String body = "<output>" + base(FeedDialect.EVENT_LIST, "b", "online", "T",
                record(FeedDialect.EVENT_LIST, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "4")) + "</output>";

        assertThat(parse("<eventList xmlns=\"urn:provider\">" + body + "</eventList>").events()).hasSize(1);
        assertThat(parse("<p:eventList xmlns:p=\"urn:provider\">" + body + "</p:eventList>").events()).hasSize(1);
    }

    @Test
    void emptyFeedsHaveNoEvents() throws Exception {
        assertThat(parse("<planList/>")).isEqualTo(new FeedResult(List.of(), 0, 0, 0));
        assertThat(parse("<eventList><output/></eventList>")).isEqualTo(new FeedResult(List.of(), 0, 0, 0));
    }

    @Test
    void readsTheDeclaredEncoding() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + document(FeedDialect.EVENT_LIST,
                base(FeedDialect.EVENT_LIST, "c", "online", "Concierto en Cádiz - ¡gratis!",
                        record(FeedDialect.EVENT_LIST, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "0")));

        FeedResult result = new FeedParser().parse(xml.getBytes(StandardCharsets.ISO_8859_1));

        assertThat(result.events()).extracting(Event::title).containsExactly("Concierto en Cádiz - ¡gratis!");
    }

    @Test
    void predefinedAndCharacterEntitiesAreReadDespiteTheExpansionLimit() throws Exception {
        StringBuilder title = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            title.append("&amp;&lt;&#65;");
        }
        String xml = document(FeedDialect.PLAN_LIST, base(FeedDialect.PLAN_LIST, "b", "online", title.toString(),
                record(FeedDialect.PLAN_LIST, "1", "2021-01-01T10:00:00", "2021-01-01T11:00:00", "1")));

        assertThat(parse(xml).events().get(0).title()).isEqualTo("&<A".repeat(200));
    }

    @Test
    void logsTheFirstBadRecordsInFullThenOneSummary() throws Exception {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            records.append("<plan plan_id=\"p").append(i).append("\" plan_start_date=\"2021-09-31T10:00:00\"")
                    .append(" plan_end_date=\"2021-10-01T10:00:00\"><zone price=\"1\"/></plan>");
        }
        records.append("<plan plan_id=\"x\" plan_start_date=\"2021-09-30T10:00:00\" plan_end_date=\"2021-10-01T10:00:00\"/>");
        RecordingLogger log = new RecordingLogger();

        FeedResult result = new FeedParser(1 << 20, log).parse(
                document(FeedDialect.PLAN_LIST, base(FeedDialect.PLAN_LIST, "b", "online", "T", records.toString()))
                        .getBytes(StandardCharsets.UTF_8));

        assertThat(result.skipped()).isEqualTo(26);
        // DEBUG since issue 15: the poller's one line per poll carries the counts at INFO
        assertThat(log.lines).hasSize(BadRecordLog.FULL_LINES + 1).allMatch(line -> line.startsWith("DEBUG "));
        assertThat(log.lines.get(0)).contains("BAD_DATE", "base_plan_id='b'", "plan_id='p0'",
                "plan_start_date '2021-09-31T10:00:00'", "line 1");
        assertThat(log.lines.get(BadRecordLog.FULL_LINES - 1)).contains("plan_id='p9'");
        assertThat(log.lines.get(BadRecordLog.FULL_LINES)).contains("26 bad records", "16 of them not logged",
                "BAD_DATE=25", "NO_ZONES=1");
    }

    @Test
    void logLinesCannotBeForgedByTheFeed() throws Exception {
        RecordingLogger log = new RecordingLogger();
        String xml = document(FeedDialect.PLAN_LIST, base(FeedDialect.PLAN_LIST, "b&#10;WARNING fake", "online",
                "T", "<plan plan_id=\"" + "x".repeat(500) + "\"/>"));

        new FeedParser(1 << 20, log).parse(xml.getBytes(StandardCharsets.UTF_8));

        assertThat(log.lines).singleElement(InstanceOfAssertFactories.STRING)
                .doesNotContain("\n").contains("b?WARNING fake", "x".repeat(80) + "...'").doesNotContain("x".repeat(81));
    }

    @Test
    void noLogLinesForAGoodFeed() throws Exception {
        RecordingLogger log = new RecordingLogger();
        new FeedParser(FeedParser.DEFAULT_MAX_BYTES, log).parse(fixture("plan-list.xml"));
        assertThat(log.lines).isEmpty();
    }

    // --- helpers, shared with the other feed tests ---

    static InputStream fixture(String name) throws IOException {
        InputStream in = FeedParserTest.class.getResourceAsStream("/feeds/" + name);
        if (in == null) {
            throw new IOException("no fixture " + name);
        }
        return in;
    }

    static byte[] fixtureBytes(String name) throws IOException {
        try (InputStream in = fixture(name)) {
            return in.readAllBytes();
        }
    }

    static FeedResult parse(String xml) throws FeedFormatException {
        return new FeedParser(1 << 20, new RecordingLogger()).parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static Event event(String baseId, String planId, String title, String start, String end, double min, double max) {
        return Event.of(baseId, planId, title, LocalDateTime.parse(start), LocalDateTime.parse(end), min, max);
    }

    static String document(FeedDialect dialect, String bases) {
        return "<" + dialect.root + "><output>" + bases + "</output></" + dialect.root + ">";
    }

    /** A base element; null values leave the attribute out. */
    static String base(FeedDialect dialect, String id, String sellMode, String title, String records) {
        return "<" + dialect.base + attribute(dialect.baseId, id) + attribute("sell_mode", sellMode)
                + attribute("title", title) + ">" + records + "</" + dialect.base + ">";
    }

    static String record(FeedDialect dialect, String id, String start, String end, String... prices) {
        StringBuilder xml = new StringBuilder("<").append(dialect.record).append(attribute(dialect.recordId, id))
                .append(attribute(dialect.start, start)).append(attribute(dialect.end, end))
                .append(" sell_from=\"2020-01-01T00:00:00\" sold_out=\"false\">");
        for (int i = 0; i < prices.length; i++) {
            xml.append("<zone zone_id=\"").append(i).append("\" capacity=\"10\" price=\"").append(prices[i])
                    .append("\" name=\"Z\" numbered=\"true\"/>");
        }
        return xml.append("</").append(dialect.record).append('>').toString();
    }

    private static String attribute(String name, String value) {
        return value == null ? "" : " " + name + "=\"" + value + "\"";
    }

    /** Keeps what would have been logged. */
    static final class RecordingLogger implements System.Logger {
        final List<String> lines = new ArrayList<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + (params == null || params.length == 0 ? format
                    : java.text.MessageFormat.format(format, params)));
        }
    }
}
