package dev.brisk.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.JsonBindingException;
import dev.brisk.testing.BriskTestServer;
import java.lang.reflect.Type;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Issue 15: a body that does not bind says where and why; generic types bind. */
class JsonBindingErrorsTest {
    record Todo(String title, boolean done) {
    }

    private static final Type TODOS = new TypeReference<List<Todo>>() { }.getType();
    private final JacksonJsonCodec codec = new JacksonJsonCodec();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSyntaxErrorCarriesLineAndColumn() {
        assertThatThrownBy(() -> codec.read(utf8("{\n  \"title\": \"a\",\n  }"), Todo.class))
                .isInstanceOfSatisfying(JsonBindingException.class, e -> {
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.column()).isEqualTo(3);
                    assertThat(e.reason()).contains("Unexpected character").doesNotContain("Source");
                    assertThat(e.getMessage()).startsWith("line 3, column 3: ");
                });
    }

    @Test
    void aWrongTypeNamesTheFieldInJsonTermsNotTheServersClasses() {
        assertThatThrownBy(() -> codec.read(utf8("[{\"title\":\"a\",\"done\":true},{\"title\":\"b\",\"done\":\"yes\"}]"),
                TODOS)).isInstanceOfSatisfying(JsonBindingException.class, e -> {
                    assertThat(e.path()).isEqualTo("[1].done");
                    assertThat(e.reason()).isEqualTo("expected a boolean, found a string");
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.getMessage()).doesNotContain("dev.brisk", "Todo");
                });
    }

    @Test
    void anUnknownFieldIsNamedWhenTheMapperRefusesThem() {
        JacksonJsonCodec strict = new JacksonJsonCodec(JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());
        assertThatThrownBy(() -> strict.read(utf8("{\"title\":\"a\",\"colour\":\"red\"}"), Todo.class))
                .isInstanceOfSatisfying(JsonBindingException.class, e -> {
                    assertThat(e.reason()).isEqualTo("unknown field \"colour\"");
                    assertThat(e.path()).isEqualTo("colour");
                });
    }

    @Test
    void genericTypesBind() {
        List<Todo> todos = codec.read(utf8("[{\"title\":\"a\",\"done\":true}]"), TODOS);
        assertThat(todos).containsExactly(new Todo("a", true));
        assertThat(codec.<Todo>read(utf8("{\"title\":\"b\",\"done\":false}"), (Type) Todo.class))
                .isEqualTo(new Todo("b", false));
    }

    @Test
    void overHttpTheBodyBindsAGenericListAndA400SaysWhereAndWhy() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.json(new JacksonJsonCodec());
            cfg.post("/todos", ctx -> {
                List<Todo> todos = ctx.bodyAsJson(TODOS);
                ctx.json(Map.of("count", todos.size(), "first", todos.get(0).title()));
            });
        })) {
            HttpResponse<String> ok = s.post("/todos", "application/json; charset=utf-8",
                    "[{\"title\":\"a\",\"done\":true},{\"title\":\"b\",\"done\":false}]");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(codec.read(utf8(ok.body()), Map.class)).isEqualTo(Map.of("count", 2, "first", "a"));

            HttpResponse<String> bad = s.post("/todos", "application/json",
                    "[{\"title\":\"a\",\"done\":true},{\"title\":\"b\",\"done\":\"yes\"}]");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).isEqualTo("Request body is not valid JSON for List<Todo>: line 1, column 48"
                    + " (field [1].done): expected a boolean, found a string");

            HttpResponse<String> json = s.send(s.request("/todos").header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("[{\"title\":")).build());
            assertThat(json.statusCode()).isEqualTo(400);
            Map<?, ?> error = codec.read(utf8(json.body()), Map.class);
            assertThat(error.get("status")).isEqualTo(400);
            assertThat(error.get("error")).isEqualTo("Bad Request");
            assertThat((String) error.get("message")).startsWith("Request body is not valid JSON for List<Todo>: line 1");
        }
    }

    @Test
    void routesWithABoundBodyBindRecordsAndGenericTypes() {
        try (BriskTestServer s = BriskTestServer.start(cfg -> {
            cfg.json(new JacksonJsonCodec());
            cfg.post("/todo", Todo.class, (ctx, todo) -> ctx.status(201).json(Map.of("title", todo.title())));
            cfg.<List<Todo>>route(dev.brisk.Method.PUT, "/todos", TODOS,
                    (ctx, todos) -> ctx.json(Map.of("count", todos.size())));
        })) {
            HttpResponse<String> one = s.post("/todo", "application/json", "{\"title\":\"a\",\"done\":true}");
            assertThat(one.statusCode()).isEqualTo(201);
            assertThat(codec.read(utf8(one.body()), Map.class)).isEqualTo(Map.of("title", "a"));
            HttpResponse<String> many = s.putJson("/todos", List.of(new Todo("a", true), new Todo("b", false)));
            assertThat(many.statusCode()).isEqualTo(200);
            assertThat(codec.read(utf8(many.body()), Map.class)).isEqualTo(Map.of("count", 2));
            HttpResponse<String> bad = s.post("/todo", "application/json", "{\"title\":\"a\",\"done\":\"yes\"}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("(field done): expected a boolean, found a string");
        }
    }
}
