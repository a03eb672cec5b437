package dev.brisk;

/** Routes under a common path prefix, sharing middleware. */
public interface RouteGroup extends Routing {
    /** Wraps every route of this group registered after this call. */
    RouteGroup use(Middleware middleware);

    /** A nested group under this group's prefix. */
    RouteGroup group(String prefix, java.util.function.Consumer<RouteGroup> routes);
}
