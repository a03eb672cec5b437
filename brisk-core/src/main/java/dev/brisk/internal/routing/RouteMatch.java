package dev.brisk.internal.routing;

/** The outcome of a lookup: the entry for the path and the raw (still encoded) parameter values. */
public record RouteMatch(RouteEntry entry, String[] rawParams) {
    static final String[] NONE = new String[0];
}
