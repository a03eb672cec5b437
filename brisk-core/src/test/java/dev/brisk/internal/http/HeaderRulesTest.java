package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderRulesTest {

    @ParameterizedTest
    @CsvSource(delimiterString = "=>", value = {
        "'  v  '=>'v'",
        "'\tv\t'=>'v'",
        "' \t a \t b \t '=>'a \t b'",
        "' '=>''",
        "'\t\t'=>''",
        "'text/plain; charset=utf-8 '=>'text/plain; charset=utf-8'",
    })
    void whiteSpaceAtTheEndsIsTakenOff(String value, String expected) {
        assertThat(HeaderRules.value(value)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"v", "", "a b", "caf\u00e9", "fine\tvalue"})
    void aValueWithoutItIsReturnedItself(String value) {
        assertThat(HeaderRules.value(value)).isSameAs(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {" a\r\n", "a\n ", "\u0000", " \u007f", "\u0100 "})
    void controlAndNonLatin1CharactersAreStillRefused(String value) {
        assertThatThrownBy(() -> HeaderRules.value(value)).isInstanceOf(IllegalArgumentException.class);
    }
}
