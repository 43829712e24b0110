package dwd.adapters.k8s;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * At most {@code places} requests of the clients it is applied to are at the API server at once;
 * the others wait, each for no longer than its call timeout. A watch is not counted: it stays open.
 * Requests that found no room are counted, with the time they waited.
 *
 * <p>Who goes first when a place frees: the waiting requests of namespaces that had no other
 * request waiting or at the API server when they came, in arrival order; then those of namespaces
 * that had one, and so on. In a meltdown every shoot's first write goes before any shoot's second.
 *
 * <p>Why: a meltdown of many shoots starts thousands of scale writes within seconds. Sent all at
 * once, they queue inside the kube-apiserver on its way to etcd and every one of them takes
 * seconds; sent a few dozen at a time, each takes milliseconds and the first write of every shoot
 * comes sooner (docs/decisions.md, "Seed writes a few dozen at a time" and "A shoot's first
 * write goes first").
 */
public final class ConcurrencyBound implements Interceptor {

    /** Ranks kept apart: a namespace's fourth request and later ones wait together, in arrival order. */
    static final int RANKS = 4;

    private final int limit;
    private final ReentrantLock lock = new ReentrantLock();
    /** Places taken; guarded by {@link #lock}. Nobody waits while one is free. */
    private int taken;
    /** Requests waiting or at the API server, by namespace; guarded by {@link #lock}. */
    private final Map<String, Integer> pending = new HashMap<>();
    /** The waiting requests by rank; guarded by {@link #lock}. */
    private final List<ArrayDeque<Waiter>> waiting =
            Stream.generate(ArrayDeque<Waiter>::new).limit(RANKS).toList();
    private final WaitTally waits = new WaitTally();

    /** A request waiting for a place; its fields guarded by {@link #lock}. */
    private final class Waiter {
        final Condition placeGiven = lock.newCondition();
        boolean hasPlace;
    }

    public ConcurrencyBound(int places) {
        if (places < 1) {
            throw new IllegalArgumentException("at least one request must be allowed at once, not " + places);
        }
        this.limit = places;
    }

    /** Adds this bound to each client it is applied to (keeping the client's other settings). */
    public UnaryOperator<ApiClient> applied() {
        return ApiClients.intercepting(this);
    }

    /** Requests sent and not yet answered (watches not counted). */
    public int inFlight() {
        lock.lock();
        try {
            return taken;
        } finally {
            lock.unlock();
        }
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
        String namespace = namespaceOf(chain.request().url());
        awaitPlace(namespace, chain.call().timeout().timeoutNanos());
        try {
            // Released once the answer's headers are in: the API server has done its part.
            return chain.proceed(chain.request());
        } finally {
            release(namespace);
        }
    }

    /** The namespace a request is about ({@code /api/v1/namespaces/{name}/…}), or "" for a cluster-wide one. */
    static String namespaceOf(HttpUrl url) {
        List<String> segments = url.pathSegments();
        int at = segments.indexOf("namespaces");
        return at >= 0 && at + 1 < segments.size() ? segments.get(at + 1) : "";
    }

    private void awaitPlace(String namespace, long timeoutNanos) throws InterruptedIOException {
        lock.lock();
        try {
            int rank = pending.merge(namespace, 1, Integer::sum) - 1;
            if (taken < limit) {
                taken++;
                return;
            }
            var waiter = new Waiter();
            ArrayDeque<Waiter> queue = waiting.get(Math.min(rank, RANKS - 1));
            queue.add(waiter);
            long start = waits.started();
            try {
                long left = timeoutNanos;
                while (!waiter.hasPlace) {
                    if (timeoutNanos == 0) {
                        waiter.placeGiven.await();
                    } else if (left > 0) {
                        left = waiter.placeGiven.awaitNanos(left);
                    } else {
                        queue.remove(waiter);
                        forget(namespace);
                        throw new InterruptedIOException("timeout: the request waited its whole call timeout for one of "
                                + "the " + limit + " requests at the API server to end");
                    }
                }
            } catch (InterruptedException e) {
                if (waiter.hasPlace) {
                    releaseLocked(namespace);
                } else {
                    queue.remove(waiter);
                    forget(namespace);
                }
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to send the request");
            } finally {
                waits.ended(start);
            }
        } finally {
            lock.unlock();
        }
    }

    private void release(String namespace) {
        lock.lock();
        try {
            releaseLocked(namespace);
        } finally {
            lock.unlock();
        }
    }

    /** Gives the place to the first waiter of the lowest rank, if anyone waits. */
    private void releaseLocked(String namespace) {
        forget(namespace);
        for (ArrayDeque<Waiter> queue : waiting) {
            Waiter next = queue.poll();
            if (next != null) {
                next.hasPlace = true; // the place passes on: taken stays as it is
                next.placeGiven.signal();
                return;
            }
        }
        taken--;
    }

    private void forget(String namespace) {
        pending.computeIfPresent(namespace, (key, count) -> count == 1 ? null : count - 1);
    }
}
