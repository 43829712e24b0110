package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.adapters.k8s.prober.CacheTrust.Use;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule of the prober's seed caches, on watch states set by hand (DependentsCacheIT and KubernetesMachinesIT on a real API server). */
class CacheTrustTest {

    private record Object(String namespace, String name) implements CacheTrust.Written { }

    /** A watch as the rule reads it: trusted or not, how old its copy is, and up to which version it has seen. */
    private static final class Watch implements CacheTrust.WatchState {
        boolean synced = true;
        Optional<Duration> copyAge = Optional.of(Duration.ZERO);
        long seenUpTo;

        @Override
        public boolean hasSynced() {
            return synced;
        }

        @Override
        public Optional<Duration> copyAge() {
            return copyAge;
        }

        @Override
        public boolean hasSeen(String resourceVersion) {
            return Long.parseLong(resourceVersion) <= seenUpTo;
        }

        @Override
        public String kinds() {
            return "Deployments named kcm";
        }
    }

    private final Watch watch = new Watch();
    private final Object kcm = new Object("shoot--a", "kcm");
    private final CacheTrust<Object> dependents = CacheTrust.forWrittenObjects(object -> Optional.of(watch));

    @Test
    void aTrustedWatchsCopyDecidesUntilDwdWritesTheObjectAndAgainOnceTheWatchShowsTheWrite() {
        watch.seenUpTo = 10;
        assertThat(dependents.use(watch, kcm, Optional.of("10"))).isEqualTo(Use.CACHE);

        dependents.wrote(kcm, "12");
        assertThat(dependents.use(watch, kcm, Optional.of("10"))).as("the copy is from before the write").isEqualTo(Use.SERVER);
        assertThat(dependents.use(watch, new Object("shoot--b", "kcm"), Optional.of("11")))
                .as("another shoot's dependent").isEqualTo(Use.CACHE);

        watch.seenUpTo = 13; // a bookmark past the write
        assertThat(dependents.use(watch, kcm, Optional.of("10"))).isEqualTo(Use.CACHE);
        watch.seenUpTo = 10;
        assertThat(dependents.use(watch, kcm, Optional.of("10"))).as("the write, once shown, is forgotten").isEqualTo(Use.CACHE);
    }

    @Test
    void aCopyAtTheWrittenVersionShowsTheWrite() {
        dependents.wrote(kcm, "12");
        assertThat(dependents.use(watch, kcm, Optional.of("12"))).isEqualTo(Use.CACHE);
    }

    @Test
    void anUntrustedWatchsCopyNeverDecidesForADependentHoweverYoung() {
        watch.synced = false;
        watch.copyAge = Optional.of(Duration.ofMillis(1));
        assertThat(dependents.use(watch, kcm, Optional.of("10"))).isEqualTo(Use.SERVER);
    }

    @Test
    void whatChangesSlowlyStandsInForTwoMinutesWhileTheWatchIsNotTrusted() {
        CacheTrust<CacheTrust.Written> machines = CacheTrust.forSlowlyChanging();
        assertThat(machines.use(watch, null, Optional.empty())).isEqualTo(Use.CACHE);

        watch.synced = false;
        watch.copyAge = Optional.of(CacheTrust.STAND_IN_AGE);
        assertThat(machines.use(watch, null, Optional.empty())).isEqualTo(Use.RECENT_COPY);
        watch.copyAge = Optional.of(CacheTrust.STAND_IN_AGE.plusMillis(1));
        assertThat(machines.use(watch, null, Optional.empty())).isEqualTo(Use.SERVER);
        watch.copyAge = Optional.empty();
        assertThat(machines.use(watch, null, Optional.empty())).as("never listed").isEqualTo(Use.SERVER);
    }
}
