package dev.brisk.internal.web;

import dev.brisk.BodyHandler;
import dev.brisk.BriskConfig;
import dev.brisk.Cors;
import dev.brisk.ConfigSource;
import dev.brisk.Dispatch;
import dev.brisk.ExceptionHandler;
import dev.brisk.Handler;
import dev.brisk.HealthConfig;
import dev.brisk.JsonCodec;
import dev.brisk.Method;
import dev.brisk.Middleware;
import dev.brisk.Route;
import dev.brisk.RouteGroup;
import dev.brisk.ServerOptions;
import dev.brisk.StaticFiles;
import dev.brisk.StaticResponse;
import dev.brisk.internal.compress.EncodedFiles;
import dev.brisk.internal.files.OpenFiles;
import dev.brisk.internal.files.StaticFileHandler;
import dev.brisk.WebSocketConfig;
import dev.brisk.internal.ws.WebSocketSpec;
import dev.brisk.internal.ws.WebSockets;
import dev.brisk.internal.ops.Readiness;
import dev.brisk.internal.ops.ReadinessHandler;
import dev.brisk.internal.routing.CompiledRoute;
import dev.brisk.internal.routing.FastRoutes;
import dev.brisk.internal.routing.Router;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * What {@link BriskConfig} collects: options, routes with their middleware, filters, exception and
 * error handlers. {@link #freeze} turns it into an {@link App}, building every chain then ({@link Chains}).
 * Single-threaded, and closed once frozen.
 */
public final class AppConfig implements BriskConfig {
    /** The liveness answer: served while the process serves at all. */
    private static final StaticResponse LIVE = StaticResponse.json("{\"status\":\"UP\"}")
            .withHeader("Cache-Control", "no-store");

    private final ServerOptions.Builder options = ServerOptions.builder();
    private ConfigSource source;
    private JsonCodec codec;
    private ExecutorService workerPool;
    private final Map<String, StaticResponse> fast = new LinkedHashMap<>();
    private final List<RouteSpec> routes = new ArrayList<>();
    private final List<Middleware> middleware = new ArrayList<>();
    private final List<Handler> before = new ArrayList<>();
    private final List<Handler> after = new ArrayList<>();
    private final Map<Class<?>, ExceptionHandler<Throwable>> exceptions = new HashMap<>();
    private final Map<Integer, Handler> errors = new HashMap<>();
    private final Readiness readiness = new Readiness();
    /** The handlers of the static mounts: they share the server-wide open-file bound, set at freeze. */
    private final List<StaticFileHandler> staticHandlers = new ArrayList<>();
    /** Stands for a WebSocket route's core until freeze makes it: never runs. */
    private static final Handler WEB_SOCKET_PLACEHOLDER = ctx -> {
        throw new IllegalStateException("a WebSocket route's handler is made when the app starts");
    };
    private boolean healthDeclared;
    private boolean frozen;

    /** A route as declared: the middleware list is the app's and groups' at declaration, plus its own. */
    static final class RouteSpec implements Route {
        final Method method;
        final String path;
        final Handler handler;
        final List<Middleware> groupMiddleware;
        final List<Middleware> own = new ArrayList<>();
        Dispatch dispatch;
        boolean neverShed;
        long maxBodySize = CompiledRoute.SERVER_LIMIT;
        boolean streamBody;
        /** Served as is: no app middleware, no before filters (like a fast-static route). */
        boolean bare;
        /** Its body is bound from JSON before the handler runs: the app needs a codec. */
        boolean bindsJson;
        /** A WebSocket route: its core handler is made at freeze, from this and the route's dispatch. */
        WebSocketSpec webSocket;

        RouteSpec(Method method, String path, Handler handler, List<Middleware> groupMiddleware) {
            this.method = method;
            this.path = path;
            this.handler = handler;
            this.groupMiddleware = groupMiddleware;
        }

        @Override
        public Route dispatch(Dispatch d) {
            this.dispatch = d;
            return this;
        }

        @Override
        public Route use(Middleware m) {
            own.add(m);
            return this;
        }

        @Override
        public Route neverShed() {
            this.neverShed = true;
            return this;
        }

        @Override
        public Route maxBodySize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxBodySize must be 0 or more: " + bytes);
            }
            this.maxBodySize = bytes;
            return this;
        }

        @Override
        public Route streamBody() {
            this.streamBody = true;
            return this;
        }
    }

    private void checkOpen() {
        if (frozen) {
            throw new IllegalStateException("the app is already started: configure it inside Brisk.create");
        }
    }

    @Override
    public ServerOptions.Builder options() {
        checkOpen();
        return options;
    }

    @Override
    public BriskConfig configSource(ConfigSource s) {
        checkOpen();
        source = s;
        return this;
    }

    @Override
    public BriskConfig json(JsonCodec c) {
        checkOpen();
        codec = c;
        return this;
    }

    @Override
    public BriskConfig workerPool(ExecutorService executor) {
        checkOpen();
        workerPool = executor;
        return this;
    }

    public ExecutorService workerPool() {
        return workerPool;
    }

    /** The codec given to {@link #json}, or null. */
    public JsonCodec jsonCodec() {
        return codec;
    }

    @Override
    public BriskConfig fastGet(String path, StaticResponse response) {
        checkOpen();
        if (path == null || !path.startsWith("/") || path.indexOf('?') >= 0 || path.indexOf('{') >= 0) {
            throw new IllegalArgumentException("fastGet needs an exact path: " + path);
        }
        if (fast.put(path, response) != null) {
            throw new IllegalArgumentException("duplicate fast route: " + path);
        }
        return this;
    }

    @Override
    public BriskConfig health(Consumer<HealthConfig> spec) {
        checkOpen();
        if (healthDeclared) {
            throw new IllegalStateException("health is already declared: declare it once, with every check");
        }
        HealthSpec h = new HealthSpec();
        spec.accept(h);
        if (h.livenessPath.equals(h.readinessPath)) {
            throw new IllegalArgumentException("liveness and readiness need different paths: " + h.livenessPath);
        }
        healthDeclared = true;
        readiness.set(!h.startNotReady);
        fastGet(h.livenessPath, LIVE);
        ReadinessHandler ready = new ReadinessHandler(readiness, List.copyOf(h.checks), h.checkTimeout);
        RouteSpec r = (RouteSpec) addRoute(Method.GET, h.readinessPath, ready, List.of());
        r.bare = true;
        r.neverShed = true;
        // checks may block: never on an event loop, nor on a worker pool that handlers may have filled
        r.dispatch = ready.blocks() ? Dispatch.VIRTUAL_THREADS : Dispatch.EVENT_LOOP;
        return this;
    }

    @Override
    public Route route(Method method, String path, Handler handler) {
        return addRoute(method, path, handler, List.of());
    }

    @Override
    public <T> Route route(Method method, String path, Type bodyType, BodyHandler<T> handler) {
        return addJsonRoute(method, path, bodyType, handler, List.of());
    }

    @Override
    public Route ws(String path, Consumer<WebSocketConfig> spec) {
        return addWebSocketRoute(path, spec, List.of());
    }

    private Route addWebSocketRoute(String path, Consumer<WebSocketConfig> spec, List<Middleware> groupMw) {
        checkOpen();
        if (spec == null) {
            throw new IllegalArgumentException("a WebSocket route needs its handlers");
        }
        WebSocketSpec s = new WebSocketSpec();
        spec.accept(s);
        s.check(path);
        RouteSpec r = (RouteSpec) addRoute(Method.GET, path, WEB_SOCKET_PLACEHOLDER, groupMw);
        r.webSocket = s;
        return r;
    }

    private <T> Route addJsonRoute(Method method, String path, Type bodyType, BodyHandler<T> handler,
            List<Middleware> groupMw) {
        if (bodyType == null || handler == null) {
            throw new IllegalArgumentException("body type and handler are required");
        }
        RouteSpec r = (RouteSpec) addRoute(method, path, ctx -> handler.handle(ctx, ctx.bodyAsJson(bodyType)), groupMw);
        r.bindsJson = true;
        return r;
    }

    @Override
    public Route staticFiles(String prefix, StaticFiles files) {
        return addStatic(prefix, files, List.of());
    }

    /** The two routes of a static mount ({@code prefix/*}, and {@code prefix} redirecting to it), on virtual threads. */
    private Route addStatic(String prefix, StaticFiles files, List<Middleware> groupMw) {
        checkOpen();
        if (files == null) {
            throw new IllegalArgumentException("static files are required");
        }
        String p = normalizePrefix(prefix);
        if (p.indexOf('{') >= 0 || p.indexOf('*') >= 0) {
            throw new IllegalArgumentException("a static prefix is a plain path: " + prefix);
        }
        StaticFileHandler handler = new StaticFileHandler(files);
        staticHandlers.add(handler);
        List<RouteSpec> specs = new ArrayList<>(2);
        specs.add((RouteSpec) addRoute(Method.GET, p + "/*", handler, groupMw));
        if (!p.isEmpty()) {
            specs.add((RouteSpec) addRoute(Method.GET, p, StaticFileHandler.mountRoot(p), groupMw));
        }
        for (RouteSpec r : specs) {
            r.dispatch = Dispatch.VIRTUAL_THREADS; // a lookup or an open may wait for the disk
        }
        return new Route() {
            @Override
            public Route dispatch(Dispatch d) {
                specs.forEach(r -> r.dispatch(d));
                return this;
            }

            @Override
            public Route use(Middleware m) {
                specs.forEach(r -> r.use(m));
                return this;
            }

            @Override
            public Route neverShed() {
                specs.forEach(RouteSpec::neverShed);
                return this;
            }

            @Override
            public Route maxBodySize(long bytes) {
                specs.forEach(r -> r.maxBodySize(bytes));
                return this;
            }

            @Override
            public Route streamBody() {
                specs.forEach(RouteSpec::streamBody);
                return this;
            }
        };
    }

    private Route addRoute(Method method, String path, Handler handler, List<Middleware> groupMw) {
        checkOpen();
        if (method == null || handler == null) {
            throw new IllegalArgumentException("method and handler are required");
        }
        Router.paramNames(path); // validates the template now, where the mistake was made
        RouteSpec r = new RouteSpec(method, path, handler, groupMw);
        routes.add(r);
        return r;
    }

    @Override
    public BriskConfig group(String prefix, Consumer<RouteGroup> body) {
        checkOpen();
        body.accept(new Group(normalizePrefix(prefix), new ArrayList<>()));
        return this;
    }

    private static String normalizePrefix(String prefix) {
        if (prefix == null || !prefix.startsWith("/")) {
            throw new IllegalArgumentException("group prefix must start with '/': " + prefix);
        }
        return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    }

    private final class Group implements RouteGroup {
        private final String prefix;
        private final List<Middleware> mw;

        Group(String prefix, List<Middleware> mw) {
            this.prefix = prefix;
            this.mw = mw;
        }

        @Override
        public Route route(Method method, String path, Handler handler) {
            return addRoute(method, full(path), handler, List.copyOf(mw));
        }

        @Override
        public <T> Route route(Method method, String path, Type bodyType, BodyHandler<T> handler) {
            return addJsonRoute(method, full(path), bodyType, handler, List.copyOf(mw));
        }

        @Override
        public Route ws(String path, Consumer<WebSocketConfig> spec) {
            return addWebSocketRoute(full(path), spec, List.copyOf(mw));
        }

        private String full(String path) {
            if (path == null || !(path.isEmpty() || path.startsWith("/"))) {
                throw new IllegalArgumentException("route path must start with '/': " + path);
            }
            return path.equals("/") || path.isEmpty() ? (prefix.isEmpty() ? "/" : prefix) : prefix + path;
        }

        @Override
        public Route staticFiles(String sub, StaticFiles files) {
            return addStatic(full(sub), files, List.copyOf(mw));
        }

        @Override
        public RouteGroup use(Middleware m) {
            checkOpen();
            mw.add(m);
            return this;
        }

        @Override
        public RouteGroup group(String sub, Consumer<RouteGroup> body) {
            checkOpen();
            body.accept(new Group(prefix + normalizePrefix(sub), new ArrayList<>(mw)));
            return this;
        }
    }

    @Override
    public BriskConfig use(Middleware m) {
        checkOpen();
        middleware.add(m);
        return this;
    }

    @Override
    public BriskConfig before(Handler filter) {
        checkOpen();
        before.add(filter);
        return this;
    }

    @Override
    public BriskConfig after(Handler filter) {
        checkOpen();
        after.add(filter);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Throwable> BriskConfig exception(Class<T> type, ExceptionHandler<? super T> handler) {
        checkOpen();
        exceptions.put(type, (ExceptionHandler<Throwable>) (ExceptionHandler<?>) handler);
        return this;
    }

    @Override
    public BriskConfig error(int status, Handler handler) {
        checkOpen();
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be 100-599: " + status);
        }
        errors.put(status, handler);
        return this;
    }

    /** Options that mean something only with TLS on; the key options themselves turn it on. */
    private static final java.util.List<String> TLS_ONLY = java.util.List.of("tls-keystore-password",
            "tls-client-auth", "tls-trust", "tls-protocols", "tls-handshake-timeout", "tls-reload-interval");

    /** The options: code values overlaid with the outside configuration. */
    public ServerOptions resolvedOptions() {
        ConfigSource src = source != null ? source : ConfigSource.load();
        ServerOptions resolved = options.from(src).build();
        System.Logger log = System.getLogger("dev.brisk");
        for (String typo : src.likelyTypos()) {
            // a misspelt limit would otherwise be silently the default
            log.log(System.Logger.Level.WARNING, typo);
        }
        if (!resolved.tls().enabled()) {
            for (String option : TLS_ONLY) {
                if (src.get(option).isPresent()) {
                    // most likely the key is what is missing: the user believes the server speaks TLS
                    log.log(System.Logger.Level.WARNING, option + " (brisk." + option + " / " + ConfigSource.envName(option)
                            + ") is set but has no effect: TLS is off (no tls-cert and tls-key, nor tls-keystore)");
                }
            }
        }
        return resolved;
    }

    /**
     * A route that binds its body from JSON needs a codec: without one, the app fails here, before
     * anything listens, rather than answering 500 at the route's first request.
     */
    private void requireCodecWhereDeclared() {
        if (codec != null) {
            return;
        }
        List<String> needing = new ArrayList<>();
        for (RouteSpec r : routes) {
            if (r.bindsJson) {
                needing.add(r.method + " " + r.path);
            }
        }
        if (!needing.isEmpty()) {
            throw new IllegalStateException("no JsonCodec configured, but " + (needing.size() == 1 ? "route "
                    : "routes ") + String.join(", ", needing) + " bind" + (needing.size() == 1 ? "s" : "")
                    + " a JSON body: add brisk-jackson and call cfg.json(new JacksonJsonCodec())");
        }
    }

    /** The CORS policy a chain applies last (its headers win), or null. */
    private static Cors innermostCors(List<Middleware> mw) {
        for (int i = mw.size() - 1; i >= 0; i--) {
            if (mw.get(i) instanceof Cors c) {
                return c;
            }
        }
        return null;
    }

    /** Builds the chains once and freezes this config. */
    public App freeze(ServerOptions opts) {
        requireCodecWhereDeclared();
        frozen = true;
        OpenFiles openFiles = new OpenFiles(opts.maxOpenFiles()); // one bound for every mount
        staticHandlers.forEach(h -> h.bind(openFiles));
        ExceptionMapping failures = new ExceptionMapping(exceptions, errors);
        Chains chains = new Chains(middleware, before, failures);
        Router router = new Router();
        WebSockets webSockets = new WebSockets(opts.webSocket(), opts.writeTimeout());
        // routes whose middleware is more than the app's: their preflights run through it (see Routing)
        Map<CompiledRoute, List<Middleware>> guarded = new IdentityHashMap<>();
        Map<CompiledRoute, Cors> corsByRoute = new IdentityHashMap<>(); // for the engine's own answers
        for (RouteSpec r : routes) {
            Handler h;
            List<Middleware> mw = null;
            Dispatch d = r.dispatch != null ? r.dispatch : opts.dispatch();
            Handler core = r.webSocket != null ? webSockets.route(r.webSocket, d) : r.handler;
            if (r.bare) {
                h = core;
            } else {
                mw = new ArrayList<>(middleware);
                mw.addAll(r.groupMiddleware);
                mw.addAll(r.own);
                h = chains.route(mw, core);
            }
            CompiledRoute compiled = new CompiledRoute(r.method, r.path, Router.paramNames(r.path), h, d, r.neverShed,
                    r.maxBodySize, r.streamBody);
            router.add(compiled);
            Cors cors = mw == null ? null : innermostCors(mw);
            if (cors != null) {
                corsByRoute.put(compiled, cors);
            }
            if (mw != null && mw.size() > middleware.size()) {
                guarded.put(compiled, mw);
            }
        }
        Map<String, dev.brisk.internal.routing.RouteStats> fastStats = new HashMap<>();
        for (Map.Entry<String, StaticResponse> f : fast.entrySet()) {
            // also a normal route, so other methods get 405/OPTIONS and a GET with a body is served
            // (the fast path only takes body-less GET and HEAD)
            CompiledRoute normal = new CompiledRoute(Method.GET, f.getKey(), List.of(), Chains.serving(f.getValue()),
                    Dispatch.EVENT_LOOP, true);
            router.add(normal);
            fastStats.put(f.getKey(), normal.stats());
        }
        RequestServices services = new RequestServices(codec, opts.forms(), corsByRoute);
        Routing routing = new Routing(router, chains, guarded, services, opts.dispatch());
        EncodedFiles encodedFiles = new EncodedFiles(opts.compressedFileCache()); // one bound for every mount
        Dispatcher dispatcher = new Dispatcher(new ChainRunner(after, failures, encodedFiles));
        return new App(routing, dispatcher, new FastRoutes(fast, fastStats), readiness, webSockets, services, encodedFiles);
    }
}
