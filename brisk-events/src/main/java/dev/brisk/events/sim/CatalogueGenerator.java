package dev.brisk.events.sim;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds the provider's catalogue and its later generations from a seed: the same options give the
 * same sequence of catalogues, byte for byte once rendered.
 *
 * <p>Quirks it produces on purpose: offline base plans, plan ids repeated under different base plans,
 * zone ids repeated inside a plan (with their own price), ids with gaps, several plans per base.
 *
 * <p>Identity rule across generations: base ids only grow and a plan added to an existing base gets
 * a plan id above every id issued so far, so a (base, plan) pair that left the feed never comes back
 * with other values. A plan that stays keeps its values, except for an occasional price change of
 * one zone or a new title of its base.
 *
 * <p>Not thread-safe: the caller serialises {@link #first} and {@link #next}.
 */
final class CatalogueGenerator {
    private static final double OFFLINE_SHARE = 0.12;
    private static final double REUSED_PLAN_IDS_SHARE = 0.15;
    private static final double DUPLICATE_ZONE_SHARE = 0.03;
    private static final double SOLD_OUT_SHARE = 0.05;
    private static final double PRICE_CHANGE_SHARE = 0.05;
    private static final double TITLE_CHANGE_SHARE = 0.02;
    private static final double ADD_TO_EXISTING_BASE_SHARE = 0.3;

    private final SplittableRandom random;
    private final int events;
    private final int zonesPerPlan;
    private final LocalDate firstDay;
    private final int spanDays;
    private final double churnFraction;
    private int lastBaseId;
    private int lastPlanId;
    /** The plan ids of the last new base, for the next one to repeat. */
    private int[] previousPlanIds = new int[0];

    CatalogueGenerator(SimulatorOptions o) {
        this.random = new SplittableRandom(o.seed());
        this.events = o.events();
        this.zonesPerPlan = o.zones();
        this.firstDay = o.firstDay();
        this.spanDays = o.spanDays();
        this.churnFraction = o.churnFraction();
    }

    /** Generation 1: {@code events} plans. */
    Catalogue first() {
        List<BasePlan> bases = new ArrayList<>();
        addNewBases(bases, events);
        return new Catalogue(1, bases);
    }

    /**
     * The generation after {@code current}: {@code churnFraction} of its plans (at least one when
     * above zero) leave, as many new ones arrive, so the total stays at {@code events}.
     */
    Catalogue next(Catalogue current) {
        int total = current.planCount();
        int leaving = (int) Math.round(total * churnFraction);
        if (leaving == 0 && churnFraction > 0 && total > 0) {
            leaving = 1;
        }
        boolean[] leaves = pick(total, leaving);
        List<BasePlan> bases = new ArrayList<>(current.bases().size() + leaving);
        int index = 0;
        for (BasePlan base : current.bases()) {
            List<Plan> kept = new ArrayList<>(base.plans().size());
            for (Plan p : base.plans()) {
                if (!leaves[index++]) {
                    kept.add(random.nextDouble() < PRICE_CHANGE_SHARE ? withNewPrice(p) : p);
                }
            }
            if (!kept.isEmpty()) {
                BasePlan b = base.withPlans(kept);
                if (random.nextDouble() < TITLE_CHANGE_SHARE) {
                    b = b.withTitle(Names.otherTitle(random, b.title()));
                }
                bases.add(b);
            }
        }
        int arriving = events - (total - leaving);
        int survivors = bases.size();
        while (arriving > 0) {
            if (survivors > 0 && random.nextDouble() < ADD_TO_EXISTING_BASE_SHARE) {
                int i = random.nextInt(survivors);
                BasePlan b = bases.get(i);
                List<Plan> plans = new ArrayList<>(b.plans());
                Plan last = plans.getLast();
                plans.add(newPlan(++lastPlanId, clampDay(last.start().toLocalDate().plusDays(1 + random.nextInt(6)))));
                bases.set(i, b.withPlans(plans));
                arriving--;
            } else {
                arriving -= addNewBases(bases, Math.min(arriving, plansPerBase()));
            }
        }
        return new Catalogue(current.generation() + 1, bases);
    }

    /** {@code count} distinct indices below {@code total}, by a partial Fisher-Yates shuffle. */
    private boolean[] pick(int total, int count) {
        int[] order = new int[total];
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        boolean[] chosen = new boolean[total];
        for (int i = 0; i < count; i++) {
            int j = i + random.nextInt(total - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
            chosen[order[i]] = true;
        }
        return chosen;
    }

    /** Appends new bases holding {@code plans} plans in all; returns {@code plans}. */
    private int addNewBases(List<BasePlan> bases, int plans) {
        int left = plans;
        while (left > 0) {
            int n = Math.min(left, plansPerBase());
            bases.add(newBase(n));
            left -= n;
        }
        return plans;
    }

    /** 1 to 4, mostly 1 or 2. */
    private int plansPerBase() {
        double r = random.nextDouble();
        return r < 0.5 ? 1 : r < 0.8 ? 2 : r < 0.95 ? 3 : 4;
    }

    private BasePlan newBase(int planCount) {
        lastBaseId += 1 + random.nextInt(3); // gaps, as real ids have
        boolean online = random.nextDouble() >= OFFLINE_SHARE;
        String title = Names.title(random);
        int organizer = 1 + random.nextInt(25);
        int[] planIds = new int[planCount];
        if (previousPlanIds.length >= planCount && random.nextDouble() < REUSED_PLAN_IDS_SHARE) {
            // same plan ids as another base: only (base, plan) identifies an event
            System.arraycopy(previousPlanIds, 0, planIds, 0, planCount);
        } else {
            for (int i = 0; i < planCount; i++) {
                lastPlanId += 1 + random.nextInt(2);
                planIds[i] = lastPlanId;
            }
        }
        previousPlanIds = planIds;
        LocalDate day = firstDay.plusDays(random.nextInt(Math.max(1, spanDays - 18)));
        List<Plan> plans = new ArrayList<>(planCount);
        for (int i = 0; i < planCount; i++) {
            if (i > 0) {
                day = clampDay(day.plusDays(1 + random.nextInt(6)));
            }
            plans.add(newPlan(planIds[i], day));
        }
        return new BasePlan(lastBaseId, online, title, organizer, plans);
    }

    private LocalDate clampDay(LocalDate day) {
        LocalDate lastDay = firstDay.plusDays(spanDays - 1L);
        return day.isAfter(lastDay) ? lastDay : day;
    }

    private Plan newPlan(int planId, LocalDate day) {
        LocalDateTime start = day.atTime(10 + random.nextInt(13), random.nextBoolean() ? 0 : 30);
        LocalDateTime end = start.plusMinutes(60 + 30L * random.nextInt(7)); // 1 to 4 hours
        LocalDateTime sellFrom = day.minusDays(30 + random.nextInt(335)).atStartOfDay();
        LocalDateTime sellTo = start.minusHours(1);
        boolean soldOut = random.nextDouble() < SOLD_OUT_SHARE;
        return new Plan(planId, start, end, sellFrom, sellTo, soldOut, newZones());
    }

    private List<Zone> newZones() {
        List<Zone> zones = new ArrayList<>(zonesPerPlan);
        int id = random.nextInt(50);
        int basePrice = 500 + 50 * random.nextInt(90); // 5.00 to 49.50
        for (int i = 0; i < zonesPerPlan; i++) {
            int price = basePrice + 5 * random.nextInt(3000);
            int capacity = random.nextInt(501);
            if (i > 0 && random.nextDouble() < DUPLICATE_ZONE_SHARE) {
                Zone twin = zones.get(random.nextInt(i));
                zones.add(new Zone(twin.zoneId(), capacity, price, twin.name(), twin.numbered()));
            } else {
                id += 1 + random.nextInt(3);
                zones.add(new Zone(id, capacity, price, Names.zoneName(random), random.nextBoolean()));
            }
        }
        return zones;
    }

    private Plan withNewPrice(Plan p) {
        List<Zone> zones = new ArrayList<>(p.zones());
        int i = random.nextInt(zones.size());
        Zone z = zones.get(i);
        int delta = 5 * (1 + random.nextInt(400));
        int price = random.nextBoolean() || z.priceCents() - delta < 100 ? z.priceCents() + delta : z.priceCents() - delta;
        zones.set(i, z.withPrice(price));
        return p.withZones(zones);
    }
}
