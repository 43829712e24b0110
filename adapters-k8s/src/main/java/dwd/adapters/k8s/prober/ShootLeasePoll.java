package dwd.adapters.k8s.prober;

import dwd.adapters.k8s.JsonCalls;
import dwd.application.port.out.NodeLeaseWatch;
import dwd.domain.lease.NodeLease;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Follows one scaled-down shoot's leases in {@code kube-node-lease} by listing them again and again, from the list
 * a probe run just read, on a virtual thread; it tells its listener when a lease was renewed, came or went.
 *
 * <p>A poll, not a watch: Gardener grants the probe's identity {@code get} and {@code list} on leases and nothing
 * more (gardenlet's Role {@code gardener.cloud:target:dependency-watchdog} in {@code kube-node-lease}), as the original
 * needs, and dwd asks for no permission the original lacks. Each list has the probe's bounds ({@link BoundedList});
 * the lists come {@code interval} apart, which the shoot clients widen when many shoots are followed at once. A
 * failed list is tried again after a back-off of 1 s doubling to {@link #LONGEST_BACKOFF}; failures are logged at
 * debug level, since the probe runs, which go on beside the poll, report the shoot's state.
 */
final class ShootLeasePoll implements NodeLeaseWatch {

    private static final Logger LOG = LogManager.getLogger();

    static final Duration LONGEST_BACKOFF = Duration.ofSeconds(30);

    private final String shoot;
    private final ApiClient client;
    private final OkHttpClient transport;
    private final Duration listTimeout;
    private final Supplier<Duration> interval;
    private final Runnable changed;
    private final Runnable ended;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Written by the poll's thread only. */
    private Map<String, NodeLease> leases = new HashMap<>();
    private volatile List<NodeLease> view;
    private volatile Call current;

    /**
     * @param client      builds the requests (server, credentials)
     * @param transport   sends them
     * @param listTimeout bound of a list (all of its pages)
     * @param initial     the leases a probe run listed
     * @param interval    the time from one list to the next, asked before each wait
     * @param changed     told after each change, on the poll's thread
     * @param ended       told once the poll has stopped for good
     */
    ShootLeasePoll(String shoot, ApiClient client, OkHttpClient transport, Duration listTimeout, List<NodeLease> initial,
            Supplier<Duration> interval, Runnable changed, Runnable ended) {
        this.shoot = shoot;
        this.client = client;
        this.transport = transport;
        this.listTimeout = listTimeout;
        this.interval = interval;
        this.changed = changed;
        this.ended = ended;
        initial.forEach(lease -> leases.put(lease.name(), lease));
        this.view = List.copyOf(leases.values());
    }

    /** Starts polling on a virtual thread of its own; the first list comes one interval after the run's. */
    ShootLeasePoll start() {
        Thread.ofVirtual().name("dwd-lease-poll").start(this::loop);
        return this;
    }

    @Override
    public List<NodeLease> leases() {
        return view;
    }

    @Override
    public void close() {
        closed.countDown();
        Call call = current;
        if (call != null) {
            call.cancel();
        }
    }

    private void loop() {
        int failures = 0;
        long waitMillis = interval.get().toMillis();
        try {
            while (!closed.await(waitMillis, TimeUnit.MILLISECONDS)) {
                try {
                    list();
                    failures = 0;
                    waitMillis = interval.get().toMillis();
                } catch (ApiException | IOException | RuntimeException failure) {
                    if (closed.getCount() == 0) {
                        break;
                    }
                    long backOff = Math.min(LONGEST_BACKOFF.toMillis(), 1000L << Math.min(failures, 10));
                    failures++;
                    waitMillis = backOff + ThreadLocalRandom.current().nextLong(backOff / 5 + 1);
                    LOG.debug(() -> shoot + ": listing the node leases failed (" + describe(failure) + "); again in "
                            + backOff + " ms");
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            ended.run();
        }
    }

    private static String describe(Exception failure) {
        return failure instanceof ApiException api && api.getCode() != 0 ? "HTTP " + api.getCode()
                : String.valueOf(failure.getMessage());
    }

    /** Lists the leases (within the probe's bounds) and tells the listener if they differ from the last list. */
    private void list() throws ApiException, IOException {
        CoordinationV1Api coordination = new CoordinationV1Api(client);
        var list = new BoundedList<>("leases in " + KubernetesShootApi.NODE_LEASE_NAMESPACE, KubernetesShootApi::readLease);
        long deadline = System.nanoTime() + listTimeout.toNanos();
        Optional<String> token = Optional.empty();
        do {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IOException("not all pages of the lease list arrived within " + listTimeout);
            }
            String continueToken = token.orElse(null);
            list.beforeNextPage();
            Call call = send(coordination.listNamespacedLease(KubernetesShootApi.NODE_LEASE_NAMESPACE)
                    .limit(BoundedList.PAGE_SIZE)._continue(continueToken).buildCall(null));
            token = JsonCalls.execute(call, Duration.ofNanos(remaining), list::readPage);
        } while (token.isPresent());
        var listed = new HashMap<String, NodeLease>();
        list.items().forEach(lease -> listed.put(lease.name(), lease));
        if (!listed.equals(leases)) {
            leases = listed;
            view = List.copyOf(listed.values());
            changed.run();
        }
    }

    private Call send(Call built) throws IOException {
        Call call = transport.newCall(built.request());
        current = call;
        if (closed.getCount() == 0) {
            call.cancel();
            throw new IOException("closed");
        }
        return call;
    }
}
