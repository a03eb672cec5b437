package dev.brisk.events.sim;

import dev.brisk.events.sim.RecordDefects.Kind;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes a catalogue as one feed document (UTF-8 bytes), spoiling the records {@link RecordDefects}
 * picks. The walk and the parts both dialects share live here; each dialect's renderer names the
 * elements and orders the attributes the way its provider does.
 *
 * <p>Stateless and thread-safe.
 */
abstract sealed class FeedRenderer permits PlanListRenderer, EventListRenderer {
    private static final byte[] DECLARATION = XmlBytes.constant("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    private static final byte[] OUTPUT_OPEN = XmlBytes.constant("  <output>\n");
    private static final byte[] OUTPUT_CLOSE = XmlBytes.constant("  </output>\n");
    private static final byte[] ZONE_ID = XmlBytes.constant("        <zone zone_id=\"");
    private static final byte[] CAPACITY = XmlBytes.constant("\" capacity=\"");
    private static final byte[] PRICE = XmlBytes.constant("\" price=\"");
    private static final byte[] NAME = XmlBytes.constant("\" name=\"");
    private static final byte[] NUMBERED_TRUE = XmlBytes.constant("\" numbered=\"true\"/>\n");
    private static final byte[] NUMBERED_FALSE = XmlBytes.constant("\" numbered=\"false\"/>\n");
    private static final byte[] SELL_FROM = XmlBytes.constant(" sell_from=\"");
    private static final byte[] SELL_TO = XmlBytes.constant("\" sell_to=\"");
    private static final byte[] SOLD_OUT_TRUE = XmlBytes.constant("\" sold_out=\"true\">\n");
    private static final byte[] SOLD_OUT_FALSE = XmlBytes.constant("\" sold_out=\"false\">\n");
    /** Room for one zone line apart from its name: tags, attribute names and the longest numbers. */
    private static final int ZONE_LINE = 128;

    static final byte[] QUOTE = XmlBytes.constant("\"");
    static final byte[] ONLINE = XmlBytes.constant("\" sell_mode=\"online\" title=\"");
    static final byte[] OFFLINE = XmlBytes.constant("\" sell_mode=\"offline\" title=\"");

    private static final PlanListRenderer PLAN_LIST = new PlanListRenderer();
    private static final EventListRenderer EVENT_LIST = new EventListRenderer();

    /** The renderer of {@code dialect}. */
    static FeedRenderer of(Dialect dialect) {
        return switch (dialect) {
            case A -> PLAN_LIST;
            case B -> EVENT_LIST;
        };
    }

    /** The whole document for {@code catalogue}, with records spoiled at {@code badRecordRate}. */
    final byte[] render(Catalogue catalogue, RecordDefects defects, double badRecordRate) {
        long estimate = 256 + catalogue.bases().size() * 200L + catalogue.planCount() * 260L
                + catalogue.zoneCount() * 100L;
        XmlBytes out = new XmlBytes((int) Math.min(estimate, Integer.MAX_VALUE - 16));
        Map<String, byte[]> names = new HashMap<>(); // zone names come from a small pool: escape each once
        out.raw(DECLARATION);
        openRoot(out);
        out.raw(OUTPUT_OPEN);
        for (BasePlan base : catalogue.bases()) {
            openBase(out, base);
            for (Plan plan : base.plans()) {
                Kind defect = defects.of(base, plan, badRecordRate);
                openPlan(out, plan, defect);
                if (defect != Kind.NO_ZONES) {
                    zones(out, plan, defect == Kind.BAD_PRICE ? RecordDefects.badZoneIndex(plan) : -1, names);
                }
                closePlan(out);
            }
            closeBase(out);
        }
        out.raw(OUTPUT_CLOSE);
        closeRoot(out);
        return out.toByteArray();
    }

    abstract void openRoot(XmlBytes out);

    abstract void closeRoot(XmlBytes out);

    /** The base element's start tag with its line break. */
    abstract void openBase(XmlBytes out, BasePlan base);

    abstract void closeBase(XmlBytes out);

    /** The plan element's start tag with its line break; leaves out or spoils what {@code defect} says. */
    abstract void openPlan(XmlBytes out, Plan plan, Kind defect);

    abstract void closePlan(XmlBytes out);

    /** {@code name="<plan id>"}, unless the defect drops it; {@code name} holds the leading space and quote. */
    static void planId(XmlBytes out, byte[] name, Plan plan, Kind defect) {
        if (defect != Kind.MISSING_ID) {
            out.raw(name).integer(plan.planId()).raw(QUOTE);
        }
    }

    /** The start date attribute, left out or spoiled as the defect says. */
    static void startDate(XmlBytes out, byte[] name, Plan plan, Kind defect) {
        if (defect == Kind.MISSING_START) {
            return;
        }
        out.raw(name);
        if (defect == Kind.START_DAY_OUT_OF_RANGE) {
            out.ascii(RecordDefects.dayOutOfRange(plan.start()));
        } else if (defect == Kind.START_NOT_ISO) {
            out.ascii(RecordDefects.notIso(plan.start()));
        } else {
            out.dateTime(plan.start());
        }
        out.raw(QUOTE);
    }

    /** The end date attribute, left out or spoiled as the defect says. */
    static void endDate(XmlBytes out, byte[] name, Plan plan, Kind defect) {
        if (defect == Kind.MISSING_END) {
            return;
        }
        out.raw(name);
        if (defect == Kind.END_HOUR_24) {
            out.ascii(RecordDefects.hour24(plan.end()));
        } else {
            out.dateTime(plan.end());
        }
        out.raw(QUOTE);
    }

    /** {@code sell_from="..." sell_to="..." sold_out="...">} and the line break: the same in both dialects. */
    static void sales(XmlBytes out, Plan plan) {
        date(out, SELL_FROM, plan.sellFrom());
        out.raw(SELL_TO).dateTime(plan.sellTo());
        out.raw(plan.soldOut() ? SOLD_OUT_TRUE : SOLD_OUT_FALSE);
    }

    private static void date(XmlBytes out, byte[] name, LocalDateTime t) {
        out.raw(name).dateTime(t);
    }

    /** The zone lines; the zone at {@code badPriceAt} (if any) gets a bad price. */
    private static void zones(XmlBytes out, Plan plan, int badPriceAt, Map<String, byte[]> names) {
        int i = 0;
        for (Zone z : plan.zones()) {
            byte[] name = names.computeIfAbsent(z.name(), XmlBytes::escape);
            out.reserve(ZONE_LINE + name.length);
            out.raw(ZONE_ID).integer(z.zoneId());
            out.raw(CAPACITY).integer(z.capacity());
            out.raw(PRICE);
            if (i++ == badPriceAt) {
                out.ascii(RecordDefects.badPrice(plan));
            } else {
                out.price(z.priceCents());
            }
            out.raw(NAME).raw(name);
            out.raw(z.numbered() ? NUMBERED_TRUE : NUMBERED_FALSE);
        }
    }
}
