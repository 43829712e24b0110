package dwd.adapters.k8s;

import io.github.bucket4j.Bucket;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The client-side rate limit of client-go ({@code --kube-api-qps}, {@code --kube-api-burst}): one
 * token bucket shared by every client it is applied to, holding up to {@code burst} tokens and
 * refilled at {@code qps} tokens per second. Each request takes a token before it is sent (a watch
 * takes one when it starts); a request that finds the bucket empty waits for its turn, in arrival
 * order. Requests that had to wait are counted, with the time they waited.
 */
public final class ClientSideThrottle implements Interceptor {

    private final Optional<Bucket> bucket;
    private final String description;
    private final RequestWaits waits = new RequestWaits();

    private ClientSideThrottle(Optional<Bucket> bucket, String description) {
        this.bucket = bucket;
        this.description = description;
    }

    /**
     * @param qps   tokens per second; negative means no limit (client-go's meaning)
     * @param burst the bucket's size, at least 1
     * @throws IllegalArgumentException for a qps of 0 or not a number, or a burst below 1
     */
    public static ClientSideThrottle of(double qps, int burst) {
        if (qps < 0) {
            return unlimited();
        }
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException("qps must be a finite number > 0 (or negative for no limit), not " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, not " + burst);
        }
        Duration perToken = Duration.ofNanos(Math.max(1, Math.round(1e9 / qps)));
        Bucket bucket = Bucket.builder()
                .addLimit(limit -> limit.capacity(burst).refillGreedy(1, perToken))
                .build();
        return new ClientSideThrottle(Optional.of(bucket), "qps " + qps + ", burst " + burst);
    }

    /** No limit: every request is sent at once. */
    public static ClientSideThrottle unlimited() {
        return new ClientSideThrottle(Optional.empty(), "no client-side limit");
    }

    /** Adds this throttle to each client it is applied to (keeping the client's other settings). */
    public UnaryOperator<ApiClient> applied() {
        return ApiClients.intercepting(this);
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        if (bucket.isPresent() && !bucket.get().tryConsume(1)) {
            long start = waits.started();
            try {
                bucket.get().asBlocking().consume(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the client-side rate limit (" + description + ")");
            } finally {
                waits.ended(start);
            }
        }
        return chain.proceed(chain.request());
    }

    /** Requests that found the bucket empty and waited for a token. */
    public long waitedRequests() {
        return waits.requests();
    }

    /** The time those requests waited, in total. */
    public Duration waited() {
        return waits.total();
    }

    /** {@code qps 20.0, burst 100}, or {@code no client-side limit}. */
    @Override
    public String toString() {
        return description;
    }
}
