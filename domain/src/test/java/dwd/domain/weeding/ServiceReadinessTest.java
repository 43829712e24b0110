package dwd.domain.weeding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServiceReadinessTest {

    private static final Endpoint READY = new Endpoint(Optional.of(true));
    private static final Endpoint NOT_READY = new Endpoint(Optional.of(false));
    private static final Endpoint UNSET = new Endpoint(Optional.empty());

    private static EndpointSliceState slice(String name, Endpoint... endpoints) {
        return new EndpointSliceState("shoot--p--s", name, "etcd-main-client", List.of(endpoints));
    }

    @Test
    void oneReadyEndpointAnywhereMakesTheServiceReady() {
        assertThat(ServiceReadiness.isReady(List.of(slice("a", NOT_READY, READY)))).isTrue();
        assertThat(ServiceReadiness.isReady(List.of(slice("a", NOT_READY), slice("b", NOT_READY, READY)))).isTrue();
    }

    @Test
    void unsetReadyCountsAsReady() {
        assertThat(ServiceReadiness.isReady(List.of(slice("a", NOT_READY), slice("b", UNSET)))).isTrue();
        assertThat(UNSET.isReady()).isTrue();
        assertThat(new Endpoint(null).isReady()).isTrue();
    }

    @Test
    void noReadyEndpointMeansNotReady() {
        assertThat(ServiceReadiness.isReady(List.of(slice("a", NOT_READY), slice("b", NOT_READY, NOT_READY)))).isFalse();
    }

    @Test
    void noEndpointsAtAllMeanNotReady() {
        assertThat(ServiceReadiness.isReady(List.of(slice("a"), slice("b")))).isFalse();
        assertThat(ServiceReadiness.isReady(List.of())).isFalse();
        assertThat(ServiceReadiness.isReady(null)).isFalse();
        var withNull = new ArrayList<EndpointSliceState>();
        withNull.add(null);
        assertThat(ServiceReadiness.isReady(withNull)).isFalse();
    }

    @ParameterizedTest(name = "was {0}, is {1} -> became ready {2}")
    @CsvSource({"false, true, true", "true, true, false", "true, false, false", "false, false, false"})
    void becomesReadyOnlyOnTheTransition(boolean wasReady, boolean isReady, boolean becameReady) {
        assertThat(ServiceReadiness.becameReady(wasReady, isReady)).isEqualTo(becameReady);
    }

    @Test
    void absentFieldsBecomeEmpty() {
        assertThat(new EndpointSliceState(null, null, null, null))
                .isEqualTo(new EndpointSliceState("", "", "", List.of()));
    }
}
