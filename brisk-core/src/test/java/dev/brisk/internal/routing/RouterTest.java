package dev.brisk.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Dispatch;
import dev.brisk.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RouterTest {

    private static CompiledRoute route(Method method, String template) {
        return new CompiledRoute(method, template, Router.paramNames(template), ctx -> { }, Dispatch.EVENT_LOOP, false);
    }

    private static Router router(String... getTemplates) {
        Router r = new Router();
        for (String t : getTemplates) {
            r.add(route(Method.GET, t));
        }
        return r;
    }

    /** The template of the GET route found for {@code path}, or null. */
    private static String templateFor(Router r, String path) {
        RouteMatch m = r.find(path);
        return m == null ? null : m.entry().route(Method.GET).template();
    }

    private static List<String> params(Router r, String path) {
        RouteMatch m = r.find(path);
        assertThat(m).as("match for %s", path).isNotNull();
        return List.of(m.rawParams());
    }

    // ---- matching -----------------------------------------------------------------------------

    @Test
    void exactPathsAreFoundFromTheRequestBytesInPlace() {
        Router r = router("/", "/hello", "/hello/world", "/users/{id}", "/caf\u00e9", "/\u4e16");
        byte[] line = "GET /hello/world?x=1 HTTP/1.1".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(r.findExact(line, 4, 10)).isSameAs(r.find("/hello"));
        assertThat(r.findExact(line, 4, 16)).isSameAs(r.find("/hello/world"));
        assertThat(r.findExact(line, 4, 5)).isSameAs(r.find("/"));
        assertThat(r.findExact(line, 4, 9)).as("a prefix").isNull();
        assertThat(r.findExact(line, 4, 20)).as("with the query").isNull();
        byte[] users = "/users/42".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(r.findExact(users, 0, users.length)).as("parameterized: not exact").isNull();
        assertThat(r.find("/users/42")).isNotNull();
        // a template is compared as the Latin-1 string the raw path would make; above U+00FF it never matches
        byte[] latin1 = {'/', 'c', 'a', 'f', (byte) 0xE9};
        assertThat(r.findExact(latin1, 0, latin1.length)).isSameAs(r.find("/caf\u00e9")).isNotNull();
        byte[] question = {'/', '?'};
        assertThat(r.findExact(question, 0, 2)).isNull();
        assertThat(r.findExact(new byte[] {'/', 0x16}, 0, 2)).isNull();
    }

    @Test
    void exactPathWinsOverParameter() {
        for (Router r : List.of(router("/users/{id}", "/users/me"), router("/users/me", "/users/{id}"))) {
            assertThat(templateFor(r, "/users/me")).isEqualTo("/users/me");
            assertThat(params(r, "/users/me")).isEmpty();
            assertThat(templateFor(r, "/users/42")).isEqualTo("/users/{id}");
            assertThat(params(r, "/users/42")).containsExactly("42");
            assertThat(templateFor(r, "/users/mee")).isEqualTo("/users/{id}");
        }
    }

    @Test
    void parametersInOrderAndStillEncoded() {
        Router r = router("/orgs/{org}/repos/{repo}", "/a/{x}/{y}/{z}");
        assertThat(params(r, "/orgs/acme/repos/brisk")).containsExactly("acme", "brisk");
        assertThat(params(r, "/orgs/a%20b/repos/c%2Fd")).containsExactly("a%20b", "c%2Fd");
        assertThat(params(r, "/a/1/2/3")).containsExactly("1", "2", "3");
        assertThat(r.find("/a/1/2/3").entry().route(Method.GET).paramNames()).containsExactly("x", "y", "z");
    }

    @Test
    void parameterNeedsANonEmptySegmentAndTheWholePath() {
        Router r = router("/users/{id}");
        assertThat(r.find("/users/")).isNull();
        assertThat(r.find("/users")).isNull();
        assertThat(r.find("/users/42/")).isNull();
        assertThat(r.find("/users/42/posts")).isNull();
        assertThat(r.find("/users//")).isNull();
        assertThat(r.find("/Users/42")).as("literals are case-sensitive").isNull();
    }

    @Test
    void wildcardTakesTheRestOfThePath() {
        Router r = router("/static/*", "/files/{id}/*");
        assertThat(templateFor(r, "/static/css/site.css")).isEqualTo("/static/*");
        assertThat(params(r, "/static/css/site.css")).containsExactly("css/site.css");
        assertThat(params(r, "/static/a")).containsExactly("a");
        assertThat(params(r, "/static/")).containsExactly("");
        assertThat(params(r, "/static/a//b/")).containsExactly("a//b/");
        assertThat(r.find("/static")).isNull();
        assertThat(params(r, "/files/7/a/b.txt")).containsExactly("7", "a/b.txt");
        assertThat(r.find("/files/7/a/b.txt").entry().route(Method.GET).paramNames()).containsExactly("id", "*");
    }

    @Test
    void rootWildcardCatchesEverythingElse() {
        Router r = router("/", "/health", "/*");
        assertThat(templateFor(r, "/")).isEqualTo("/");
        assertThat(templateFor(r, "/health")).isEqualTo("/health");
        assertThat(templateFor(r, "/healthz")).isEqualTo("/*");
        assertThat(params(r, "/a/b/c")).containsExactly("a/b/c");
    }

    @Test
    void literalThenParameterThenWildcardAtEachLevel() {
        Router r = router("/a/{x}", "/a/*", "/a/lit/{y}");
        assertThat(templateFor(r, "/a/b")).isEqualTo("/a/{x}");
        assertThat(templateFor(r, "/a/b/c")).isEqualTo("/a/*");
        assertThat(params(r, "/a/b/c")).containsExactly("b/c");
        assertThat(templateFor(r, "/a/lit/1")).isEqualTo("/a/lit/{y}");
        assertThat(templateFor(r, "/a/lit")).as("literal branch has no route of its own").isEqualTo("/a/{x}");
        assertThat(params(r, "/a/lit")).containsExactly("lit");
        assertThat(templateFor(r, "/a/")).isEqualTo("/a/*");
    }

    @Test
    void backtracksFromALiteralBranchThatFailsDeeper() {
        Router r = router("/a/b/{z}", "/a/{x}/d/e");
        assertThat(templateFor(r, "/a/b/c")).isEqualTo("/a/b/{z}");
        assertThat(params(r, "/a/b/c")).containsExactly("c");
        // literal a/b then {z}=d fails on "e"; the parameter branch {x}=b matches
        assertThat(templateFor(r, "/a/b/d/e")).isEqualTo("/a/{x}/d/e");
        assertThat(params(r, "/a/b/d/e")).as("no value left over from the failed branch").containsExactly("b");
    }

    @Test
    void backtracksFromAParameterBranchThatFailsDeeper() {
        Router r = router("/a/{x}/c", "/{y}/b/d");
        assertThat(templateFor(r, "/a/z/c")).isEqualTo("/a/{x}/c");
        assertThat(params(r, "/a/z/c")).containsExactly("z");
        assertThat(templateFor(r, "/a/b/d")).isEqualTo("/{y}/b/d");
        assertThat(params(r, "/a/b/d")).containsExactly("a");
    }

    @Test
    void backtracksIntoAWildcardHigherUp() {
        Router r = router("/a/{x}/c", "/a/*");
        assertThat(templateFor(r, "/a/b/d")).isEqualTo("/a/*");
        assertThat(params(r, "/a/b/d")).containsExactly("b/d");
    }

    @Test
    void aFailedDeeperBranchLeavesNoValueBeyondTheWinnersCount() {
        Router r = router("/a/{x}/{y}/z", "/a/*");
        assertThat(params(r, "/a/1/2/z")).containsExactly("1", "2");
        assertThat(templateFor(r, "/a/1/2/q")).isEqualTo("/a/*");
        assertThat(params(r, "/a/1/2/q")).containsExactly("1/2/q");
    }

    @Test
    void parameterizedPathsAreFoundFromTheRequestBytesInPlace() {
        Router r = router("/users/{id}", "/users/{id}/posts/{post}", "/static/*");
        byte[] line = "GET /users/42/posts/7?full=1 HTTP/1.1".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        RouteMatch m = r.findDynamic(line, 4, 21);
        assertThat(m.entry().route(Method.GET).template()).isEqualTo("/users/{id}/posts/{post}");
        assertThat(m.rawParams()).containsExactly("42", "7");
        assertThat(r.findDynamic(line, 4, 13).rawParams()).as("a prefix of the path").containsExactly("42");
        assertThat(r.findDynamic(line, 4, 28)).as("with the query: the last segment is '7?full=1'").isNotNull();
        assertThat(r.findDynamic(line, 4, 28).rawParams()).containsExactly("42", "7?full=1");
        // the values are strings of their own: the buffer is reused for the next request
        java.util.Arrays.fill(line, (byte) 'x');
        assertThat(m.rawParams()).containsExactly("42", "7");
        byte[] latin1 = {'/', 's', 't', 'a', 't', 'i', 'c', '/', (byte) 0xE9};
        assertThat(r.findDynamic(latin1, 0, latin1.length).rawParams()).containsExactly("\u00e9");
        assertThat(r.findDynamic("/static/\u4e16")).as("never on the wire: above U+00FF").isNull();
    }

    @Test
    void noMatchIsNull() {
        assertThat(new Router().find("/")).isNull();
        assertThat(new Router().find("/anything")).isNull();
        Router r = router("/", "/users/{id}", "/static/*");
        assertThat(r.find("/nothing")).isNull();
        assertThat(r.find("/nothing/here")).isNull();
        assertThat(r.find("/users")).isNull();
    }

    @Test
    void exactMatchAllocatesNoParameters() {
        Router r = router("/x");
        assertThat(r.find("/x").rawParams()).isEmpty();
    }

    // ---- methods and Allow ----------------------------------------------------------------------

    @Test
    void headFallsBackToGet() {
        Router r = new Router();
        CompiledRoute get = route(Method.GET, "/items/{id}");
        CompiledRoute post = route(Method.POST, "/items/{id}");
        r.add(get);
        r.add(post);
        RouteEntry e = r.find("/items/1").entry();
        assertThat(e.route(Method.GET)).isSameAs(get);
        assertThat(e.route(Method.HEAD)).isSameAs(get);
        assertThat(e.route(Method.POST)).isSameAs(post);
        assertThat(e.route(Method.PUT)).isNull();
        assertThat(e.route(Method.OPTIONS)).isNull();

        CompiledRoute head = route(Method.HEAD, "/items/{id}");
        r.add(head);
        assertThat(e.route(Method.HEAD)).as("an explicit HEAD route wins").isSameAs(head);
    }

    @Test
    void headDoesNotFallBackToOtherMethods() {
        Router r = new Router();
        r.add(route(Method.POST, "/p"));
        assertThat(r.find("/p").entry().route(Method.HEAD)).isNull();
    }

    @Test
    void allowLists() {
        Router r = new Router();
        r.add(route(Method.GET, "/g"));
        r.add(route(Method.DELETE, "/m"));
        r.add(route(Method.POST, "/m"));
        r.add(route(Method.GET, "/m"));
        r.add(route(Method.POST, "/p/{id}"));
        r.add(route(Method.OPTIONS, "/o"));
        r.add(route(Method.HEAD, "/h"));
        assertThat(r.find("/g").entry().allow()).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(r.find("/m").entry().allow()).isEqualTo("GET, HEAD, POST, DELETE, OPTIONS");
        assertThat(r.find("/p/1").entry().allow()).isEqualTo("POST, OPTIONS");
        assertThat(r.find("/o").entry().allow()).isEqualTo("OPTIONS");
        assertThat(r.find("/h").entry().allow()).isEqualTo("HEAD, OPTIONS");
    }

    @Test
    void allowIsRebuiltAfterAnotherMethodIsAdded() {
        Router r = new Router();
        r.add(route(Method.GET, "/x"));
        RouteEntry e = r.find("/x").entry();
        assertThat(e.allow()).isEqualTo("GET, HEAD, OPTIONS");
        r.add(route(Method.PUT, "/x"));
        assertThat(r.find("/x").entry()).isSameAs(e);
        assertThat(e.allow()).isEqualTo("GET, HEAD, PUT, OPTIONS");
    }

    // ---- registration errors ------------------------------------------------------------------

    @Test
    void duplicateRoutesAreRejected() {
        Router r = router("/x", "/users/{id}", "/s/*");
        assertThatThrownBy(() -> r.add(route(Method.GET, "/x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate").hasMessageContaining("/x");
        assertThatThrownBy(() -> r.add(route(Method.GET, "/users/{id}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.add(route(Method.GET, "/users/{name}")))
                .as("same shape, other name").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.add(route(Method.GET, "/s/*"))).isInstanceOf(IllegalArgumentException.class);
        // another method on the same shape is fine and keeps its own names
        r.add(route(Method.POST, "/users/{name}"));
        RouteEntry e = r.find("/users/7").entry();
        assertThat(e.route(Method.GET).paramNames()).containsExactly("id");
        assertThat(e.route(Method.POST).paramNames()).containsExactly("name");
    }

    @Test
    void parameterNamesMustMatchTheTemplate() {
        Router r = new Router();
        CompiledRoute wrong = new CompiledRoute(Method.GET, "/a/{x}", List.of("y"), ctx -> { }, Dispatch.EVENT_LOOP, false);
        assertThatThrownBy(() -> r.add(wrong)).isInstanceOf(IllegalArgumentException.class);
        assertThat(r.find("/a/1")).isNull();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "a/b", "users", "*", "{id}", "/{}", "/a/{}", "/{a}/{a}", "/{a}/x/{a}", "/*/x",
        "/*/*", "/x/*/", "/a{b}", "/{a}b", "/a{b", "/a}b", "/x*", "/*x", "/{a"})
    void invalidTemplatesAreRejected(String template) {
        assertThatThrownBy(() -> Router.paramNames(template)).isInstanceOf(IllegalArgumentException.class);
        Router r = new Router();
        CompiledRoute c = new CompiledRoute(Method.GET, template, List.of(), ctx -> { }, Dispatch.EVENT_LOOP, false);
        assertThatThrownBy(() -> r.add(c)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nullTemplateIsRejected() {
        assertThatThrownBy(() -> Router.paramNames(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"/x/{a}}", "/x/{{a}}", "/x/{a{b}"})
    void bracesInsideAParameterNameAreRejected(String template) {
        assertThatThrownBy(() -> Router.paramNames(template)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- templates ----------------------------------------------------------------------------

    @Test
    void templateParsing() {
        PathTemplate root = PathTemplate.parse("/");
        assertThat(root.segments()).isEmpty();
        assertThat(root.isExact()).isTrue();

        PathTemplate t = PathTemplate.parse("/orgs/{org}/files/*");
        assertThat(t.segments()).containsExactly("orgs", "{org}", "files", "*");
        assertThat(t.paramNames()).containsExactly("org", "*");
        assertThat(t.wildcard()).isTrue();
        assertThat(t.isExact()).isFalse();

        PathTemplate trailing = PathTemplate.parse("/a/b/");
        assertThat(trailing.segments()).containsExactly("a", "b", "");
        assertThat(trailing.isExact()).isTrue();

        assertThat(Router.paramNames("/a/{first}/b/{second}")).containsExactly("first", "second");
    }

    @Test
    void allowValuesCoverEveryPathOnce() {
        Router r = router("/a", "/b", "/users/{id}", "/files/*");
        r.add(route(Method.POST, "/only-post"));
        r.add(route(Method.POST, "/users/{id}"));
        r.add(route(Method.DELETE, "/files/*"));
        r.add(route(Method.PUT, "/users/{id}/name"));
        assertThat(r.allowValues()).containsExactlyInAnyOrder("GET, HEAD, OPTIONS", "POST, OPTIONS",
                "GET, HEAD, POST, OPTIONS", "GET, HEAD, DELETE, OPTIONS", "PUT, OPTIONS");
        assertThat(new Router().allowValues()).isEmpty();
    }
}
