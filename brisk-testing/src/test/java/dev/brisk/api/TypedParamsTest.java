package dev.brisk.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.Param;
import dev.brisk.testing.BriskTestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Typed path, query and header parameters over real HTTP: every conversion, defaults, checks, and the
 * 400 whose message names the parameter and the reason.
 */
class TypedParamsTest {
    private static BriskTestServer server;

    enum Color { RED, GREEN, DARK_BLUE }

    /** The types a route converts to, by a short name in its path. */
    private static final Map<String, Class<?>> TYPES = Map.ofEntries(
            Map.entry("int", int.class), Map.entry("Integer", Integer.class),
            Map.entry("long", long.class), Map.entry("Long", Long.class),
            Map.entry("double", double.class), Map.entry("Double", Double.class),
            Map.entry("boolean", boolean.class), Map.entry("Boolean", Boolean.class),
            Map.entry("UUID", UUID.class), Map.entry("Color", Color.class),
            Map.entry("Instant", Instant.class), Map.entry("LocalDate", LocalDate.class),
            Map.entry("String", String.class), Map.entry("Object", Object.class));

    @BeforeAll
    static void start() {
        server = BriskTestServer.start(cfg -> {
            // the value's class and its toString: shows the conversion really produced that type
            cfg.get("/query/{type}", ctx -> {
                Object v = ctx.queryParam("v", TYPES.get(ctx.pathParam("type"))).get();
                ctx.text(v.getClass().getSimpleName() + ":" + v);
            });
            cfg.get("/path/{type}/{v}", ctx -> {
                Object v = ctx.pathParam("v", TYPES.get(ctx.pathParam("type")));
                ctx.text(v.getClass().getSimpleName() + ":" + v);
            });
            cfg.get("/unknown-path-param", ctx -> ctx.text("" + ctx.pathParam("id", Long.class)));
            cfg.get("/items", ctx -> {
                int limit = ctx.queryParam("limit", Integer.class, 20);
                Color color = ctx.queryParam("color", Color.class, null);
                ctx.text("limit=" + limit + " color=" + color);
            });
            cfg.get("/checked", ctx -> ctx.text("limit=" + ctx.queryParam("limit", Integer.class)
                    .check(n -> n >= 1, "must be at least 1")
                    .check(n -> n <= 100, "must be at most 100")
                    .orElse(20)));
            cfg.get("/required", ctx -> ctx.text("q=" + ctx.queryParam("q", String.class).get()));
            cfg.get("/present", ctx -> {
                Param<Boolean> p = ctx.queryParam("flag", Boolean.class);
                ctx.text("present=" + p.isPresent() + " raw=" + p.raw() + " value=" + p.orElse(null) + " " + p);
            });
            cfg.get("/header", ctx -> ctx.text("page=" + ctx.headerParam("X-Page", Integer.class)
                    .check(n -> n > 0, "must be positive").orElse(1)));
            cfg.get("/users/{id}", ctx -> ctx.text("id=" + Param.of("path parameter", "id", ctx.pathParam("id"), Long.class)
                    .check(id -> id > 0, "must be positive").get()));
            cfg.get("/unsupported", ctx -> ctx.text("" + ctx.queryParam("x", Object.class, null)));
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"); // a space, not a plus
    }

    /** The message of a 400, read so that a JSON error body (quotes escaped) reads the same as text. */
    private static String message(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return r.body().replace("\\\"", "\"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "int       | 42                                   | Integer:42",
        "int       | -7                                   | Integer:-7",
        "Integer   | +3                                   | Integer:3",
        "Integer   | 2147483647                           | Integer:2147483647",
        "long      | 9223372036854775807                  | Long:9223372036854775807",
        "Long      | -9223372036854775808                 | Long:-9223372036854775808",
        "double    | 1.5                                  | Double:1.5",
        "Double    | -2e3                                 | Double:-2000.0",
        "Double    | 7                                    | Double:7.0",
        "boolean   | true                                 | Boolean:true",
        "Boolean   | FALSE                                | Boolean:false",
        "UUID      | 123e4567-e89b-12d3-a456-426614174000 | UUID:123e4567-e89b-12d3-a456-426614174000",
        "UUID      | 123E4567-E89B-12D3-A456-426614174000 | UUID:123e4567-e89b-12d3-a456-426614174000",
        "Color     | green                                | Color:GREEN",
        "Color     | Dark_Blue                            | Color:DARK_BLUE",
        "Instant   | 2025-01-31T12:00:00Z                 | Instant:2025-01-31T12:00:00Z",
        "Instant   | 2025-01-31T12:00:00.250Z             | Instant:2025-01-31T12:00:00.250Z",
        "LocalDate | 2025-01-31                           | LocalDate:2025-01-31",
        "String    | hello world                          | String:hello world",
    })
    void queryParametersConvert(String type, String value, String expected) {
        HttpResponse<String> r = server.get("/query/" + type + "?v=" + q(value));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "int       | abc                   | is not an integer",
        "int       | ''                    | is not an integer",
        "int       | 4.5                   | is not an integer",
        "int       | ' 1'                  | is not an integer",
        "int       | -                     | is not an integer",
        "int       | \u0661\u0662          | is not an integer",
        "int       | 2147483648            | is out of range (-2147483648 to 2147483647)",
        "Long      | 9223372036854775808   | is out of range (-9223372036854775808 to 9223372036854775807)",
        "double    | NaN                   | is not a number",
        "double    | Infinity              | is not a number",
        "int       | 99999999999999999999  | is out of range (-2147483648 to 2147483647)",
        "int       | -99999999999999999999 | is out of range (-2147483648 to 2147483647)",
        "double    | 1e999                 | is out of range (beyond 1.7976931348623157E308)",
        "double    | 0x10                  | is not a number",
        "double    | 1d                    | is not a number",
        "double    | .                     | is not a number",
        "boolean   | yes                   | is not a boolean (true or false)",
        "Boolean   | 1                     | is not a boolean (true or false)",
        "boolean   | fal\u017Fe            | is not a boolean (true or false)",
        "Color     | \u0131ed              | is not one of RED, GREEN, DARK_BLUE",
        "Color     | DARK_BLU\u212A        | is not one of RED, GREEN, DARK_BLUE",
        "UUID      | 1-1-1-1-1             | is not a UUID",
        "UUID      | 123e4567e89b12d3a456426614174000 | is not a UUID",
        "Color     | purple                | is not one of RED, GREEN, DARK_BLUE",
        "Instant   | 2025-01-31            | is not an instant (ISO-8601, e.g. 2025-01-31T12:00:00Z)",
        "LocalDate | 31/01/2025            | is not a date (yyyy-mm-dd)",
        "LocalDate | 2025-02-30            | is not a date (yyyy-mm-dd)",
    })
    void badQueryValuesAre400sNamingParameterValueAndReason(String type, String value, String reason) {
        assertThat(message(server.get("/query/" + type + "?v=" + q(value))))
                .isEqualTo("query parameter 'v': \"" + value + "\" " + reason);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "long    | 42                                   | Long:42",
        "Color   | red                                  | Color:RED",
        "UUID    | 123e4567-e89b-12d3-a456-426614174000 | UUID:123e4567-e89b-12d3-a456-426614174000",
        "String  | a b                                  | String:a b",
    })
    void pathParametersConvert(String type, String value, String expected) {
        HttpResponse<String> r = server.get("/path/" + type + "/" + value.replace(" ", "%20"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(expected);
    }

    @Test
    void badPathValueIs400() {
        assertThat(message(server.get("/path/long/abc"))).isEqualTo("path parameter 'v': \"abc\" is not an integer");
        assertThat(message(server.get("/path/Color/blue")))
                .isEqualTo("path parameter 'v': \"blue\" is not one of RED, GREEN, DARK_BLUE");
    }

    @Test
    void pathParameterTheRouteDoesNotHaveIsMissing() {
        assertThat(message(server.get("/unknown-path-param"))).isEqualTo("path parameter 'id': missing");
    }

    @Test
    void defaultsApplyOnlyWhenAbsent() {
        assertThat(server.get("/items").body()).isEqualTo("limit=20 color=null");
        assertThat(server.get("/items?limit=5&color=red").body()).isEqualTo("limit=5 color=RED");
        assertThat(server.get("/items?limit=5&limit=6").body()).isEqualTo("limit=5 color=null"); // the first value
        // present but wrong is an error, not the default
        assertThat(message(server.get("/items?limit=ten")))
                .isEqualTo("query parameter 'limit': \"ten\" is not an integer");
        assertThat(message(server.get("/items?limit=")))
                .isEqualTo("query parameter 'limit': \"\" is not an integer");
    }

    @Test
    void checksRunInOrderOnPresentValues() {
        assertThat(server.get("/checked").body()).isEqualTo("limit=20");
        assertThat(server.get("/checked?limit=100").body()).isEqualTo("limit=100");
        assertThat(message(server.get("/checked?limit=101")))
                .isEqualTo("query parameter 'limit': \"101\" must be at most 100");
        assertThat(message(server.get("/checked?limit=0")))
                .isEqualTo("query parameter 'limit': \"0\" must be at least 1");
        // conversion comes before any check
        assertThat(message(server.get("/checked?limit=abc")))
                .isEqualTo("query parameter 'limit': \"abc\" is not an integer");
    }

    @Test
    void requiredParameterMissingIs400() {
        assertThat(message(server.get("/required"))).isEqualTo("query parameter 'q': missing");
        assertThat(server.get("/required?q=x").body()).isEqualTo("q=x");
        assertThat(server.get("/required?q=").body()).isEqualTo("q="); // present and empty is present
    }

    @Test
    void presenceAndRawValue() {
        assertThat(server.get("/present").body())
                .isEqualTo("present=false raw=null value=null query parameter 'flag'");
        assertThat(server.get("/present?flag=True").body())
                .isEqualTo("present=true raw=True value=true query parameter 'flag'");
    }

    @Test
    void headerParameters() {
        assertThat(server.get("/header").body()).isEqualTo("page=1");
        assertThat(server.get("/header", "X-Page", "3").body()).isEqualTo("page=3");
        assertThat(message(server.get("/header", "x-page", "three")))
                .isEqualTo("header 'X-Page': \"three\" is not an integer");
        assertThat(message(server.get("/header", "X-Page", "-1")))
                .isEqualTo("header 'X-Page': \"-1\" must be positive");
    }

    @Test
    void paramOfChecksAnyValue() {
        assertThat(server.get("/users/7").body()).isEqualTo("id=7");
        assertThat(message(server.get("/users/0"))).isEqualTo("path parameter 'id': \"0\" must be positive");
        assertThat(message(server.get("/users/x"))).isEqualTo("path parameter 'id': \"x\" is not an integer");
    }

    @Test
    void longAndControlValuesAreCutAndEscapedInTheMessage() {
        String longValue = "x".repeat(100);
        assertThat(message(server.get("/query/int?v=" + longValue)))
                .isEqualTo("query parameter 'v': \"" + "x".repeat(64) + "...\" is not an integer");
        assertThat(message(server.get("/query/int?v=" + q("a\tb\"c"))))
                .isEqualTo("query parameter 'v': \"a\\u0009b\\\"c\" is not an integer".replace("\\\"", "\""));
        // C1 controls too: U+009B is a terminal's CSI, U+0085 a line break to some readers
        assertThat(message(server.get("/query/int?v=" + q("\u009b31m\u0085"))))
                .isEqualTo("query parameter 'v': \"\\u009b31m\\u0085\" is not an integer");
        // cut before a surrogate pair that the 64th character would split, not inside it
        assertThat(message(server.get("/query/int?v=" + q("x".repeat(63) + "\uD83D\uDE00" + "y"))))
                .isEqualTo("query parameter 'v': \"" + "x".repeat(63) + "...\" is not an integer");
    }

    @Test
    void unsupportedTypeIsAProgrammingErrorEvenWhenAbsent() {
        assertThat(server.get("/unsupported").statusCode()).isEqualTo(500);
        assertThat(server.get("/unsupported?x=1").statusCode()).isEqualTo(500);
        assertThat(server.get("/query/Object?v=1").statusCode()).isEqualTo(500);
    }
}
