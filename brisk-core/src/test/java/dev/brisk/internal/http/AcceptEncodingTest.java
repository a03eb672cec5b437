package dev.brisk.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AcceptEncodingTest {
    @Test
    void qValuesOfNamedCodingsAndStar() {
        assertThat(AcceptEncoding.q("gzip, deflate, br", "gzip")).isEqualTo(1000);
        assertThat(AcceptEncoding.q("gzip;q=0.5, deflate", "gzip")).isEqualTo(500);
        assertThat(AcceptEncoding.q("GZIP ; Q=0.25", "gzip")).isEqualTo(250);
        assertThat(AcceptEncoding.q("x-gzip", "gzip")).isEqualTo(1000);
        assertThat(AcceptEncoding.q("deflate", "gzip")).isZero();
        assertThat(AcceptEncoding.q("*", "gzip")).isEqualTo(1000);
        assertThat(AcceptEncoding.q("*;q=0.1, gzip;q=0", "gzip")).as("its own entry wins over *").isZero();
        assertThat(AcceptEncoding.q("gzip;q=1.5", "gzip")).as("not a q-value").isZero();
        assertThat(AcceptEncoding.q("gzip;q=0.1234", "gzip")).isZero();
        assertThat(AcceptEncoding.q("gzip;q=", "gzip")).isZero();
        assertThat(AcceptEncoding.q("gzip;level=1;q=0.3", "gzip")).isEqualTo(300);
        assertThat(AcceptEncoding.q("gzipx, xgzip", "gzip")).isZero();
    }

    @Test
    void identityIsAcceptableUnlessExcluded() {
        assertThat(AcceptEncoding.q(null, "identity")).isEqualTo(1000);
        assertThat(AcceptEncoding.q("gzip", "identity")).isEqualTo(1000);
        assertThat(AcceptEncoding.q("identity;q=0", "identity")).isZero();
        assertThat(AcceptEncoding.q("*;q=0", "identity")).isZero();
        assertThat(AcceptEncoding.q("*;q=0, identity", "identity")).isEqualTo(1000);
    }

    @Test
    void chooseTakesTheHighestQAndTheServersOrderOnATie() {
        assertThat(AcceptEncoding.choose(null, "gzip", "deflate")).isNull();
        assertThat(AcceptEncoding.choose("", "gzip", "deflate")).isNull();
        assertThat(AcceptEncoding.choose("deflate, gzip", "gzip", "deflate")).isEqualTo("gzip");
        assertThat(AcceptEncoding.choose("deflate, gzip;q=0.9", "gzip", "deflate")).isEqualTo("deflate");
        assertThat(AcceptEncoding.choose("*", "gzip", "deflate")).isEqualTo("gzip");
        assertThat(AcceptEncoding.choose("br", "gzip", "deflate")).isNull();
        assertThat(AcceptEncoding.choose("gzip;q=0, deflate;q=0", "gzip", "deflate")).isNull();
    }
}
