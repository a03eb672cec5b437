package dev.brisk.events.sim;

import dev.brisk.events.sim.RecordDefects.Kind;

/**
 * Dialect B: {@code <eventList version="1.0"><output><base_event base_event_id sell_mode title>
 * <event event_id event_start_date event_end_date sell_from sell_to sold_out><zone .../>}.
 */
final class EventListRenderer extends FeedRenderer {
    private static final byte[] ROOT_OPEN = XmlBytes.constant("<eventList version=\"1.0\">\n");
    private static final byte[] ROOT_CLOSE = XmlBytes.constant("</eventList>\n");
    private static final byte[] BASE_ID = XmlBytes.constant("    <base_event base_event_id=\"");
    private static final byte[] BASE_END = XmlBytes.constant("\">\n");
    private static final byte[] BASE_CLOSE = XmlBytes.constant("    </base_event>\n");
    private static final byte[] EVENT_OPEN = XmlBytes.constant("      <event");
    private static final byte[] EVENT_ID = XmlBytes.constant(" event_id=\"");
    private static final byte[] START = XmlBytes.constant(" event_start_date=\"");
    private static final byte[] END = XmlBytes.constant(" event_end_date=\"");
    private static final byte[] EVENT_CLOSE = XmlBytes.constant("      </event>\n");

    @Override
    void openRoot(XmlBytes out) {
        out.raw(ROOT_OPEN);
    }

    @Override
    void closeRoot(XmlBytes out) {
        out.raw(ROOT_CLOSE);
    }

    @Override
    void openBase(XmlBytes out, BasePlan base) {
        out.raw(BASE_ID).integer(base.baseId());
        out.raw(base.online() ? ONLINE : OFFLINE).escaped(base.title()).raw(BASE_END);
    }

    @Override
    void closeBase(XmlBytes out) {
        out.raw(BASE_CLOSE);
    }

    @Override
    void openPlan(XmlBytes out, Plan plan, Kind defect) {
        out.raw(EVENT_OPEN);
        planId(out, EVENT_ID, plan, defect);
        startDate(out, START, plan, defect);
        endDate(out, END, plan, defect);
        sales(out, plan);
    }

    @Override
    void closePlan(XmlBytes out) {
        out.raw(EVENT_CLOSE);
    }
}
