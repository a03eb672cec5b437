package dev.brisk.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteRangesTest {
    private static long[] parse(String h, long length) {
        return ByteRanges.parse(h, length, 16);
    }

    @Test
    void singleAndSuffixAndOpenRanges() {
        assertThat(parse("bytes=0-4", 10)).containsExactly(0, 4);
        assertThat(parse("bytes=5-", 10)).containsExactly(5, 9);
        assertThat(parse("bytes=-3", 10)).containsExactly(7, 9);
        assertThat(parse("bytes=-30", 10)).containsExactly(0, 9);
        assertThat(parse("bytes=3-300", 10)).containsExactly(3, 9);
        assertThat(parse("BYTES = 1-2", 10)).containsExactly(1, 2);
        assertThat(parse("bytes=0-99999999999999999999999999", 10)).containsExactly(0, 9);
    }

    @Test
    void rangesAreSortedAndMergedWhenTheyOverlapOrTouch() {
        assertThat(parse("bytes=6-7,0-1", 10)).containsExactly(0, 1, 6, 7);
        assertThat(parse("bytes=0-3,2-5", 10)).containsExactly(0, 5);
        assertThat(parse("bytes=0-3,4-5", 10)).containsExactly(0, 5);
        assertThat(parse("bytes=0-3,5-5", 10)).containsExactly(0, 3, 5, 5);
        assertThat(parse("bytes=-2,0-0,8-", 10)).containsExactly(0, 0, 8, 9);
        assertThat(parse("bytes=0-9,3-4,-1", 10)).containsExactly(0, 9);
    }

    @Test
    void unsatisfiableOnlyWhenNoRangeIs() {
        assertThat(parse("bytes=10-", 10)).isSameAs(ByteRanges.UNSATISFIABLE);
        assertThat(parse("bytes=-0", 10)).isSameAs(ByteRanges.UNSATISFIABLE);
        assertThat(parse("bytes=10-20, 99999999999999999999999-", 10)).isSameAs(ByteRanges.UNSATISFIABLE);
        assertThat(parse("bytes=10-20,2-3", 10)).containsExactly(2, 3);
    }

    @Test
    void malformedHeadersAreIgnored() {
        for (String h : new String[] {null, "", "bytes", "bytes=", "bytes=,", "bytes=a-b", "bytes=5-1", "bytes=1-2-3",
                "bits=0-1", "bytes=+1-2", "bytes=0-1;x", "bytes 0-1", "bytes=1 - 2",
                // a last below its first, both beyond a long (found by ByteRangesFuzzTest: was unsatisfiable)
                "bytes=99999999999999999999-99999999999999999998", "bytes=0099999999999999999999-99999999999999999998"}) {
            assertThat(parse(h, 10)).as(h).isSameAs(ByteRanges.IGNORE);
        }
        assertThat(parse("bytes=0-1", 0)).as("an empty representation").isSameAs(ByteRanges.IGNORE);
        assertThat(parse("bytes=0-1, ,2-3", 10)).as("empty list elements").containsExactly(0, 3);
    }

    @Test
    void tooManyRangesAreIgnored() {
        StringBuilder sb = new StringBuilder("bytes=0-0");
        for (int i = 1; i < 17; i++) {
            sb.append(',').append(i * 2).append('-').append(i * 2);
        }
        assertThat(parse(sb.toString(), 100)).as("17 disjoint ranges, 16 allowed").isSameAs(ByteRanges.IGNORE);
        assertThat(parse("bytes=0-0" + ",0-0".repeat(ByteRanges.MAX_SPECS - 1), 100)).containsExactly(0, 0);
        assertThat(parse("bytes=0-0" + ",0-0".repeat(ByteRanges.MAX_SPECS), 100)).isSameAs(ByteRanges.IGNORE);
    }
}
