package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.HttpException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Request {@code Cookie} parsing: strict pairs, malformed ones skipped, a bound on the count. */
class CookiesTest {

    private static Map<String, String> parse(String... headers) {
        return Cookies.parse(List.of(headers));
    }

    @Test
    void wellFormedPairsInOrderWithQuotesRemoved() {
        assertThat(parse("session=8f14e45f; theme=dark; q=\"quoted\"; empty=; eq=a==b"))
                .containsExactly(Map.entry("session", "8f14e45f"), Map.entry("theme", "dark"),
                        Map.entry("q", "quoted"), Map.entry("empty", ""), Map.entry("eq", "a==b"));
    }

    @Test
    void separatorWithoutSpaceOrWithTabsIsAccepted() {
        assertThat(parse("a=1;b=2;\tc=3 ;  d=4 ")).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"),
                Map.entry("c", "3"), Map.entry("d", "4"));
    }

    @Test
    void firstOfARepeatedNameWinsAcrossHeaders() {
        assertThat(parse("a=1; b=2", "a=3; c=4")).containsExactly(Map.entry("a", "1"), Map.entry("b", "2"),
                Map.entry("c", "4"));
    }

    @Test
    void namesAreCaseSensitive() {
        assertThat(parse("A=1; a=2")).containsExactly(Map.entry("A", "1"), Map.entry("a", "2"));
    }

    @Test
    void malformedPairsAreSkippedAndTheOthersKept() {
        assertThat(parse("ok=1; =noname; novalue; sp ace=1; a = 1; b= 1; c=1 2; d=x,y; e=back\\slash; f=\"open;"
                + " g=\"mid\"dle\"; h=caf\u00e9; i=tab\tin; j=\"; k=a\"b; (x)=1; l=2"))
                .containsExactly(Map.entry("ok", "1"), Map.entry("l", "2"));
    }

    @Test
    void rfc2965AttributesAreNotCookies() {
        assertThat(parse("$Version=1; session=abc; $Path=\"/\"; $Domain=\"127.0.0.1\"; $PORT=\"80\"; $Other=1"))
                .containsExactly(Map.entry("session", "abc"), Map.entry("$Other", "1"));
    }

    @Test
    void commaSeparatedHeaderYieldsNothingRatherThanAMisreadValue() {
        assertThat(parse("a=1, b=2")).isEmpty();
        assertThat(parse("a=1, b=2; c=3")).containsExactly(Map.entry("c", "3"));
    }

    @Test
    void emptyAndSeparatorOnlyHeadersHaveNoCookies() {
        assertThat(parse()).isEmpty();
        assertThat(parse("")).isEmpty();
        assertThat(parse(";;; ;  ;")).isEmpty();
        assertThat(parse("=")).isEmpty();
    }

    @Test
    void exactlyTheLimitIsAccepted() {
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < Cookies.MAX_COOKIES; i++) {
            h.append(i == 0 ? "" : "; ").append('c').append(i).append("=v");
        }
        assertThat(parse(h.toString())).hasSize(Cookies.MAX_COOKIES);
    }

    @Test
    void moreThanTheLimitIsA400EvenSpreadOverHeadersOrRepeatingOneName() {
        StringBuilder h = new StringBuilder("a=1");
        for (int i = 1; i < Cookies.MAX_COOKIES; i++) {
            h.append("; a=1");
        }
        assertThat(parse(h.toString())).hasSize(1);
        assertThatThrownBy(() -> parse(h.toString(), "b=2"))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("Too many cookies: more than 200");
    }

    @Test
    void tenThousandMalformedPairsAreSkippedWithoutFailing() {
        String h = "bad pair; ".repeat(10_000) + "good=1";
        assertThat(parse(h)).containsExactly(Map.entry("good", "1"));
    }
}
