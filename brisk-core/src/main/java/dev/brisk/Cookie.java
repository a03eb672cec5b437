package dev.brisk;

import dev.brisk.internal.web.CookieSyntax;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * A response cookie: what one {@code Set-Cookie} header (RFC 6265) tells the client to store. Built
 * with {@link #builder(String, String)} and set with {@link Context#cookie(Cookie)}; deleted with
 * {@link #expire(String)}. Immutable and thread-safe; its header value is rendered once, at
 * {@link Builder#build()}.
 *
 * <pre>{@code
 * ctx.cookie(Cookie.builder("session", token)
 *         .path("/").maxAge(Duration.ofHours(8))
 *         .secure(true).httpOnly(true).sameSite(Cookie.SameSite.LAX)
 *         .build());
 * ctx.cookie(Cookie.expire("session").path("/").build());   // deletes it
 * }</pre>
 *
 * <p><b>Validation.</b> Everything is checked where it is given, so a bad cookie is an
 * {@link IllegalArgumentException} at the call and never a malformed or injected header:
 * <ul>
 *   <li>the name is an RFC 6265 token (letters, digits and {@code !#$%&'*+-.^_`|~}), not starting with
 *       {@code $} (readers skip such names);</li>
 *   <li>the value is cookie-octets (printable ASCII but space, {@code " , ; \}), optionally wrapped in
 *       one pair of double quotes, which are part of the value; encode anything else (e.g. Base64url)
 *       before setting it;</li>
 *   <li>name and value together are at most {@value #MAX_NAME_VALUE_LENGTH} characters (browsers
 *       drop larger cookies silently); {@code Path} and {@code Domain} at most
 *       {@value #MAX_ATTRIBUTE_LENGTH};</li>
 *   <li>{@code Path} starts with {@code /} and has no control character or {@code ;}; {@code Domain}
 *       is a host name (ASCII letters, digits, {@code -} and dots; an IDN in its {@code xn--} form);</li>
 *   <li>{@link Builder#build()} refuses what browsers would reject silently: {@code SameSite=None} or
 *       {@code Partitioned} without {@code Secure}; a {@code __Secure-} name without {@code Secure};
 *       a {@code __Host-} name without {@code Secure}, with a {@code Domain}, or with a {@code Path}
 *       other than {@code /}.</li>
 * </ul>
 */
public final class Cookie {
    /** The longest name plus value accepted, in characters. */
    public static final int MAX_NAME_VALUE_LENGTH = 4096;
    /** The longest {@code Path} or {@code Domain} accepted, in characters. */
    public static final int MAX_ATTRIBUTE_LENGTH = 1024;

    // IMF-fixdate (RFC 9110 5.6.7), the form RFC 6265 asks servers to send
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final Instant LATEST_EXPIRES = Instant.parse("9999-12-31T23:59:59Z");

    /** The {@code SameSite} attribute: when the browser sends the cookie on cross-site requests. */
    public enum SameSite {
        /** {@code SameSite=Strict}: only on same-site requests. */
        STRICT("Strict"),
        /** {@code SameSite=Lax}: also on top-level cross-site navigations with a safe method. */
        LAX("Lax"),
        /** {@code SameSite=None}: on every request; requires {@code Secure}. */
        NONE("None");

        private final String attribute;

        SameSite(String attribute) {
            this.attribute = attribute;
        }

        /** {@return the attribute's value as written: {@code Strict}, {@code Lax} or {@code None}} */
        public String attributeValue() {
            return attribute;
        }
    }

    private final String name;
    private final String value;
    private final Duration maxAge;
    private final Instant expires;
    private final String path;
    private final String domain;
    private final boolean secure;
    private final boolean httpOnly;
    private final SameSite sameSite;
    private final boolean partitioned;
    private final String headerValue;

    private Cookie(Builder b) {
        this.name = b.name;
        this.value = b.value;
        this.maxAge = b.maxAge;
        this.expires = b.expires;
        this.path = b.path;
        this.domain = b.domain;
        this.secure = b.secure;
        this.httpOnly = b.httpOnly;
        this.sameSite = b.sameSite;
        this.partitioned = b.partitioned;
        this.headerValue = render();
    }

    /**
     * A builder for the cookie {@code name=value}, with no attributes yet (a session cookie whose
     * path the browser derives from the request's).
     *
     * @param name the cookie's name: a token
     * @param value the cookie's value: cookie-octets, optionally quoted; may be empty
     * @return a new builder
     * @throws IllegalArgumentException when the name or the value is null or invalid (see the class
     *     javadoc), or both together are longer than {@value #MAX_NAME_VALUE_LENGTH} characters
     */
    public static Builder builder(String name, String value) {
        return new Builder(name, value);
    }

    /**
     * A builder for the header that deletes the cookie {@code name}: an empty value, {@code Max-Age=0}
     * and an {@code Expires} in 1970. A browser deletes only the cookie with the same name,
     * {@code Path} and {@code Domain}, so set those as they were set on the cookie.
     *
     * @param name the cookie's name: a token
     * @return a new builder
     * @throws IllegalArgumentException when the name is null or not a token
     */
    public static Builder expire(String name) {
        return new Builder(name, "").maxAge(Duration.ZERO).expires(Instant.EPOCH);
    }

    /** {@return the cookie's name} */
    public String name() {
        return name;
    }

    /** {@return the cookie's value as written, quotes included when it was given quoted} */
    public String value() {
        return value;
    }

    /** {@return the {@code Max-Age}, or null when not set} */
    public Duration maxAge() {
        return maxAge;
    }

    /** {@return the {@code Expires} time (whole seconds), or null when not set} */
    public Instant expires() {
        return expires;
    }

    /** {@return the {@code Path}, or null when not set} */
    public String path() {
        return path;
    }

    /** {@return the {@code Domain}, or null when not set} */
    public String domain() {
        return domain;
    }

    /** {@return whether the cookie has the {@code Secure} attribute} */
    public boolean secure() {
        return secure;
    }

    /** {@return whether the cookie has the {@code HttpOnly} attribute} */
    public boolean httpOnly() {
        return httpOnly;
    }

    /** {@return the {@code SameSite} attribute, or null when not set} */
    public SameSite sameSite() {
        return sameSite;
    }

    /** {@return whether the cookie has the {@code Partitioned} attribute} */
    public boolean partitioned() {
        return partitioned;
    }

    /**
     * The value of the {@code Set-Cookie} header for this cookie, such as
     * {@code session=abc; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Lax}: the pair, then
     * {@code Max-Age}, {@code Expires}, {@code Domain}, {@code Path}, {@code Secure}, {@code HttpOnly},
     * {@code SameSite} and {@code Partitioned}, each only when set.
     *
     * @return the header value; never contains CR, LF or another control character
     */
    public String headerValue() {
        return headerValue;
    }

    /** {@return the {@link #headerValue()}} */
    @Override
    public String toString() {
        return headerValue;
    }

    /** {@return whether {@code o} is a cookie with the same header value} */
    @Override
    public boolean equals(Object o) {
        return o instanceof Cookie c && c.headerValue.equals(headerValue);
    }

    @Override
    public int hashCode() {
        return headerValue.hashCode();
    }

    private String render() {
        StringBuilder s = new StringBuilder(name.length() + value.length() + 64);
        s.append(name).append('=').append(value);
        if (maxAge != null) {
            long seconds = maxAge.getSeconds();
            // rounded up, saturating: "forever" (Long.MAX_VALUE seconds and a fraction) must not wrap to a deletion
            s.append("; Max-Age=").append(maxAge.getNano() > 0 && seconds < Long.MAX_VALUE ? seconds + 1 : seconds);
        }
        if (expires != null) {
            s.append("; Expires=").append(IMF_FIXDATE.format(expires));
        }
        if (domain != null) {
            s.append("; Domain=").append(domain);
        }
        if (path != null) {
            s.append("; Path=").append(path);
        }
        if (secure) {
            s.append("; Secure");
        }
        if (httpOnly) {
            s.append("; HttpOnly");
        }
        if (sameSite != null) {
            s.append("; SameSite=").append(sameSite.attribute);
        }
        if (partitioned) {
            s.append("; Partitioned");
        }
        return s.toString();
    }

    /**
     * Collects a cookie's name, value and attributes. Each setter checks its argument at once and
     * {@link #build()} checks how they combine. Not thread-safe; a builder may build many cookies.
     */
    public static final class Builder {
        private final String name;
        private final String value;
        private Duration maxAge;
        private Instant expires;
        private String path;
        private String domain;
        private boolean secure;
        private boolean httpOnly;
        private SameSite sameSite;
        private boolean partitioned;

        private Builder(String name, String value) {
            if (name == null || !CookieSyntax.isToken(name, 0, name.length())) {
                throw new IllegalArgumentException("cookie name must be a token (letters, digits and "
                        + "!#$%&'*+-.^_`|~): " + (name == null ? "null" : CookieSyntax.quote(name)));
            }
            if (name.charAt(0) == '$') {
                // RFC 2965's attribute names ($Version, $Path, ...): readers, this server's included, skip
                // them, so such a cookie would be set and never come back
                throw new IllegalArgumentException("cookie name must not start with '$' (readers skip such names): "
                        + CookieSyntax.quote(name));
            }
            if (value == null) {
                throw new IllegalArgumentException("cookie value must not be null (use \"\" for an empty one)");
            }
            if (!CookieSyntax.isCookieValue(value, 0, value.length())) {
                throw new IllegalArgumentException("cookie " + name + ": the value may hold only printable ASCII "
                        + "but space, '\"', ',', ';' and '\\' (optionally in one pair of double quotes); encode it "
                        + "first: " + CookieSyntax.quote(value));
            }
            if (name.length() + value.length() > MAX_NAME_VALUE_LENGTH) {
                throw new IllegalArgumentException("cookie " + name + ": name and value are " + (name.length()
                        + value.length()) + " characters, more than " + MAX_NAME_VALUE_LENGTH);
            }
            this.name = name;
            this.value = value;
        }

        /**
         * Sets {@code Max-Age}: how long the cookie lives, in whole seconds (a fraction rounds up, so
         * a positive lifetime never becomes a deletion); zero deletes it. Without it (and
         * {@code Expires}) it is a session cookie.
         *
         * @param maxAge a duration of zero or more, or null to remove the attribute
         * @return this builder
         * @throws IllegalArgumentException when negative
         */
        public Builder maxAge(Duration maxAge) {
            if (maxAge != null && maxAge.isNegative()) {
                throw new IllegalArgumentException("cookie " + name + ": Max-Age must not be negative: " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }

        /**
         * Sets {@code Expires}, sent as an IMF-fixdate in whole seconds. When both are set, browsers
         * use {@code Max-Age}.
         *
         * @param expires a time from 1970 to the end of 9999, or null to remove the attribute
         * @return this builder
         * @throws IllegalArgumentException when outside that range
         */
        public Builder expires(Instant expires) {
            // compared in whole seconds, as sent: the last second of 9999 is in range, to its end
            if (expires != null && (expires.isBefore(Instant.EPOCH)
                    || Instant.ofEpochSecond(expires.getEpochSecond()).isAfter(LATEST_EXPIRES))) {
                throw new IllegalArgumentException("cookie " + name + ": Expires must be from 1970 to 9999: " + expires);
            }
            this.expires = expires == null ? null : Instant.ofEpochSecond(expires.getEpochSecond());
            return this;
        }

        /**
         * Sets {@code Path}: the cookie is sent for this path and those below it.
         *
         * @param path starts with {@code /}; no control character, {@code ;} or non-ASCII character;
         *     null removes the attribute
         * @return this builder
         * @throws IllegalArgumentException when invalid or longer than {@value #MAX_ATTRIBUTE_LENGTH}
         */
        public Builder path(String path) {
            if (path != null && !CookieSyntax.isPath(path, MAX_ATTRIBUTE_LENGTH)) {
                throw new IllegalArgumentException("cookie " + name + ": Path must start with '/' and hold at most "
                        + MAX_ATTRIBUTE_LENGTH + " printable ASCII characters but ';': " + CookieSyntax.quote(path));
            }
            this.path = path;
            return this;
        }

        /**
         * Sets {@code Domain}: the cookie is then sent to that host and its subdomains (without it,
         * only to the host that set it).
         *
         * @param domain a host name (labels of ASCII letters, digits and {@code -}, joined by dots; a
         *     leading dot is allowed and ignored by browsers); null removes the attribute
         * @return this builder
         * @throws IllegalArgumentException when invalid or longer than {@value #MAX_ATTRIBUTE_LENGTH}
         */
        public Builder domain(String domain) {
            if (domain != null && !CookieSyntax.isDomain(domain, MAX_ATTRIBUTE_LENGTH)) {
                throw new IllegalArgumentException("cookie " + name + ": Domain must be a host name such as "
                        + "example.com: " + CookieSyntax.quote(domain));
            }
            this.domain = domain;
            return this;
        }

        /**
         * Sets or clears {@code Secure}: the cookie is sent over HTTPS only.
         *
         * @param secure whether to set it
         * @return this builder
         */
        public Builder secure(boolean secure) {
            this.secure = secure;
            return this;
        }

        /**
         * Sets or clears {@code HttpOnly}: scripts in the page cannot read the cookie.
         *
         * @param httpOnly whether to set it
         * @return this builder
         */
        public Builder httpOnly(boolean httpOnly) {
            this.httpOnly = httpOnly;
            return this;
        }

        /**
         * Sets {@code SameSite}; {@link SameSite#NONE} needs {@link #secure(boolean) Secure}.
         *
         * @param sameSite the policy, or null to remove the attribute (browsers then use their default,
         *     {@code Lax} in most)
         * @return this builder
         */
        public Builder sameSite(SameSite sameSite) {
            this.sameSite = sameSite;
            return this;
        }

        /**
         * Sets or clears {@code Partitioned} (CHIPS): the browser keys the cookie by the top-level
         * site too. Needs {@link #secure(boolean) Secure}.
         *
         * @param partitioned whether to set it
         * @return this builder
         */
        public Builder partitioned(boolean partitioned) {
            this.partitioned = partitioned;
            return this;
        }

        /**
         * The cookie.
         *
         * @return a new immutable cookie
         * @throws IllegalArgumentException when the attributes do not combine: {@code SameSite=None} or
         *     {@code Partitioned} without {@code Secure}, a {@code __Secure-} or {@code __Host-} name
         *     without {@code Secure}, a {@code __Host-} name with a {@code Domain} or a {@code Path}
         *     other than {@code /}
         */
        public Cookie build() {
            if (sameSite == SameSite.NONE && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": SameSite=None requires Secure "
                        + "(browsers reject it otherwise)");
            }
            if (partitioned && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": Partitioned requires Secure");
            }
            if (name.regionMatches(true, 0, "__Secure-", 0, 9) && !secure) {
                throw new IllegalArgumentException("cookie " + name + ": a __Secure- name requires Secure");
            }
            if (name.regionMatches(true, 0, "__Host-", 0, 7)
                    && (!secure || domain != null || !Objects.equals(path, "/"))) {
                throw new IllegalArgumentException("cookie " + name + ": a __Host- name requires Secure and "
                        + "Path=/, and allows no Domain");
            }
            return new Cookie(this);
        }
    }
}
