package dev.brisk.events.sim;

/**
 * A priced area of a plan's venue. Prices are whole cents so that rendering and the truth agree
 * exactly (no binary fractions on the way).
 *
 * @param zoneId     the provider's zone id; may repeat inside one plan (a provider quirk)
 * @param capacity   seats left, 0 or more
 * @param priceCents price in cents, above 0
 * @param name       display name (may need XML escaping)
 * @param numbered   whether seats are numbered
 */
record Zone(int zoneId, int capacity, int priceCents, String name, boolean numbered) {
    Zone withPrice(int cents) {
        return new Zone(zoneId, capacity, cents, name, numbered);
    }
}
