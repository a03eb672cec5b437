package dev.brisk.events.sim;

import dev.brisk.events.Event;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXParseException;

/**
 * The tests' own reading of a feed document with the JDK's DOM parser: independent of the
 * simulator's model, so comparing the two checks the rendering.
 */
final class FeedXml {
    private static final Pattern PRICE = Pattern.compile("\\d+\\.\\d{2}");

    /** One plan/event element with its base's attributes. */
    record PlanRecord(String baseId, String sellMode, String title, Map<String, String> attributes,
                      List<Map<String, String>> zones) {
    }

    private FeedXml() {
    }

    /** Parses {@code body}; throws when it is not well-formed. */
    static Document parse(byte[] body) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(new ErrorHandler() { // the default one prints "[Fatal Error]" lines
            @Override
            public void warning(SAXParseException e) {
            }

            @Override
            public void error(SAXParseException e) throws SAXParseException {
                throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXParseException {
                throw e;
            }
        });
        return b.parse(new ByteArrayInputStream(body));
    }

    /** The dialect the root element names. */
    static Dialect dialectOf(Document doc) {
        return switch (doc.getDocumentElement().getTagName()) {
            case "planList" -> Dialect.A;
            case "eventList" -> Dialect.B;
            default -> throw new AssertionError("unknown root " + doc.getDocumentElement().getTagName());
        };
    }

    /** Every plan/event element in document order. */
    static List<PlanRecord> plans(Document doc) {
        Dialect d = dialectOf(doc);
        String baseTag = d == Dialect.A ? "base_plan" : "base_event";
        String baseIdAttr = d == Dialect.A ? "base_plan_id" : "base_event_id";
        String planTag = d == Dialect.A ? "plan" : "event";
        List<PlanRecord> out = new ArrayList<>();
        NodeList bases = doc.getElementsByTagName(baseTag);
        for (int i = 0; i < bases.getLength(); i++) {
            Element base = (Element) bases.item(i);
            NodeList plans = base.getElementsByTagName(planTag);
            for (int j = 0; j < plans.getLength(); j++) {
                Element plan = (Element) plans.item(j);
                List<Map<String, String>> zones = new ArrayList<>();
                NodeList zs = plan.getElementsByTagName("zone");
                for (int k = 0; k < zs.getLength(); k++) {
                    zones.add(attributes((Element) zs.item(k)));
                }
                out.add(new PlanRecord(base.getAttribute(baseIdAttr), base.getAttribute("sell_mode"),
                        base.getAttribute("title"), attributes(plan), zones));
            }
        }
        return out;
    }

    private static Map<String, String> attributes(Element e) {
        Map<String, String> m = new LinkedHashMap<>();
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            m.put(attrs.item(i).getNodeName(), attrs.item(i).getNodeValue());
        }
        return m;
    }

    /** The event a correct reader takes from an online record, or null when the record is bad. */
    static Event eventOf(PlanRecord r, Dialect d) {
        String prefix = d == Dialect.A ? "plan" : "event";
        String planId = r.attributes().get(prefix + "_id");
        LocalDateTime start = date(r.attributes().get(prefix + "_start_date"));
        LocalDateTime end = date(r.attributes().get(prefix + "_end_date"));
        if (planId == null || start == null || end == null || r.zones().isEmpty()) {
            return null;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Map<String, String> z : r.zones()) {
            String p = z.get("price");
            if (p == null || !PRICE.matcher(p).matches()) {
                return null;
            }
            double v = new BigDecimal(p).doubleValue();
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return Event.of(r.baseId(), planId, r.title(), start, end, min, max);
    }

    /** The online, well-formed events of a document, in document order. */
    static List<Event> onlineEvents(Document doc) {
        Dialect d = dialectOf(doc);
        List<Event> out = new ArrayList<>();
        for (PlanRecord r : plans(doc)) {
            if (r.sellMode().equals("online")) {
                Event e = eventOf(r, d);
                if (e != null) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /** A strict ISO local date-time, or null (absent or not a real date). */
    static LocalDateTime date(String s) {
        if (s == null) {
            return null;
        }
        try {
            return LocalDateTime.parse(s); // ISO_LOCAL_DATE_TIME resolves strictly: no 31 September, no hour 24
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
