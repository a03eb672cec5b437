package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResponseHeadersTest {

    @Test
    void addKeepsEarlierValuesAndSetReplacesThemAll() {
        ResponseHeaders h = new ResponseHeaders();
        h.add("Set-Cookie", "a=1");
        h.add("X-One", "1");
        h.add("set-cookie", "b=2");
        assertThat(h).containsExactly("Set-Cookie", "a=1", "X-One", "1", "set-cookie", "b=2");
        assertThat(h.first("SET-COOKIE")).isEqualTo("a=1");

        h.set("Set-Cookie", "c=3");
        assertThat(h).containsExactly("X-One", "1", "Set-Cookie", "c=3");
        assertThat(h.first("x-one")).isEqualTo("1");
        assertThat(h.first("X-Missing")).isNull();
    }

    @Test
    void growsPastItsFirstArray() {
        ResponseHeaders h = new ResponseHeaders();
        for (int i = 0; i < 20; i++) {
            h.add("X-" + i, String.valueOf(i));
        }
        assertThat(h).hasSize(40);
        assertThat(h.first("X-19")).isEqualTo("19");
        assertThatThrownBy(() -> h.get(40)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void anErrorAnswerDropsOnlyTheFieldsAddedAfterTheMark() {
        ResponseHeaders h = new ResponseHeaders();
        h.add("X-Request-Id", "abc");
        h.mark();
        h.add("X-Handler", "lost");
        h.dropHandlerFields();
        assertThat(h).containsExactly("X-Request-Id", "abc");

        h.add("X-Error-Page", "kept until the next failure");
        h.dropHandlerFields();
        assertThat(h).containsExactly("X-Request-Id", "abc");
    }

    @Test
    void withoutAMarkEveryFieldIsDropped() {
        ResponseHeaders h = new ResponseHeaders();
        h.add("X-Middleware", "before a failure in middleware");
        h.dropHandlerFields();
        assertThat(h).isEmpty();
    }

    @Test
    void framingHeadersAreTheServers() {
        assertThat(ResponseHeaders.isFraming("content-length")).isTrue();
        assertThat(ResponseHeaders.isFraming("Transfer-Encoding")).isTrue();
        assertThat(ResponseHeaders.isFraming("CONNECTION")).isTrue();
        assertThat(ResponseHeaders.isFraming("Date")).isTrue();
        assertThat(ResponseHeaders.isFraming("X-Date")).isFalse();
    }
}
