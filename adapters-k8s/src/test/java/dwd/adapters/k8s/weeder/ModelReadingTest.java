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
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading pods (plain JSON) and slices: odd, missing or unknown fields become empty values, never exceptions. */
class ModelReadingTest {

    @Test
    void aCrashLoopingPodIsReadWithItsUidAndContainerStates() {
        var state = PodStates.of(json("""
                {"metadata": {"namespace": "ns", "name": "kube-apiserver-0", "uid": "uid-1"},
                 "status": {"containerStatuses": [{"name": "main", "state": {"waiting": {"reason": "CrashLoopBackOff"}}}],
                            "initContainerStatuses": [{"name": "init", "state": {}}]}}
                """));

        assertThat(state.namespace()).isEqualTo("ns");
        assertThat(state.uid()).isEqualTo("uid-1");
        assertThat(state.beingDeleted()).isFalse();
        assertThat(state.containers()).containsExactly(new ContainerState("main", Optional.of("CrashLoopBackOff")));
        assertThat(state.initContainers()).containsExactly(new ContainerState("init", Optional.empty()));
        assertThat(CrashLoop.isCrashLooping(state)).isTrue();
    }

    @Test
    void fieldsThatNoModelKnowsAreIgnored() {
        // A server newer than client-java: its strict V1Pod model would reject the whole list.
        var state = PodStates.of(json("""
                {"metadata": {"name": "kube-apiserver-0", "uid": "uid-1", "someNewField": 1},
                 "spec": {"newSpecField": {"a": [1, 2]}},
                 "status": {"newStatusField": "x",
                            "containerStatuses": [{"name": "main", "newContainerField": true,
                                                   "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}
                """));

        assertThat(CrashLoop.isCrashLooping(state)).isTrue();
    }

    @Test
    void thePodsControllerIsTheOwnerMarkedControllerAndABarePodHasNone() {
        var owned = json("""
                {"metadata": {"name": "kube-apiserver-abc", "ownerReferences": [
                    {"apiVersion": "v1", "kind": "ConfigMap", "name": "not-a-controller", "uid": "u1"},
                    {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "kube-apiserver-7d", "uid": "u2", "controller": true}]}}
                """);
        var withoutController = json("""
                {"metadata": {"name": "p", "ownerReferences": [
                    {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u1", "controller": false},
                    {"apiVersion": "v1", "kind": "ConfigMap", "name": "d", "uid": "u2", "controller": "true"},
                    {"kind": "ReplicaSet", "name": "incomplete", "uid": "u3", "controller": true}]}}
                """);

        assertThat(PodStates.of(owned).controller()).contains(new PodOwner("apps/v1", "ReplicaSet", "kube-apiserver-7d"));
        assertThat(PodStates.of(withoutController).controller()).isEmpty();
        assertThat(PodStates.of(json("{\"metadata\": {\"name\": \"bare\"}}")).controller()).isEmpty();
    }

    @Test
    void aPodBeingDeletedIsMarkedSo() {
        var pod = json("""
                {"metadata": {"name": "p", "uid": "u", "deletionTimestamp": "2026-11-24T20:00:00Z"},
                 "status": {"containerStatuses": [{"name": "main", "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}
                """);

        assertThat(PodStates.of(pod).beingDeleted()).isTrue();
        assertThat(CrashLoop.isCrashLooping(PodStates.of(pod))).isFalse();
    }

    @Test
    void aPodWithoutMetadataOrStatusOrWithMistypedFieldsIsReadAsEmpty() {
        var mistyped = json("""
                {"metadata": "not an object",
                 "status": {"containerStatuses": [null, 7, {"name": "c", "state": {"waiting": "soon"}}],
                            "initContainerStatuses": {"name": "not a list"}}}
                """);

        assertThat(PodStates.of(json("{}")).name()).isEmpty();
        assertThat(PodStates.of(json("{}")).containers()).isEmpty();
        assertThat(PodStates.of(json("{\"metadata\": null, \"status\": null}")).uid()).isEmpty();
        assertThat(PodStates.of(mistyped).name()).isEmpty();
        assertThat(PodStates.of(mistyped).containers()).containsExactly(new ContainerState("c", Optional.empty()));
        assertThat(PodStates.of(mistyped).initContainers()).isEmpty();
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
    void theSliceWatchAsksTheServerForTheConfiguredServicesOnly() {
        assertThat(EndpointSliceWatch.labelSelector(List.of("kube-apiserver", "etcd-main-client")))
                .isEqualTo("kubernetes.io/service-name in (etcd-main-client,kube-apiserver)");
        assertThat(EndpointSliceWatch.labelSelector(List.of("etcd-main-client", "not a label value")))
                .isEqualTo("kubernetes.io/service-name in (etcd-main-client)");
        assertThatThrownBy(() -> EndpointSliceWatch.labelSelector(List.of("no/way")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
