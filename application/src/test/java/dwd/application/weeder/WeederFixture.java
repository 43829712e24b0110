package dwd.application.weeder;

import dwd.application.testing.VirtualScheduler;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import dwd.domain.selector.Requirement;
import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.Endpoint;
import dwd.domain.weeding.EndpointSliceState;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A weeder supervisor on virtual time with in-memory pod watches and pods. */
final class WeederFixture {

    static final String ETCD = "etcd-main-client";
    static final String KUBE_APISERVER = "kube-apiserver";
    static final Duration WATCH_DURATION = Duration.ofMinutes(5);

    /** Gardener's selector for etcd-main-client's dependants: the kube-apiserver pods. */
    static final LabelSelector APISERVER_PODS = LabelSelector.of(Map.of(),
            Requirement.in("gardener.cloud/role", "controlplane"), Requirement.in("role", "apiserver"));
    /** Gardener's selector for kube-apiserver's dependants: the other control-plane pods, etcd excluded. */
    static final LabelSelector OTHER_CONTROL_PLANE_PODS = LabelSelector.of(Map.of(),
            Requirement.in("gardener.cloud/role", "controlplane"), Requirement.notIn("role", "main", "apiserver"));

    final VirtualScheduler scheduler = new VirtualScheduler();
    final FakePodWatches watches = new FakePodWatches();
    final FakePods pods = new FakePods();
    final RecordingWeederObserver observer = new RecordingWeederObserver(scheduler);
    final WeederConfig config;
    final WeederSupervisor supervisor;

    WeederFixture() {
        this(gardenerConfig(WATCH_DURATION));
    }

    WeederFixture(WeederConfig config) {
        this.config = config;
        this.supervisor = new WeederSupervisor(config, scheduler, watches, pods, observer);
    }

    /** The weeder config Gardener generates (original-dwd §1.4), with the given window. */
    static WeederConfig gardenerConfig(Duration watchDuration) {
        Map<String, List<LabelSelector>> services = new LinkedHashMap<>();
        services.put(ETCD, List.of(APISERVER_PODS));
        services.put(KUBE_APISERVER, List.of(OTHER_CONTROL_PLANE_PODS));
        return new WeederConfig(watchDuration, services);
    }

    /** A slice with one endpoint per readiness given: {@code true}, {@code false} or {@code null} (unset). */
    static EndpointSliceState slice(String namespace, String name, String service, Boolean... readiness) {
        return new EndpointSliceState(namespace, name, service,
                Arrays.stream(readiness).map(ready -> new Endpoint(Optional.ofNullable(ready))).toList());
    }

    static PodState healthy(String namespace, String name, String uid) {
        return new PodState(namespace, name, uid, false, List.of(new ContainerState("main", Optional.empty())),
                List.of());
    }

    static PodState crashLooping(String namespace, String name, String uid) {
        return new PodState(namespace, name, uid, false,
                List.of(new ContainerState("main", Optional.of("CrashLoopBackOff"))), List.of());
    }

    static PodState initCrashLooping(String namespace, String name, String uid) {
        return new PodState(namespace, name, uid, false, List.of(new ContainerState("main", Optional.of("PodInitializing"))),
                List.of(new ContainerState("init", Optional.of("CrashLoopBackOff"))));
    }

    static PodState terminatingCrashLooping(String namespace, String name, String uid) {
        return new PodState(namespace, name, uid, true,
                List.of(new ContainerState("main", Optional.of("CrashLoopBackOff"))), List.of());
    }
}
