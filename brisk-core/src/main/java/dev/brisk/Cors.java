package dev.brisk;

import dev.brisk.internal.http.Ascii;
import dev.brisk.internal.web.Origins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Cross-origin resource sharing (the Fetch standard's CORS protocol) as a ready {@link Middleware}:
 * answers preflights and adds the {@code Access-Control-*} headers for the origins it allows.
 *
 * <pre>{@code
 * Cors cors = Cors.builder()
 *         .allowOrigin("https://example.com")
 *         .allowOriginPattern("https://*.example.com")
 *         .allowMethods(Method.PUT, Method.DELETE)
 *         .allowHeaders("Content-Type", "Authorization")
 *         .exposeHeaders("X-Request-Id")
 *         .allowCredentials(true)
 *         .maxAge(Duration.ofMinutes(10))
 *         .build();
 * cfg.use(cors);                                  // every route, and the 404/405/OPTIONS answers
 * cfg.group("/api", g -> g.use(cors).get(...));   // or a group's routes (or one route's: route.use)
 * }</pre>
 *
 * <p><b>What it answers.</b> A request without {@code Origin} is not a CORS request: it passes through
 * untouched but for {@code Vary: Origin}. A <em>preflight</em> ({@code OPTIONS} with {@code Origin} and
 * {@code Access-Control-Request-Method}) is answered here, without calling the rest of the chain:
 * {@code 204} with {@code Access-Control-Allow-Origin}, {@code -Allow-Methods}, {@code -Allow-Headers}
 * (when any are allowed), {@code -Allow-Credentials} and {@code -Max-Age} (when set) when the origin,
 * the method and every requested header are allowed; otherwise {@code 403} with a plain-text reason and
 * no CORS header, as the Fetch standard suggests for a refusal. Any other request from an allowed origin
 * gets {@code Access-Control-Allow-Origin} (the request's origin, or {@code *} with
 * {@link Builder#allowAnyOrigin()}), {@code -Allow-Credentials} and {@code -Expose-Headers}, set before
 * the rest of the chain runs, so they stay on its error answers too. A request from an origin not
 * allowed is served as usual, without CORS headers: the browser then keeps the answer from the page.
 * CORS is not access control: it only tells browsers what pages of other origins may read.
 *
 * <p><b>The engine's own answers.</b> A routed request refused before any middleware runs (a body over
 * the route's limit, a body no budget can take, a request shed, a body too slow, a thread pool that
 * refuses it) gets the CORS headers of its route's innermost {@code Cors} ({@link #answerHeaders}) on
 * its {@code 413}, {@code 503}, {@code 408} or other refusal, so a page of an allowed origin can read
 * it. Only the innermost policy counts there: with an outer {@code allowAnyOrigin()} and a stricter
 * inner policy, such a refusal carries the inner one's answer.
 *
 * <p><b>Before routing.</b> A preflight for a path whose routes have no {@code OPTIONS} is still answered
 * by CORS, never by the automatic {@code OPTIONS} or a {@code 405}: app middleware wraps the automatic
 * answers, and for a CORS middleware on a group or a route, the app runs the preflight through the
 * middleware of the route for the method it announces ({@code Access-Control-Request-Method}). A path
 * with an {@code OPTIONS} route of its own gets its preflights there: put the CORS middleware on that
 * route too.
 *
 * <p><b>Caching.</b> Unless every origin is allowed, the headers depend on the request's origin, so
 * every response that passes through gets {@code Vary: Origin} (added to a {@code Vary} already set,
 * unless it names {@code Origin} or is {@code *}); a handler that replaces {@code Vary} with
 * {@link Context#header} drops it, so add to it with {@link Context#addHeader}. With
 * {@link Builder#allowAnyOrigin()} every response gets {@code Access-Control-Allow-Origin: *} whatever
 * its {@code Origin}, so nothing varies.
 *
 * <p>Rules checked when building: at least one origin; credentials never with any origin (nor with a
 * {@code *} header list); the {@code null} origin is refused (see {@link Builder#allowOrigin}). Methods:
 * {@code GET}, {@code HEAD} and {@code POST} are always allowed (browsers never preflight them for the
 * method's sake); {@link Builder#allowMethods} adds others. Immutable and thread-safe.
 */
public final class Cors implements Middleware {
    private static final Set<Method> SAFELISTED = EnumSet.of(Method.GET, Method.HEAD, Method.POST);
    private static final List<String> VARY_ONLY = List.of("Vary", "Origin");

    private final boolean anyOrigin;
    private final Origins origins;
    private final Set<Method> methods;
    private final String allowMethods;
    private final Set<String> headers; // lower case
    private final boolean anyHeader;
    private final String allowHeaders; // null when none
    private final String exposeHeaders; // null when none
    private final boolean credentials;
    private final String maxAge; // null when not set

    private Cors(Builder b) {
        this.anyOrigin = b.anyOrigin;
        this.origins = Origins.of(b.origins, b.patterns);
        EnumSet<Method> m = EnumSet.copyOf(SAFELISTED);
        m.addAll(b.methods);
        this.methods = m;
        StringJoiner j = new StringJoiner(", ");
        m.forEach(x -> j.add(x.name()));
        this.allowMethods = j.toString();
        Set<String> h = new LinkedHashSet<>();
        for (String name : b.headers) {
            h.add(name.toLowerCase(Locale.ROOT));
        }
        this.anyHeader = h.contains("*");
        this.headers = Set.copyOf(h);
        this.allowHeaders = b.headers.isEmpty() ? null : String.join(", ", b.headers);
        this.exposeHeaders = b.exposed.isEmpty() ? null : String.join(", ", b.exposed);
        this.credentials = b.credentials;
        this.maxAge = b.maxAge == null ? null : Long.toString(b.maxAge.getSeconds());
    }

    /** {@return a builder with no origin allowed yet} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Wraps {@code next} with this policy.
     *
     * @param next the rest of the chain; not called for a preflight
     * @return the wrapping handler, thread-safe
     */
    @Override
    public Handler apply(Handler next) {
        return ctx -> {
            String origin = ctx.header("Origin");
            if (origin != null && "OPTIONS".equals(ctx.method())
                    && ctx.header("Access-Control-Request-Method") != null) {
                if (!anyOrigin) {
                    addVaryOrigin(ctx);
                }
                String refusal = allowed(ctx, origin) ? refusal(ctx)
                        : ctx.headers("Origin").size() > 1 ? "the request has more than one Origin field"
                        : "origin " + quote(origin) + " is not allowed";
                if (refusal != null) {
                    ctx.status(403).text("CORS preflight refused: " + refusal);
                } else {
                    answerPreflight(ctx, origin);
                }
                return; // answered: the rest of the chain is for the request the preflight announces
            }
            if (anyOrigin) {
                allowOrigin(ctx, "*");
            } else {
                addVaryOrigin(ctx);
                if (origin != null && allowed(ctx, origin)) {
                    allowOrigin(ctx, origin);
                }
            }
            next.handle(ctx);
        };
    }

    /**
     * The headers this policy puts on the answer to a request that is not a preflight, as name, value,
     * name, value...: {@code Vary: Origin} (unless every origin is allowed) and, for an allowed origin,
     * {@code Access-Control-Allow-Origin} and the rest. The server adds them to the answers it gives
     * before the chain runs (a body larger than the route allows, a request shed by load control or the
     * body budget, a body arriving too slowly), so that a page of an allowed origin reads their status
     * instead of a network error.
     *
     * @param originFields the request's {@code Origin} fields (exactly one, for an origin to be allowed)
     * @return the fields, possibly none; unmodifiable
     */
    public List<String> answerHeaders(List<String> originFields) {
        if (anyOrigin) {
            return credentialsAndExposed("*");
        }
        if (originFields.size() != 1 || !origins.allows(originFields.get(0))) {
            return VARY_ONLY;
        }
        List<String> h = new ArrayList<>(List.of("Vary", "Origin"));
        h.addAll(credentialsAndExposed(originFields.get(0)));
        return List.copyOf(h);
    }

    private List<String> credentialsAndExposed(String allowOrigin) {
        List<String> h = new ArrayList<>(6);
        h.add("Access-Control-Allow-Origin");
        h.add(allowOrigin);
        if (credentials) {
            h.add("Access-Control-Allow-Credentials");
            h.add("true");
        }
        if (exposeHeaders != null) {
            h.add("Access-Control-Expose-Headers");
            h.add(exposeHeaders);
        }
        return List.copyOf(h);
    }

    /** Whether the request's one {@code Origin} is allowed; two are malformed, and neither can be trusted. */
    private boolean allowed(Context ctx, String origin) {
        return (anyOrigin || origins.allows(origin)) && ctx.headers("Origin").size() == 1;
    }

    /** The headers of an allowed actual request, set before the rest of the chain: they stay on its error answers. */
    private void allowOrigin(Context ctx, String value) {
        ctx.header("Access-Control-Allow-Origin", value);
        if (credentials) {
            ctx.header("Access-Control-Allow-Credentials", "true");
        }
        if (exposeHeaders != null) {
            ctx.header("Access-Control-Expose-Headers", exposeHeaders);
        }
    }

    /** Why the preflight's method or headers are not allowed, or null when they are. */
    private String refusal(Context ctx) {
        String method = ctx.header("Access-Control-Request-Method");
        Method m = Method.of(method);
        if (m == null || !methods.contains(m)) {
            return "method " + quote(method) + " is not allowed";
        }
        for (String list : ctx.headers("Access-Control-Request-Headers")) {
            int i = 0;
            int n = list.length();
            while (i <= n) {
                int comma = list.indexOf(',', i);
                int end = comma < 0 ? n : comma;
                int from = i;
                int to = end;
                while (from < to && (list.charAt(from) == ' ' || list.charAt(from) == '\t')) {
                    from++;
                }
                while (to > from && (list.charAt(to - 1) == ' ' || list.charAt(to - 1) == '\t')) {
                    to--;
                }
                if (from < to) { // empty elements are allowed in a list (RFC 9110 5.6.1)
                    if (!isToken(list, from, to)) {
                        return "malformed Access-Control-Request-Headers " + quote(list);
                    }
                    String name = list.substring(from, to).toLowerCase(Locale.ROOT);
                    boolean ok = headers.contains(name) || (anyHeader && !name.equals("authorization"));
                    if (!ok) {
                        return "header " + quote(name) + " is not allowed";
                    }
                }
                i = end + 1;
            }
        }
        return null;
    }

    private void answerPreflight(Context ctx, String origin) {
        ctx.status(204);
        ctx.header("Access-Control-Allow-Origin", anyOrigin ? "*" : origin);
        if (credentials) {
            ctx.header("Access-Control-Allow-Credentials", "true");
        }
        ctx.header("Access-Control-Allow-Methods", allowMethods);
        if (allowHeaders != null) {
            ctx.header("Access-Control-Allow-Headers", allowHeaders);
        }
        if (maxAge != null) {
            ctx.header("Access-Control-Max-Age", maxAge);
        }
    }

    private static void addVaryOrigin(Context ctx) {
        String vary = ctx.responseHeader("Vary");
        if (vary != null) {
            for (String v : vary.split(",")) {
                String t = v.trim();
                if (t.equals("*") || t.equalsIgnoreCase("Origin")) {
                    return;
                }
            }
        }
        ctx.addHeader("Vary", "Origin");
    }

    private static boolean isToken(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 128 || !Ascii.isTchar(c)) {
                return false;
            }
        }
        return true;
    }

    /** Quotes a request value for a refusal's text: at most 64 characters, non-printable ones escaped. */
    private static String quote(String s) {
        if (s == null) {
            return "(none)";
        }
        StringBuilder b = new StringBuilder("\"");
        int n = Math.min(s.length(), 64);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c >= 0x7f ? String.format("\\x%02x", (int) c & 0xff) : String.valueOf(c));
        }
        return b.append(s.length() > n ? "\"..." : "\"").toString();
    }

    /**
     * Collects a CORS policy. Each method checks its arguments at once; {@link #build()} checks how they
     * combine. Not thread-safe.
     */
    public static final class Builder {
        private final List<String> origins = new ArrayList<>();
        private final List<String> patterns = new ArrayList<>();
        private boolean anyOrigin;
        private final Set<Method> methods = EnumSet.noneOf(Method.class);
        private final List<String> headers = new ArrayList<>();
        private final List<String> exposed = new ArrayList<>();
        private boolean credentials;
        private Duration maxAge;

        private Builder() {
        }

        /**
         * Allows exact origins, compared with the request's {@code Origin} as browsers serialize it.
         *
         * @param origins each {@code scheme://host[:port]}, such as {@code https://example.com}; case and
         *     a default port ({@code :443} for https) are normalized away
         * @return this builder
         * @throws IllegalArgumentException when one has a path (even {@code /}), a query, user info or a
         *     wildcard, or is {@code *} (see {@link #allowAnyOrigin()}) or {@code null}: the null origin
         *     is sent by sandboxed frames, {@code file:} pages and redirects, so allowing it would allow
         *     any site
         */
        public Builder allowOrigin(String... origins) {
            for (String o : origins) {
                this.origins.add(Origins.normalize(o));
            }
            return this;
        }

        /**
         * Allows the origins that match patterns: {@code scheme://*.domain} (one or more labels before
         * {@code domain}; {@code domain} itself is not matched, allow it with {@link #allowOrigin}),
         * {@code scheme://host:*} (any port, or none), or both. The request's origin is parsed and
         * compared part by part, so {@code https://*.example.com} matches {@code https://a.example.com}
         * and {@code https://a.b.example.com}, never {@code https://example.com.evil.org},
         * {@code https://evilexample.com} nor {@code http://a.example.com}.
         *
         * @param patterns the patterns
         * @return this builder
         * @throws IllegalArgumentException when one is not of those forms, or its domain has no dot and
         *     is not {@code localhost} ({@code https://*.com})
         */
        public Builder allowOriginPattern(String... patterns) {
            for (String p : patterns) {
                Origins.checkPattern(p);
                this.patterns.add(p);
            }
            return this;
        }

        /**
         * Allows every origin: {@code Access-Control-Allow-Origin: *} on every response. Not with
         * credentials, nor with other origins.
         *
         * @return this builder
         */
        public Builder allowAnyOrigin() {
            this.anyOrigin = true;
            return this;
        }

        /**
         * Allows methods beyond {@code GET}, {@code HEAD} and {@code POST}, which are always allowed.
         *
         * @param methods the methods a preflight may announce
         * @return this builder
         */
        public Builder allowMethods(Method... methods) {
            for (Method m : methods) {
                if (m == null) {
                    throw new IllegalArgumentException("method must not be null");
                }
                this.methods.add(m);
            }
            return this;
        }

        /**
         * Allows request headers a preflight may announce ({@code Access-Control-Request-Headers}),
         * compared without regard to case. {@code *} allows any header but {@code Authorization} (as
         * the Fetch standard reads it), and only without credentials. By default none is allowed; a
         * JSON API usually needs {@code Content-Type}.
         *
         * @param names header names (tokens), or {@code *}
         * @return this builder
         * @throws IllegalArgumentException when a name is not a token
         */
        public Builder allowHeaders(String... names) {
            addTokens(headers, names, "allowHeaders");
            return this;
        }

        /**
         * Lets pages read response headers beyond the safelisted ones ({@code Access-Control-Expose-Headers}).
         * {@code *} exposes every header, and only without credentials.
         *
         * @param names header names (tokens), or {@code *}
         * @return this builder
         * @throws IllegalArgumentException when a name is not a token
         */
        public Builder exposeHeaders(String... names) {
            addTokens(exposed, names, "exposeHeaders");
            return this;
        }

        private static void addTokens(List<String> into, String[] names, String what) {
            for (String n : names) {
                if (n == null || !isToken(n, 0, n.length())) {
                    throw new IllegalArgumentException(what + ": not a header name: " + n);
                }
                if (into.stream().noneMatch(n::equalsIgnoreCase)) {
                    into.add(n);
                }
            }
        }

        /**
         * Lets pages send and read credentials (cookies, HTTP authentication):
         * {@code Access-Control-Allow-Credentials: true}. Only with listed origins or patterns.
         *
         * @param credentials whether to allow them
         * @return this builder
         */
        public Builder allowCredentials(boolean credentials) {
            this.credentials = credentials;
            return this;
        }

        /**
         * How long a browser may cache a preflight's answer ({@code Access-Control-Max-Age}, whole
         * seconds); browsers cap it (Chromium at 2 hours, Firefox at 24). Without it browsers use 5 seconds.
         *
         * @param maxAge zero or more; null removes it
         * @return this builder
         * @throws IllegalArgumentException when negative
         */
        public Builder maxAge(Duration maxAge) {
            if (maxAge != null && maxAge.isNegative()) {
                throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        /**
         * The policy.
         *
         * @return a new immutable CORS middleware
         * @throws IllegalStateException when no origin is allowed, when every origin is allowed together
         *     with listed ones or with credentials, or when credentials come with a {@code *} header list
         */
        public Cors build() {
            boolean listed = !origins.isEmpty() || !patterns.isEmpty();
            if (!anyOrigin && !listed) {
                throw new IllegalStateException("CORS allows no origin: call allowOrigin, allowOriginPattern or "
                        + "allowAnyOrigin");
            }
            if (anyOrigin && listed) {
                throw new IllegalStateException("CORS: allowAnyOrigin() already allows the listed origins; use one or "
                        + "the other");
            }
            if (anyOrigin && credentials) {
                throw new IllegalStateException("CORS: credentials are never allowed with any origin ('*'); list the "
                        + "origins instead");
            }
            if (credentials && (headers.contains("*") || exposed.contains("*"))) {
                throw new IllegalStateException("CORS: with credentials, browsers read '*' as a header named '*'; "
                        + "list the header names");
            }
            return new Cors(this);
        }
    }
}
