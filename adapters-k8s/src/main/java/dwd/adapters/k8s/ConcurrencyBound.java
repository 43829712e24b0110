package dwd.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * At most {@code permits} requests of the clients it is applied to are at the API server at once;
 * the others wait in arrival order, each for no longer than its call timeout. A watch is not
 * counted: it stays open. Requests that found no room are counted, with the time they waited.
 *
 * <p>Why: a meltdown of many shoots starts thousands of scale writes within seconds. Sent all at
 * once, they queue inside the kube-apiserver on its way to etcd and every one of them takes
 * seconds; sent a few dozen at a time, each takes milliseconds and the first write of every shoot
 * comes sooner (docs/decisions-prober.md, "seed scale requests a few dozen at a time").
 */
public final class ConcurrencyBound implements Interceptor {

    private final int limit;
    private final Semaphore permits;
    private final RequestWaits waits = new RequestWaits();

    public ConcurrencyBound(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("at least one request must be allowed at once, not " + permits);
        }
        this.limit = permits;
        this.permits = new Semaphore(permits, true);
    }

    /** Adds this bound to each client it is applied to (keeping the client's other settings). */
    public UnaryOperator<ApiClient> applied() {
        return ApiClients.intercepting(this);
    }

    /** Requests sent and not yet answered (watches not counted). */
    public int inFlight() {
        return limit - permits.availablePermits();
    }

    /** Requests that found every place taken and waited for one. */
    public long waitedRequests() {
        return waits.requests();
    }

    /** The time those requests waited, in total (those that gave up included). */
    public Duration waited() {
        return waits.total();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        if ("true".equals(chain.request().url().queryParameter("watch"))) {
            return chain.proceed(chain.request());
        }
        awaitPlace(chain.call().timeout().timeoutNanos());
        try {
            // Released once the answer's headers are in: the API server has done its part.
            return chain.proceed(chain.request());
        } finally {
            permits.release();
        }
    }

    private void awaitPlace(long timeoutNanos) throws InterruptedIOException {
        try {
            // A zero wait, not tryAcquire(): that one barges past the requests already waiting.
            if (!permits.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                waitForPlace(timeoutNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to send the request");
        }
    }

    private void waitForPlace(long timeoutNanos) throws InterruptedException, InterruptedIOException {
        long start = waits.started();
        try {
            if (timeoutNanos == 0) {
                permits.acquire();
            } else if (!permits.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS)) {
                throw new InterruptedIOException("timeout: the request waited its whole call timeout for one of the "
                        + limit + " requests at the API server to end");
            }
        } finally {
            waits.ended(start);
        }
    }
}
