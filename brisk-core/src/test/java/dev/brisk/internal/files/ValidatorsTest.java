package dev.brisk.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Entity-tag lists and HTTP dates. */
class ValidatorsTest {
    @Test
    void weakComparisonIgnoresWeaknessStrongDoesNot() {
        assertThat(EntityTags.matches("\"a\"", "\"a\"", true)).isTrue();
        assertThat(EntityTags.matches("W/\"a\"", "\"a\"", false)).isTrue();
        assertThat(EntityTags.matches("W/\"a\"", "\"a\"", true)).isFalse();
        assertThat(EntityTags.matches("\"a\"", "W/\"a\"", false)).isTrue();
        assertThat(EntityTags.matches("\"a\"", "W/\"a\"", true)).isFalse();
        assertThat(EntityTags.matches("\"x\", \"y\" ,W/\"a\"", "\"a\"", false)).isTrue();
        assertThat(EntityTags.matches("\"ab\"", "\"a\"", false)).isFalse();
        assertThat(EntityTags.matches("\"a", "\"a\"", false)).isFalse();
        assertThat(EntityTags.matches("a, \"a\"", "\"a\"", false)).as("a malformed member is skipped").isTrue();
        assertThat(EntityTags.matches("\"a\" junk", "\"a\"", false)).as("more after the tag: malformed").isFalse();
        assertThat(EntityTags.matches("\"a\"x, \"b\"", "\"a\"", false)).isFalse();
        assertThat(EntityTags.matches("\"a\"x, \"a\" ", "\"a\"", false)).as("the next member still counts").isTrue();
        assertThat(EntityTags.matches("\"b\" \t, \"a\"\t", "\"a\"", false)).as("white space around commas").isTrue();
        assertThat(EntityTags.matches(" * ", null, true)).isTrue();
        assertThat(EntityTags.matches("\"a\"", null, false)).isFalse();
    }

    @Test
    void datesInAllThreeForms() {
        long t = 784111777L; // Sun, 06 Nov 1994 08:49:37 GMT
        assertThat(HttpDates.format(t)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(t);
        assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(t);
        assertThat(HttpDates.parse("Sun Nov  6 08:49:37 1994")).isEqualTo(t);
        assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 PST")).isEqualTo(-1);
        assertThat(HttpDates.parse("06 Nov 1994")).isEqualTo(-1);
        assertThat(HttpDates.parse(null)).isEqualTo(-1);
    }
}
