package dev.brisk.events.sim;

import java.time.LocalDateTime;
import java.util.Locale;

/**
 * Which online records the feed spoils, and how. The choice is a pure function of (seed, base id,
 * plan id, rate), so the renderer and the truth agree without sharing state, a record stays good or
 * bad from one generation to the next, and raising the rate only adds bad records.
 *
 * <p>Offline records are never spoiled: the service ignores them anyway, and this keeps its
 * "skipped" and "not online" counts separable.
 */
final class RecordDefects {

    /** One way a record is unusable. Every kind makes the whole plan record bad, nothing else. */
    enum Kind {
        /** The start is a day that does not exist, e.g. {@code 2021-09-31T10:00:00}. */
        START_DAY_OUT_OF_RANGE,
        /** The end has hour 24, e.g. {@code 2021-06-30T24:00:00}. */
        END_HOUR_24,
        /** The start is not ISO, e.g. {@code 30/06/2021 21:00}. */
        START_NOT_ISO,
        /** No plan id / event id attribute. */
        MISSING_ID,
        /** No start date attribute. */
        MISSING_START,
        /** No end date attribute. */
        MISSING_END,
        /** One zone's price is not a decimal with two places ({@code 12,50}, empty, {@code free}, {@code NaN}). */
        BAD_PRICE,
        /** The plan has no zone elements, so it has no price. */
        NO_ZONES
    }

    private static final Kind[] KINDS = Kind.values();
    private static final String[] BAD_PRICES = {"12,50", "", "free", "NaN"};

    private final long seed;

    RecordDefects(long seed) {
        this.seed = seed;
    }

    /** The defect of this record at {@code rate}, or null when it is rendered as generated. */
    Kind of(BasePlan base, Plan plan, double rate) {
        if (rate <= 0 || !base.online()) {
            return null;
        }
        long h = mix(seed ^ mix(((long) base.baseId() << 32) ^ (plan.planId() & 0xFFFFFFFFL)));
        double u = (h >>> 11) * 0x1.0p-53; // top 53 bits: uniform in [0, 1)
        if (u >= rate) {
            return null;
        }
        return KINDS[(int) Math.floorMod(mix(h), (long) KINDS.length)];
    }

    /** For {@link Kind#BAD_PRICE}: which zone gets the bad price. */
    static int badZoneIndex(Plan plan) {
        return Math.floorMod(plan.planId() * 31 + plan.zones().size(), plan.zones().size());
    }

    /** For {@link Kind#BAD_PRICE}: the text written in place of the price. */
    static String badPrice(Plan plan) {
        return BAD_PRICES[Math.floorMod(plan.planId(), BAD_PRICES.length)];
    }

    /** For {@link Kind#START_DAY_OUT_OF_RANGE}: 30 February or the 31st of a 30-day month, same year and time. */
    static String dayOutOfRange(LocalDateTime t) {
        int[] months = {2, 4, 6, 9, 11};
        int month = months[Math.floorMod(t.getDayOfYear(), months.length)];
        return String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:00", t.getYear(), month, month == 2 ? 30 : 31,
                t.getHour(), t.getMinute());
    }

    /** For {@link Kind#END_HOUR_24}: the end day at hour 24. */
    static String hour24(LocalDateTime t) {
        return String.format(Locale.ROOT, "%04d-%02d-%02dT24:00:00", t.getYear(), t.getMonthValue(), t.getDayOfMonth());
    }

    /** For {@link Kind#START_NOT_ISO}: day first, no seconds. */
    static String notIso(LocalDateTime t) {
        return String.format(Locale.ROOT, "%02d/%02d/%04d %02d:%02d", t.getDayOfMonth(), t.getMonthValue(), t.getYear(),
                t.getHour(), t.getMinute());
    }

    /** A 64-bit finaliser (the SplitMix64 one): spreads every input bit over the output. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
