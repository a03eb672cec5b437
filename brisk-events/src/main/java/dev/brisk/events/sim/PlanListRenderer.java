package dev.brisk.events.sim;

import dev.brisk.events.sim.RecordDefects.Kind;

/**
 * Dialect A: {@code <planList version="1.0"><output><base_plan base_plan_id sell_mode title
 * organizer_company_id><plan plan_start_date plan_end_date plan_id sell_from sell_to sold_out>
 * <zone .../>}.
 */
final class PlanListRenderer extends FeedRenderer {
    private static final byte[] ROOT_OPEN = XmlBytes.constant("<planList version=\"1.0\">\n");
    private static final byte[] ROOT_CLOSE = XmlBytes.constant("</planList>\n");
    private static final byte[] BASE_ID = XmlBytes.constant("    <base_plan base_plan_id=\"");
    private static final byte[] ORGANIZER = XmlBytes.constant("\" organizer_company_id=\"");
    private static final byte[] BASE_END = XmlBytes.constant("\">\n");
    private static final byte[] BASE_CLOSE = XmlBytes.constant("    </base_plan>\n");
    private static final byte[] PLAN_OPEN = XmlBytes.constant("      <plan");
    private static final byte[] START = XmlBytes.constant(" plan_start_date=\"");
    private static final byte[] END = XmlBytes.constant(" plan_end_date=\"");
    private static final byte[] PLAN_ID = XmlBytes.constant(" plan_id=\"");
    private static final byte[] PLAN_CLOSE = XmlBytes.constant("      </plan>\n");

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
        out.raw(base.online() ? ONLINE : OFFLINE).escaped(base.title());
        out.raw(ORGANIZER).integer(base.organizerId()).raw(BASE_END);
    }

    @Override
    void closeBase(XmlBytes out) {
        out.raw(BASE_CLOSE);
    }

    @Override
    void openPlan(XmlBytes out, Plan plan, Kind defect) {
        out.raw(PLAN_OPEN);
        startDate(out, START, plan, defect);
        endDate(out, END, plan, defect);
        planId(out, PLAN_ID, plan, defect);
        sales(out, plan);
    }

    @Override
    void closePlan(XmlBytes out) {
        out.raw(PLAN_CLOSE);
    }
}
