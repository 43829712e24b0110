package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The client-side rate limit, measured on the wire against the real API server: the instant each
 * request leaves (an OkHttp network interceptor, after the throttle) is recorded. The bounds hold
 * however loaded the machine is: the bucket starts full at the test's start S, so by any instant T
 * at most {@code burst + qps × (T − S)} requests can have left (delays only make them leave later),
 * and the last of N requests cannot leave before {@code S + (N − burst) / qps}.
 */
@WithLocalControlPlane
class ClientSideThrottleIT {

    private static final int REQUESTS = 30;
    private static final double QPS = 10;
    private static final int BURST = 5;

    @Test
    void requestsLeaveNoFasterThanTheBucketAllows(LocalControlPlane controlPlane) throws Exception {
        List<Long> sent = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        var throttle = ClientSideThrottle.of(QPS, BURST);
        ApiClient client = throttle.applied().apply(controlPlane.newApiClient(Duration.ofSeconds(30)));
        client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor(chain -> {
            sent.add(System.nanoTime());
            return chain.proceed(chain.request());
        }).build());

        var go = new CountDownLatch(1);
        try (var threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                calls.add(threads.submit(() -> {
                    go.await();
                    return new VersionApi(client).getCode().execute();
                }));
            }
            go.countDown();
            for (Future<?> call : calls) {
                call.get();
            }
        }

        List<Long> times = sent.stream().sorted().toList();
        assertThat(times).hasSize(REQUESTS);
        for (int i = 0; i < times.size(); i++) {
            double secondsSinceStart = (times.get(i) - start) / 1e9;
            assertThat(i + 1).as("requests sent within %.3f s of the start", secondsSinceStart)
                    .isLessThanOrEqualTo((int) Math.floor(BURST + QPS * secondsSinceStart));
        }
        assertThat((times.getLast() - start) / 1e9).as("seconds from the start to the last request")
                .isGreaterThanOrEqualTo((REQUESTS - BURST) / QPS);
        assertThat(throttle.waitedRequests()).as("requests that waited for a token").isBetween(1L, (long) REQUESTS);
        assertThat(throttle.waited()).isPositive();
    }

    @Test
    void noLimitLetsEveryRequestGoAtOnceAndCountsNoWait(LocalControlPlane controlPlane) throws Exception {
        var throttle = ClientSideThrottle.of(-1, 1);
        ApiClient client = throttle.applied().apply(controlPlane.newApiClient(Duration.ofSeconds(30)));
        for (int i = 0; i < 20; i++) {
            new VersionApi(client).getCode().execute();
        }
        assertThat(throttle.waitedRequests()).isZero();
        assertThat(throttle).hasToString("no client-side limit");
    }

    @Test
    void aRateOfZeroOrABurstBelowOneIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> ClientSideThrottle.of(0, 10));
        assertThatIllegalArgumentException().isThrownBy(() -> ClientSideThrottle.of(Double.NaN, 10));
        assertThatIllegalArgumentException().isThrownBy(() -> ClientSideThrottle.of(5, 0));
        assertThat(ClientSideThrottle.of(20, 100)).hasToString("qps 20.0, burst 100");
    }
}
