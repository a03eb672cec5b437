package dev.brisk;

/** Routes under a common path prefix, sharing middleware. */
public interface RouteGroup extends Routing {
    /**
     * Wraps every route of this group registered after this call.
     *
     * @param middleware the wrapper, inside the app's middleware
     * @return this group
     */
    RouteGroup use(Middleware middleware);

    /**
     * A nested group under this group's prefix; it inherits this group's middleware.
     *
     * @param prefix appended to this group's prefix
     * @param routes called once, at once, to declare the nested group's routes
     * @return this group
     */
    RouteGroup group(String prefix, java.util.function.Consumer<RouteGroup> routes);
}
