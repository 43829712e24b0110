package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * The bound on requests at the API server at once, seen on the wire of the real API server: a
 * network interceptor (inside the bound) counts the requests that have left and not been answered.
 * The requests that waited for room are counted with the time they waited (the prober's metrics).
 */
@WithLocalControlPlane
class ConcurrencyBoundIT {

    private static final long DEADLINE_SECONDS = 30;

    @Test
    void noMoreThanTheBoundAreInFlightAndTheBoundIsReached(LocalControlPlane controlPlane) throws Exception {
        int bound = 3;
        var inFlight = new AtomicInteger();
        var mostInFlight = new AtomicInteger();
        // Each request waits on the wire until `bound` of them are there: proof that the bound lets that many go.
        var together = new CyclicBarrier(bound);
        ApiClient client = onTheWire(new ConcurrencyBound(bound).applied()
                .apply(controlPlane.newApiClient(Duration.ofSeconds(30))), chain -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                together.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                return chain.proceed(chain.request());
            } catch (Exception e) {
                throw new IllegalStateException("fewer than " + bound + " requests were let through together", e);
            } finally {
                inFlight.decrementAndGet();
            }
        });

        try (var threads = Executors.newFixedThreadPool(4 * bound)) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 8 * bound; i++) {
                calls.add(threads.submit(() -> new VersionApi(client).getCode().execute()));
            }
            for (Future<?> call : calls) {
                assertThat(call.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isNotNull();
            }
        }
        assertThat(mostInFlight.get()).as("requests at the API server at once").isEqualTo(bound);
    }

    @Test
    void aRequestThatFindsNoRoomWithinItsCallTimeoutFailsWithoutBeingSent(LocalControlPlane controlPlane)
            throws Exception {
        var sent = new AtomicInteger();
        var firstArrived = new CountDownLatch(1);
        var releaseFirst = new CountDownLatch(1);
        var bound = new ConcurrencyBound(1);
        ApiClient client = onTheWire(bound.applied().apply(controlPlane.newApiClient(Duration.ofSeconds(30))),
                chain -> {
                    sent.incrementAndGet();
                    firstArrived.countDown();
                    try {
                        releaseFirst.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return chain.proceed(chain.request());
                });
        try (var threads = Executors.newSingleThreadExecutor()) {
            Future<?> holder = threads.submit(() -> new VersionApi(client).getCode().execute());
            assertThat(firstArrived.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(bound.inFlight()).isEqualTo(1);
            assertThat(bound.waitedRequests()).as("the first found room").isZero();

            var waiting = new VersionApi(client).getCode().buildCall(null);
            waiting.timeout().timeout(200, TimeUnit.MILLISECONDS);
            assertThatThrownBy(waiting::execute).isInstanceOf(InterruptedIOException.class)
                    .hasMessageContaining("timeout");
            assertThat(sent.get()).as("requests that reached the wire").isEqualTo(1);
            assertThat(bound.waitedRequests()).as("requests counted as having waited").isEqualTo(1);
            assertThat(bound.waited()).as("its whole call timeout counted as waited")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(200));

            releaseFirst.countDown();
            assertThat(holder.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isNotNull();
        }
        assertThat(bound.inFlight()).as("a request answered gives its room back").isZero();
    }

    @Test
    void anOpenWatchTakesNoRoom(LocalControlPlane controlPlane) throws Exception {
        var bound = new ConcurrencyBound(1);
        ApiClient client = bound.applied().apply(controlPlane.newApiClient(Duration.ofSeconds(30)));
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO).build());
        var watch = new CoreV1Api(client).listNamespacedConfigMap("default").watch(true).timeoutSeconds(60)
                .buildCall(null);
        try (Response open = watch.execute()) {
            assertThat(open.isSuccessful()).isTrue();
            assertThat(bound.inFlight()).isZero();
            assertThat(new VersionApi(client).getCode().execute().getMajor()).isNotBlank();
        }
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ConcurrencyBound(0))
                .withMessageContaining("at least one");
    }

    private static ApiClient onTheWire(ApiClient client, Interceptor network) {
        client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor(network).build());
        return client;
    }
}
