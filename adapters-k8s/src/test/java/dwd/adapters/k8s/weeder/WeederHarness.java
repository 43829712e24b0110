package dwd.adapters.k8s.weeder;

import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.ApiClients;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.watch.WatchReports;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.WeederObserver;
import dwd.application.runtime.SystemScheduler;
import dwd.application.weeder.WeederSupervisor;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The weeder wired as production will wire it (EndpointSlice watch → supervisor → pod watches and deletions on
 * the real API server, system scheduler), with recorders around the ports so tests can wait for what
 * happened instead of sleeping.
 */
final class WeederHarness implements AutoCloseable {

    static final String ETCD_MAIN_CLIENT = "etcd-main-client";
    static final String KUBE_APISERVER = "kube-apiserver";

    /** Gardener's weeder config (original-dwd §1.4) with the given window. */
    static WeederConfig gardenerConfig(Duration watchDuration) {
        Map<String, List<LabelSelector>> services = new LinkedHashMap<>();
        services.put(ETCD_MAIN_CLIENT, List.of(LabelSelector.of(Map.of(),
                Requirement.in("gardener.cloud/role", "controlplane"), Requirement.in("role", "apiserver"))));
        services.put(KUBE_APISERVER, List.of(LabelSelector.of(Map.of(),
                Requirement.in("gardener.cloud/role", "controlplane"), Requirement.notIn("role", "main", "apiserver"))));
        return new WeederConfig(watchDuration, services);
    }

    /** A client for watches: read timeout 0, as the EndpointSlice watch and the pod watches require. */
    static ApiClient watchClient(dwd.adapters.k8s.testing.LocalControlPlane controlPlane) {
        ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(10));
        client.setReadTimeout(0);
        return client;
    }

    /** One pod state handed to the weeder, and when. */
    record Seen(PodState pod, long atNanos) { }

    /** One deletion request: when it was sent and answered, and how it ended (null when it failed). */
    record Deletion(String namespace, String name, String uid, long sentNanos, long answeredNanos,
            Pods.Deletion outcome) { }

    /** One observer event. */
    record Event(String namespace, String service, String what, Instant at) { }

    final SystemScheduler scheduler = new SystemScheduler();
    /** Where the harness's watches report, as a process's would: which of them run. */
    final WatchReports reports;
    final KubernetesPodWatches podWatches;
    final WeederSupervisor supervisor;
    final EndpointSliceWatch sliceWatch;
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    final List<Deletion> deletions = new CopyOnWriteArrayList<>();
    final List<Event> events = new CopyOnWriteArrayList<>();
    private final List<Predicate<PodState>> holds = new CopyOnWriteArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    /** Pod watch requests, when this harness made its pod watches (and so could count them). */
    private AtomicInteger podWatchRequests = new AtomicInteger();

    WeederHarness(ApiClient watchClient, ApiClient requestClient, WeederConfig config) {
        this(new AtomicInteger(), TestWatchReports.create(), watchClient, requestClient, config);
    }

    private WeederHarness(AtomicInteger podWatchRequests, WatchReports reports, ApiClient watchClient,
            ApiClient requestClient, WeederConfig config) {
        this(new KubernetesPodWatches(countingPodWatches(watchClient, podWatchRequests), reports), reports, requestClient,
                watchClient, config);
        this.podWatchRequests = podWatchRequests;
    }

    /** @param reports where {@code podWatches} report */
    WeederHarness(KubernetesPodWatches podWatches, WatchReports reports, ApiClient requestClient, ApiClient watchClient,
            WeederConfig config) {
        this.reports = reports;
        this.podWatches = podWatches;
        var pods = new KubernetesPods(requestClient);
        this.supervisor = new WeederSupervisor(config, scheduler, recordingWatches(podWatches), recordingPods(pods),
                new RecordingObserver());
        this.sliceWatch = new EndpointSliceWatch(watchClient, config.servicesAndDependantSelectors().keySet(), supervisor,
                reports);
    }

    /** Pod watch requests sent so far: each one after the first goes on from where the one before ended. */
    int podWatchRequests() {
        return podWatchRequests.get();
    }

    /** Counts the pod watch requests {@code client} sends in {@code counter}. */
    private static ApiClient countingPodWatches(ApiClient client, AtomicInteger counter) {
        return ApiClients.intercepting(chain -> {
            var url = chain.request().url();
            if ("true".equals(url.queryParameter("watch")) && url.encodedPath().endsWith("/pods")) {
                counter.incrementAndGet();
            }
            return chain.proceed(chain.request());
        }).apply(client);
    }

    /** Whether no pod watch runs: every one a weeder opened has ended. */
    boolean noPodWatchRuns() {
        return reports.running().oldest("pods").isEmpty();
    }

    /** Starts the EndpointSlice watch and waits until its initial list has been delivered. */
    WeederHarness start() {
        sliceWatch.start();
        await("EndpointSlice watch synced").atMost(Duration.ofSeconds(30)).until(sliceWatch::hasSynced);
        return this;
    }

    /** Holds back, from now on, pod events that {@code which} matches, until {@link #releaseHeld()}: a lagging watch. */
    void holdEvents(Predicate<PodState> which) {
        holds.add(which);
    }

    /** Delivers the held events, in order, on this thread. */
    void releaseHeld() {
        holds.clear();
        List<Runnable> release;
        synchronized (held) {
            release = List.copyOf(held);
            held.clear();
        }
        release.forEach(Runnable::run);
    }

    boolean sawPod(String namespace, String name, String uid, Predicate<PodState> state) {
        return seen.stream().map(Seen::pod).anyMatch(pod -> pod.namespace().equals(namespace)
                && pod.name().equals(name) && pod.uid().equals(uid) && state.test(pod));
    }

    boolean sawCrashLoop(String namespace, String name, String uid) {
        return sawPod(namespace, name, uid, CrashLoop::isCrashLooping);
    }

    List<Deletion> deletionsIn(String namespace) {
        return deletions.stream().filter(deletion -> deletion.namespace().equals(namespace)).toList();
    }

    List<String> eventsIn(String namespace) {
        return events.stream().filter(event -> event.namespace().equals(namespace))
                .map(event -> event.service() + " " + event.what()).toList();
    }

    long count(String what) {
        return events.stream().filter(event -> event.what().startsWith(what)).count();
    }

    @Override
    public void close() {
        sliceWatch.close();
        supervisor.close();
        scheduler.close();
    }

    private PodWatches recordingWatches(PodWatches real) {
        return (namespace, selector, listener) -> {
            Consumer<PodState> recording = pod -> {
                if (holds.stream().anyMatch(hold -> hold.test(pod))) {
                    synchronized (held) {
                        held.add(() -> listener.accept(pod));
                    }
                    return;
                }
                seen.add(new Seen(pod, System.nanoTime()));
                listener.accept(pod);
            };
            return real.watch(namespace, selector, recording);
        };
    }

    private Pods recordingPods(Pods real) {
        return (namespace, name, uid) -> {
            long sent = System.nanoTime();
            Pods.Deletion outcome = null;
            try {
                outcome = real.delete(namespace, name, uid);
                return outcome;
            } finally {
                deletions.add(new Deletion(namespace, name, uid, sent, System.nanoTime(), outcome));
            }
        };
    }

    private final class RecordingObserver implements WeederObserver {

        private void record(String namespace, String service, String what) {
            events.add(new Event(namespace, service, what, Instant.now()));
        }

        @Override
        public void weederStarted(String namespace, String service, Instant until) {
            record(namespace, service, "started");
        }

        @Override
        public void weederStopped(String namespace, String service, StopReason reason) {
            record(namespace, service, "stopped " + reason);
        }

        @Override
        public void podDeleted(String namespace, String service, PodState pod) {
            record(namespace, service, "deleted " + pod.name());
        }

        @Override
        public void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) {
            record(namespace, service, "left " + pod.name() + " " + outcome);
        }

        @Override
        public void podDeletionFailed(String namespace, String service, PodState pod, ApiFailure failure) {
            record(namespace, service, "failed " + pod.name() + " " + failure.kind());
        }
    }
}
