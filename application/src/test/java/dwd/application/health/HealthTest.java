package dwd.application.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HealthTest {

    @Test
    void healthyWhenEveryCheckIsAndNotReadyOnceStopping() {
        var health = new Health()
                .addLiveness(() -> HealthCheck.Result.ok("loops", "fine"))
                .addReadiness(() -> HealthCheck.Result.ok("caches", "synced"));
        assertThat(health.liveness().healthy()).isTrue();
        assertThat(health.readiness().healthy()).isTrue();
        health.addLiveness(() -> {
            throw new IllegalStateException("broken check");
        });
        assertThat(health.liveness().healthy()).as("a check that throws fails").isFalse();
        health.markStopping();
        assertThat(health.readiness().healthy()).isFalse();
        assertThat(health.readiness().results().getFirst().name()).isEqualTo("shutdown");
    }
}
