package dev.brisk.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedirectLocationTest {

    @ParameterizedTest
    @ValueSource(strings = {"/target", "https://example.com/a/b?x=1&y=%20z#frag", "../up", "?q=1", "",
            "mailto:a@b.example", "/a;p=1/b~c!$'()*+,=:@-._", "/%C3%A9%2f"})
    void aValidUriIsSentAsItIs(String target) {
        assertThat(RedirectLocation.of(target)).isSameAs(target);
    }

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", quoteCharacter = '\u0000', value = {
        "/search?q=café => /search?q=caf%C3%A9",
        "/a b => /a%20b",
        "/naïve/%C3%A9 => /na%C3%AFve/%C3%A9",
        "/100% => /100%25",
        "/50%zz/%4 => /50%25zz/%254",
        "/雪?x=☃ => /%E9%9B%AA?x=%E2%98%83",
        "/emoji/\uD83D\uDE00 => /emoji/%F0%9F%98%80",
        "/q?\"<>\\^`{|} => /q?%22%3C%3E%5C%5E%60%7B%7C%7D",
        "https://h.example/ä#ö => https://h.example/%C3%A4#%C3%B6",
    })
    void whatAUriMayNotHoldIsPercentEncodedAsUtf8(String target, String expected) {
        String location = RedirectLocation.of(target.strip());
        assertThat(location).isEqualTo(expected);
        assertThat(URI.create(location).toString()).isEqualTo(location); // a valid URI reference
        assertThat(RedirectLocation.of(location)).isSameAs(location); // encoding twice changes nothing
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a\r\nSet-Cookie: x=1", "/a\nb", "/a\rb", "/a\u0000b", "/a\tb", "/a\u007fb",
            "/a\uD83Db", "/a\uDE00b", "/end\uD83D"})
    void controlCharactersAndUnpairedSurrogatesAreRefused(String target) {
        assertThatThrownBy(() -> RedirectLocation.of(target)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("redirect location contains");
    }

    @org.junit.jupiter.api.Test
    void nullIsRefused() {
        assertThatThrownBy(() -> RedirectLocation.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("redirect location must not be null");
    }
}
