package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ErrorBodiesTest {
    @Test
    void jsonIsPreferredOnlyWhenItsRangeWins() {
        assertThat(ErrorBodies.prefersJson(null)).isFalse();
        assertThat(ErrorBodies.prefersJson("")).isFalse();
        assertThat(ErrorBodies.prefersJson("application/json")).isTrue();
        assertThat(ErrorBodies.prefersJson("application/json;q=1.5")).as("out of range: refused").isFalse();
        assertThat(ErrorBodies.prefersJson("application/json;q=abc")).isFalse();
        assertThat(ErrorBodies.prefersJson("application/json ; Q=0.7, text/plain;q=0.6")).isTrue();
        assertThat(ErrorBodies.prefersJson("text/plain, application/json")).as("tie: first listed").isFalse();
        assertThat(ErrorBodies.prefersJson("application/problem+json")).as("not application/json").isFalse();
        assertThat(ErrorBodies.prefersJson("*/*;q=0.1, application/*;q=0.5")).isTrue();
        // JSON through */* over a text range given less: the header names no JSON, still JSON by q
        assertThat(ErrorBodies.prefersJson("text/plain;q=0, */*")).isTrue();
        assertThat(ErrorBodies.prefersJson("text/*;q=0.1, */*")).isTrue();
        assertThat(ErrorBodies.prefersJson("*/*")).as("a range matching both alike").isFalse();
        assertThat(ErrorBodies.prefersJson("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"))
                .as("a browser's list").isFalse();
    }

    @Test
    void jsonEscapesWhatRfc8259Requires() {
        String json = new String(ErrorBodies.json(400, "a\"b\\c\nd\re\tf\u0000g\u001f\u2028h é"), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("{\"status\":400,\"error\":\"Bad Request\","
                + "\"message\":\"a\\\"b\\\\c\\nd\\re\\tf\\u0000g\\u001f\\u2028h é\"}");
    }
}
