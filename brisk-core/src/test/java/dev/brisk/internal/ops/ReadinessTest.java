package dev.brisk.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadinessTest {
    @Test
    void shutdownWinsOverTheAppsFlagForGood() {
        Readiness r = new Readiness();
        assertThat(r.ready()).isTrue();
        r.set(false);
        assertThat(r.ready()).isFalse();
        r.set(true);
        assertThat(r.ready()).isTrue();
        r.shutdownStarted();
        assertThat(r.ready()).isFalse();
        assertThat(r.shuttingDown()).isTrue();
        r.set(true);
        assertThat(r.ready()).isFalse();
        assertThat(r.appReady()).isTrue();
    }
}
