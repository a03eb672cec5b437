package dev.brisk.events.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class QueryMemoTest {
    private final AtomicInteger parses = new AtomicInteger();

    private SearchQuery parse(String startsAt) {
        parses.incrementAndGet();
        return SearchQuery.parse(Map.of(SearchQuery.STARTS_AT, List.of(startsAt)), ZoneOffset.UTC);
    }

    @Test
    void aValidWindowIsParsedOnce() {
        QueryMemo memo = new QueryMemo(10);
        SearchQuery first = memo.get("starts_at=2021-03-01T00:00:00Z", () -> parse("2021-03-01T00:00:00Z"));
        SearchQuery again = memo.get("starts_at=2021-03-01T00:00:00Z", () -> parse("2021-03-01T00:00:00Z"));
        assertThat(again).isSameAs(first);
        assertThat(first.from()).isEqualTo(LocalDateTime.of(2021, 3, 1, 0, 0));
        assertThat(parses).hasValue(1);
    }

    @Test
    void aBadWindowIsRefusedEveryTimeAndNeverRemembered() {
        QueryMemo memo = new QueryMemo(10);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> memo.get("starts_at=2021-09-31T00:00:00", () -> parse("2021-09-31T00:00:00")))
                    .isInstanceOf(SearchQuery.InvalidParameterException.class)
                    .hasMessageContaining("starts_at");
        }
        assertThat(parses).hasValue(3);
        assertThat(memo.size()).isZero();
    }

    @Test
    void boundedAndDisabledByZero() {
        QueryMemo memo = new QueryMemo(4);
        for (int d = 1; d <= 20; d++) {
            String v = "2021-03-%02dT00:00:00Z".formatted(d);
            memo.get("starts_at=" + v, () -> parse(v));
            assertThat(memo.size()).isLessThanOrEqualTo(4);
        }
        QueryMemo off = new QueryMemo(0);
        off.get("starts_at=2021-03-01T00:00:00Z", () -> parse("2021-03-01T00:00:00Z"));
        off.get("starts_at=2021-03-01T00:00:00Z", () -> parse("2021-03-01T00:00:00Z"));
        assertThat(off.size()).isZero();
        assertThat(parses).hasValue(22);
    }
}
