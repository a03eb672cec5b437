package dev.brisk.internal.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.HttpException;
import dev.brisk.internal.body.BodyStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UrlEncodedFormTest {
    private static Map<String, List<String>> parse(String body) {
        return UrlEncodedForm.parse(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8, 1000,
                new FormMemory(null));
    }

    @Test
    void decodesPairsInOrder() {
        Map<String, List<String>> m = parse("b=2&a=1+2&a=%C3%A9%26%3D&&empty=&bare&%E2%82%AC=euro");
        assertThat(m.keySet()).containsExactly("b", "a", "empty", "bare", "\u20ac");
        assertThat(m.get("a")).containsExactly("1 2", "\u00e9&=");
        assertThat(m.get("empty")).containsExactly("");
        assertThat(m.get("bare")).containsExactly("");
        assertThat(parse("")).isEmpty();
    }

    @Test
    void decodedPairsAreChargedToTheBudgetAndA503WhenItIsSpent() {
        BodyStore store = new BodyStore(10_000, 1 << 20, 0, "");
        FormMemory memory = new FormMemory(store);
        byte[] body = "a=%C3%A9x&b=hello".getBytes(StandardCharsets.ISO_8859_1);
        UrlEncodedForm.parse(body, StandardCharsets.UTF_8, 1000, memory);
        // "a" 1 + "\u00e9x" 2 (Latin-1) + "b" 1 + "hello" 5, each String 40, each pair 96
        assertThat(memory.reserved()).isEqualTo(9 + 4 * 40 + 2 * FormMemory.ENTRY);
        assertThat(store.memory().reserved()).isEqualTo(memory.reserved());
        assertThat(memory.cost("\u20ac\u20ac")).as("two UTF-16 chars").isEqualTo(40 + 4);
        memory.release();
        assertThat(store.memory().reserved()).isZero();

        byte[] many = "field=value&".repeat(100).getBytes(StandardCharsets.ISO_8859_1); // about 23 KB charged
        assertThatThrownBy(() -> UrlEncodedForm.parse(many, StandardCharsets.UTF_8, 1000, memory))
                .isInstanceOf(HttpException.class).hasMessageContaining("no request-body memory free for the form's fields")
                .extracting(e -> ((HttpException) e).status()).isEqualTo(503);
        assertThat(store.memory().reserved()).as("held until released").isEqualTo(memory.reserved()).isPositive();
        memory.release();
        memory.release();
        assertThat(store.memory().reserved()).isZero();
    }

    @Test
    void badEncodingIs400() {
        for (String bad : new String[] {"a=%", "a=%4", "a=%G1", "%zz=1", "a=%C3", "a=%FF%FE", "a=x%2"}) {
            assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(HttpException.class)
                    .extracting(e -> ((HttpException) e).status()).isEqualTo(400);
        }
        assertThatThrownBy(() -> parse("a=%G1")).hasMessageContaining("Malformed percent-encoding");
        assertThatThrownBy(() -> parse("a=%C3")).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void tooManyPairsIs413() {
        String body = "a=1&".repeat(1001);
        assertThatThrownBy(() -> parse(body)).isInstanceOf(HttpException.class).hasMessageContaining("more than 1000 fields")
                .extracting(e -> ((HttpException) e).status()).isEqualTo(413);
        assertThat(parse("a=1&".repeat(1000)).get("a")).hasSize(1000);
    }
}
