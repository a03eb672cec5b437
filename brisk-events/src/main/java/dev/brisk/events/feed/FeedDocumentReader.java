package dev.brisk.events.feed;

import dev.brisk.events.Event;
import dev.brisk.events.feed.FeedDialect.Common;
import java.time.LocalDateTime;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Walks one feed document on a StAX reader, root / output / base / record / zone, and owns what the
 * walk collects: the events and the counts. Only a record's running min/max price is kept while its
 * zones stream by; unknown elements are skipped with their subtrees (the reader still checks that
 * they are well-formed).
 *
 * <p>Each read method is entered on its element's START_ELEMENT and returns on its END_ELEMENT.
 */
final class FeedDocumentReader {
    /** Stands for a record whose values the store already holds: only its key is kept. */
    private static final Object STORED = new Object();

    private final XMLStreamReader xml;
    private final BadRecordLog badLog;
    private FeedDialect dialect;
    // insertion order is kept when a later record replaces an earlier one: first-appearance order.
    // Keyed by the event id (its base and record ids); the value is the Event, or STORED when the
    // store holds these values already, so a feed of known events costs a key each, not an event each
    private final Map<java.util.UUID, Object> events = new LinkedHashMap<>();
    /** The stored event of an id, or null: records equal to it are not kept. */
    private final java.util.function.Function<java.util.UUID, Event> stored;
    private final Map<SkipReason, Integer> skipReasons = new EnumMap<>(SkipReason.class);
    private int records;
    private int skipped;
    private int notOnline;
    private int conflicts;
    private String firstConflict;

    FeedDocumentReader(XMLStreamReader xml, BadRecordLog badLog, java.util.function.Function<java.util.UUID, Event> stored) {
        this.xml = xml;
        this.badLog = badLog;
        this.stored = stored;
    }

    /** Reads the whole document, through its end, so that trailing garbage is noticed too. */
    FeedResult read() throws XMLStreamException, FeedFormatException {
        readProlog();
        String root = xml.getLocalName();
        dialect = FeedDialect.ofRoot(root);
        if (dialect == null) {
            throw new FeedFormatException("unknown feed root element <" + BadRecordLog.printable(root)
                    + ">, expected <" + FeedDialect.PLAN_LIST.root + "> or <" + FeedDialect.EVENT_LIST.root + ">");
        }
        while (nextChild()) {
            if (is(Common.OUTPUT)) {
                readOutput();
            } else {
                skipElement();
            }
        }
        while (xml.hasNext()) {
            xml.next();
        }
        badLog.finish(skipped, skipReasons);
        List<Event> kept = new java.util.ArrayList<>();
        for (Object v : events.values()) {
            if (v instanceof Event e) {
                kept.add(e);
            }
        }
        return new FeedResult(kept, records, skipped, notOnline, skipReasons, conflicts, firstConflict);
    }

    /** Up to the root element; a DOCTYPE is refused outright, so no entity it declares is ever used. */
    private void readProlog() throws XMLStreamException, FeedFormatException {
        while (true) {
            switch (xml.next()) {
                case XMLStreamConstants.START_ELEMENT -> {
                    return;
                }
                case XMLStreamConstants.DTD -> throw new FeedFormatException("feed has a DOCTYPE: not accepted");
                case XMLStreamConstants.END_DOCUMENT -> throw new FeedFormatException("feed has no root element");
                default -> {
                    // comments, processing instructions, whitespace
                }
            }
        }
    }

    private void readOutput() throws XMLStreamException {
        while (nextChild()) {
            if (is(dialect.base)) {
                readBase();
            } else {
                skipElement();
            }
        }
    }

    private void readBase() throws XMLStreamException {
        String baseId = attribute(dialect.baseId);
        String title = attribute(Common.TITLE);
        String sellMode = attribute(Common.SELL_MODE);
        // a bad base spoils all of its records: remember why, report it once per record
        String baseProblem = null;
        SkipReason baseReason = SkipReason.MISSING_ATTRIBUTE;
        if (sellMode == null) {
            baseProblem = "its " + dialect.base + " has no " + Common.SELL_MODE;
        } else if (Common.ONLINE.equals(sellMode)) {
            if (baseId == null) {
                baseProblem = "its " + dialect.base + " has no " + dialect.baseId;
            } else if (title == null) {
                baseProblem = "its " + dialect.base + " has no " + Common.TITLE;
            } else if (baseId.length() > Event.MAX_ID_LENGTH) {
                baseProblem = "its " + dialect.baseId + " is longer than " + Event.MAX_ID_LENGTH + " characters";
                baseReason = SkipReason.ID_TOO_LONG;
            }
        }
        boolean online = Common.ONLINE.equals(sellMode);
        while (nextChild()) {
            if (!is(dialect.record)) {
                skipElement();
                continue;
            }
            records++;
            if (baseProblem != null) {
                badRecord(baseId, attribute(dialect.recordId), baseReason, baseProblem);
                skipElement();
            } else if (!online) {
                notOnline++; // ignored, not validated further
                skipElement();
            } else {
                readRecord(baseId, title);
            }
        }
    }

    private void readRecord(String baseId, String title) throws XMLStreamException {
        String recordId = attribute(dialect.recordId);
        String startText = attribute(dialect.start);
        String endText = attribute(dialect.end);
        LocalDateTime start = FeedValues.parseDateTime(startText);
        LocalDateTime end = FeedValues.parseDateTime(endText);
        SkipReason reason = null;
        String detail = null;
        if (recordId == null || startText == null || endText == null) {
            reason = SkipReason.MISSING_ATTRIBUTE;
            detail = "no " + (recordId == null ? dialect.recordId : startText == null ? dialect.start : dialect.end);
        } else if (recordId.length() > Event.MAX_ID_LENGTH) {
            reason = SkipReason.ID_TOO_LONG;
            detail = dialect.recordId + " is longer than " + Event.MAX_ID_LENGTH + " characters";
        } else if (start == null || end == null) {
            reason = SkipReason.BAD_DATE;
            detail = start == null ? "bad " + dialect.start + " " + BadRecordLog.printable(startText)
                    : "bad " + dialect.end + " " + BadRecordLog.printable(endText);
        } else if (end.isBefore(start)) {
            reason = SkipReason.END_BEFORE_START;
            detail = dialect.end + " " + endText + " is before " + dialect.start + " " + startText;
        }
        if (reason != null) {
            badRecord(baseId, recordId, reason, detail);
            skipElement();
            return;
        }

        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int zones = 0;
        String badPrice = null;
        while (nextChild()) {
            // after a bad price the rest of the zones need no reading, only skipping
            if (badPrice == null && is(Common.ZONE)) {
                String priceText = xml.getAttributeValue(null, Common.PRICE);
                double price = FeedValues.parsePrice(priceText);
                if (Double.isNaN(price)) {
                    badPrice = priceText == null ? "a zone has no " + Common.PRICE
                            : "a zone has a bad " + Common.PRICE + " " + BadRecordLog.printable(priceText);
                } else {
                    zones++;
                    min = Math.min(min, price);
                    max = Math.max(max, price);
                }
            }
            skipElement();
        }
        if (badPrice != null) {
            badRecord(baseId, recordId, SkipReason.BAD_PRICE, badPrice);
        } else if (zones == 0) {
            badRecord(baseId, recordId, SkipReason.NO_ZONES, "no zones");
        } else {
            Event event = Event.of(baseId, recordId, title, start, end, min, max);
            Event known = stored.apply(event.id());
            Object previous = events.put(event.id(), known != null && known.sameValues(event) ? STORED : event);
            Event earlier = previous == STORED ? known : (Event) previous;
            if (earlier != null && !earlier.sameValues(event)) {
                // the provider contradicts itself within one document: counted, named once per feed (the poll's line)
                if (conflicts++ == 0) {
                    firstConflict = dialect.baseId + "=" + BadRecordLog.printable(baseId) + " " + dialect.recordId + "="
                            + BadRecordLog.printable(recordId) + " at line " + xml.getLocation().getLineNumber();
                }
            }
        }
    }

    private void badRecord(String baseId, String recordId, SkipReason reason, String detail) {
        skipped++;
        skipReasons.merge(reason, 1, Integer::sum);
        badLog.badRecord(dialect, baseId, recordId, xml.getLocation().getLineNumber(), reason, detail);
    }

    /**
     * Advances to the current element's next child element (true) or its end (false), passing over
     * text, whitespace, comments and processing instructions.
     */
    private boolean nextChild() throws XMLStreamException {
        while (true) {
            switch (xml.next()) {
                case XMLStreamConstants.START_ELEMENT -> {
                    return true;
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    return false;
                }
                // the reader itself throws on a premature end; this keeps a lenient one from looping
                case XMLStreamConstants.END_DOCUMENT -> throw new XMLStreamException("document ended inside an element");
                default -> {
                }
            }
        }
    }

    /** From the current element's START_ELEMENT to its END_ELEMENT, whatever is inside. */
    private void skipElement() throws XMLStreamException {
        int depth = 1;
        while (depth > 0) {
            switch (xml.next()) {
                case XMLStreamConstants.START_ELEMENT -> depth++;
                case XMLStreamConstants.END_ELEMENT -> depth--;
                case XMLStreamConstants.END_DOCUMENT -> throw new XMLStreamException("document ended inside an element");
                default -> {
                }
            }
        }
    }

    private boolean is(String localName) {
        return localName.equals(xml.getLocalName());
    }

    /** The current element's attribute, null if it is absent or blank (a blank id or title is no id or title). */
    private String attribute(String localName) {
        String value = xml.getAttributeValue(null, localName);
        return value == null || value.isBlank() ? null : value;
    }
}
