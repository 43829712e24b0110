package dwd.adapters.k8s.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.domain.weeding.ContainerState;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.Endpoint;
import dwd.domain.weeding.PodOwner;
import dwd.domain.weeding.ServiceReadiness;
import io.kubernetes.client.openapi.models.V1ContainerState;
import io.kubernetes.client.openapi.models.V1ContainerStateWaiting;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading pods and slices: odd or missing fields become empty values, never exceptions. */
class ModelReadingTest {

    @Test
    void aCrashLoopingPodIsReadWithItsUidAndContainerStates() {
        var pod = new V1Pod()
                .metadata(new V1ObjectMeta().namespace("ns").name("kube-apiserver-0").uid("uid-1"))
                .status(new V1PodStatus()
                        .containerStatuses(List.of(status("main", "CrashLoopBackOff")))
                        .initContainerStatuses(List.of(status("init", null))));

        var state = PodStates.of(pod);

        assertThat(state.namespace()).isEqualTo("ns");
        assertThat(state.uid()).isEqualTo("uid-1");
        assertThat(state.beingDeleted()).isFalse();
        assertThat(state.containers()).containsExactly(new ContainerState("main", Optional.of("CrashLoopBackOff")));
        assertThat(state.initContainers()).containsExactly(new ContainerState("init", Optional.empty()));
        assertThat(CrashLoop.isCrashLooping(state)).isTrue();
    }

    @Test
    void thePodsControllerIsTheOwnerMarkedControllerAndABarePodHasNone() {
        var owned = new V1Pod().metadata(new V1ObjectMeta().name("kube-apiserver-abc").ownerReferences(List.of(
                new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("not-a-controller").uid("u1"),
                new V1OwnerReference().apiVersion("apps/v1").kind("ReplicaSet").name("kube-apiserver-7d").uid("u2")
                        .controller(true))));
        var withoutController = new V1Pod().metadata(new V1ObjectMeta().name("p").ownerReferences(List.of(
                new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("c").uid("u1").controller(false))));

        assertThat(PodStates.of(owned).controller()).contains(new PodOwner("apps/v1", "ReplicaSet", "kube-apiserver-7d"));
        assertThat(PodStates.of(withoutController).controller()).isEmpty();
        assertThat(PodStates.of(new V1Pod().metadata(new V1ObjectMeta().name("bare"))).controller()).isEmpty();
    }

    @Test
    void aPodBeingDeletedIsMarkedSo() {
        var pod = new V1Pod().metadata(new V1ObjectMeta().name("p").uid("u").deletionTimestamp(OffsetDateTime.now()))
                .status(new V1PodStatus().containerStatuses(List.of(status("main", "CrashLoopBackOff"))));

        assertThat(CrashLoop.isCrashLooping(PodStates.of(pod))).isFalse();
    }

    @Test
    void aPodWithoutMetadataOrStatusIsReadAsEmpty() {
        var pod = new V1Pod();
        pod.setMetadata(null);
        var withNullStatuses = new V1Pod().metadata(new V1ObjectMeta().name("p"))
                .status(new V1PodStatus().containerStatuses(Arrays.asList(null, new V1ContainerStatus().name("c"))));

        assertThat(PodStates.of(pod).name()).isEmpty();
        assertThat(PodStates.of(pod).containers()).isEmpty();
        assertThat(PodStates.of(withNullStatuses).containers()).containsExactly(new ContainerState("c", Optional.empty()));
    }

    @Test
    void aSliceIsReadWithItsServiceAndTheReadinessOfEachEndpoint() {
        var slice = json("""
                {"metadata": {"namespace": "ns", "name": "etcd-main-client-x1",
                              "labels": {"kubernetes.io/service-name": "etcd-main-client"}},
                 "addressType": "IPv4",
                 "endpoints": [{"conditions": {"ready": false}}, {"conditions": {}}, {}, {"conditions": {"ready": "yes"}}],
                 "aFieldOfANewerServer": 1}""");

        var state = EndpointSliceStates.of(slice);

        assertThat(state.namespace()).isEqualTo("ns");
        assertThat(state.name()).isEqualTo("etcd-main-client-x1");
        assertThat(state.serviceName()).isEqualTo("etcd-main-client");
        assertThat(state.endpoints()).containsExactly(new Endpoint(Optional.of(false)), new Endpoint(Optional.empty()),
                new Endpoint(Optional.empty()), new Endpoint(Optional.empty()));
        assertThat(ServiceReadiness.isReady(List.of(state))).as("unset ready counts as ready").isTrue();
    }

    @Test
    void aSliceWithoutLabelsOrEndpointsIsReadAsEmpty() {
        assertThat(EndpointSliceStates.of(json("{\"metadata\": {\"name\": \"odd\"}, \"endpoints\": null}")).serviceName())
                .isEmpty();
        assertThat(EndpointSliceStates.of(json("{\"metadata\": {\"name\": \"odd\"}}")).endpoints()).isEmpty();
        assertThat(EndpointSliceStates.of(json("{}")).name()).isEmpty();
        assertThat(EndpointSliceStates.of(json("{\"metadata\": []}")).name()).isEmpty();
    }

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    @Test
    void theInformerAsksTheServerForTheConfiguredServicesOnly() {
        assertThat(EndpointSliceInformer.labelSelector(List.of("kube-apiserver", "etcd-main-client")))
                .isEqualTo("kubernetes.io/service-name in (etcd-main-client,kube-apiserver)");
        assertThat(EndpointSliceInformer.labelSelector(List.of("etcd-main-client", "not a label value")))
                .isEqualTo("kubernetes.io/service-name in (etcd-main-client)");
        assertThatThrownBy(() -> EndpointSliceInformer.labelSelector(List.of("no/way")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static V1ContainerStatus status(String name, String waitingReason) {
        var state = new V1ContainerState();
        if (waitingReason != null) {
            state.waiting(new V1ContainerStateWaiting().reason(waitingReason));
        }
        return new V1ContainerStatus().name(name).state(state);
    }
}
