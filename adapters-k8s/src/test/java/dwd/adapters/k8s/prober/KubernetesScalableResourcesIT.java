package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure.Kind;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ScalableResource;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ReplicationControllerSpec;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StatefulSetSpec;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import okhttp3.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithLocalControlPlane
class KubernetesScalableResourcesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final ResourceRef ETCD = new ResourceRef("apps/v1", "StatefulSet", "etcd-main");
    private static final ResourceRef SCALABLE = new ResourceRef("test.dwd.dev/v1", "Scalable", "custom-dependent");
    private static final ResourceRef RC = new ResourceRef("v1", "ReplicationController", "legacy-dependent");

    private LocalControlPlane controlPlane;
    private ApiClient admin;
    private AppsV1Api apps;
    private KubernetesScalableResources resources;
    private String namespace;

    @BeforeEach
    void setUp(LocalControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        this.admin = controlPlane.apiClient();
        this.apps = new AppsV1Api(admin);
        this.resources = new KubernetesScalableResources(seedClients(), TestWatchReports.create());
        this.namespace = controlPlane.createNamespace("shoot--scale");
    }

    @AfterEach
    void tearDown() {
        resources.close();
    }

    private Supplier<ApiClient> seedClients() {
        return () -> controlPlane.newApiClient(Duration.ofSeconds(30));
    }

    private static final Map<String, String> POD_LABELS = Map.of("app", "dependent");

    private static V1PodTemplateSpec podTemplate() {
        return new V1PodTemplateSpec()
                .metadata(new V1ObjectMeta().labels(POD_LABELS))
                .spec(new V1PodSpec().containers(List.of(new V1Container().name("c").image("registry.invalid/c:v1"))));
    }

    private void createDeployment(String name, int replicas, Map<String, String> annotations) throws ApiException {
        apps.createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(name).annotations(annotations))
                .spec(new V1DeploymentSpec().replicas(replicas)
                        .selector(new V1LabelSelector().matchLabels(POD_LABELS))
                        .template(podTemplate())))
                .execute();
    }

    /** {@link #ETCD}: a StatefulSet of 1 replica. */
    private void createEtcdStatefulSet() throws ApiException {
        apps.createNamespacedStatefulSet(namespace, new V1StatefulSet()
                .metadata(new V1ObjectMeta().name(ETCD.name()))
                .spec(new V1StatefulSetSpec().replicas(1).serviceName("etcd")
                        .selector(new V1LabelSelector().matchLabels(POD_LABELS))
                        .template(podTemplate())))
                .execute();
    }

    /** {@link #RC}: a ReplicationController of 2 replicas. */
    private void createReplicationController() throws ApiException {
        new CoreV1Api(admin).createNamespacedReplicationController(namespace, new V1ReplicationController()
                .metadata(new V1ObjectMeta().name(RC.name()))
                .spec(new V1ReplicationControllerSpec().replicas(2).selector(POD_LABELS).template(podTemplate())))
                .execute();
    }

    /** The resource as read, its version blanked (compared with expectations that have none). */
    private ScalableResource read(ResourceRef ref) {
        return unversioned(readVersioned(ref));
    }

    private ScalableResource readVersioned(ResourceRef ref) {
        return resources.read(namespace, ref, TIMEOUT).orElseThrow();
    }

    private Optional<ScalableResource> cached(ResourceRef ref) {
        return resources.cached(namespace, ref).map(KubernetesScalableResourcesIT::unversioned);
    }

    private static ScalableResource unversioned(ScalableResource resource) {
        return new ScalableResource(resource.ref(), resource.annotations(), resource.specReplicas(),
                resource.readyReplicas(), "");
    }

    /** Scales at the version just read. */
    private void scale(ResourceRef ref, int replicas) {
        resources.scaleAt(namespace, ref, readVersioned(ref).version(), replicas, TIMEOUT);
    }

    /** Changes annotations at the version just read. */
    private void annotate(ResourceRef ref, Map<String, Optional<String>> changes) {
        resources.patchAnnotationsAt(namespace, ref, readVersioned(ref).version(), changes, TIMEOUT);
    }

    private ApiFailure failureOf(Runnable call) {
        try {
            call.run();
        } catch (ApiFailure failure) {
            return failure;
        }
        throw new AssertionError("the call succeeded");
    }

    @Test
    void aDeploymentIsReadScaledAndAnnotated() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of("dependency-watchdog.gardener.cloud/ignore-scaling", "false"));
        assertThat(read(KCM)).isEqualTo(new ScalableResource(KCM,
                Map.of("dependency-watchdog.gardener.cloud/ignore-scaling", "false"), 3, 0, ""));

        Map<String, Optional<String>> scaleDownMarks = new LinkedHashMap<>();
        scaleDownMarks.put("dependency-watchdog.gardener.cloud/replicas", Optional.of("3"));
        scaleDownMarks.put("dependency-watchdog.gardener.cloud/meltdown-protection-active", Optional.of(""));
        annotate(KCM, scaleDownMarks);
        scale(KCM, 0);

        assertThat(read(KCM)).isEqualTo(new ScalableResource(KCM, Map.of(
                "dependency-watchdog.gardener.cloud/ignore-scaling", "false",
                "dependency-watchdog.gardener.cloud/replicas", "3",
                "dependency-watchdog.gardener.cloud/meltdown-protection-active", ""), 0, 0, ""));
        assertThat(apps.readNamespacedDeployment(KCM.name(), namespace).execute().getSpec().getReplicas()).isZero();

        scale(KCM, 3);
        assertThat(read(KCM).specReplicas()).isEqualTo(3);
    }

    @Test
    void readyReplicasComeFromTheObjectsStatus() throws ApiException {
        createDeployment(KCM.name(), 2, Map.of());
        PatchUtils.patch(Object.class,
                () -> apps.patchNamespacedDeploymentStatus(KCM.name(), namespace,
                        new V1Patch("{\"status\":{\"replicas\":2,\"readyReplicas\":1}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
        assertThat(read(KCM).readyReplicas()).isEqualTo(1);
    }

    @Test
    void aStatefulSetIsReadScaledAndAnnotated() throws ApiException {
        createEtcdStatefulSet();
        assertThat(read(ETCD)).isEqualTo(new ScalableResource(ETCD, Map.of(), 1, 0, ""));

        scale(ETCD, 0);
        annotate(ETCD, Map.of("a", Optional.of("b")));
        assertThat(read(ETCD)).isEqualTo(new ScalableResource(ETCD, Map.of("a", "b"), 0, 0, ""));
    }

    /** {@link #SCALABLE}: a custom resource of 2 replicas. */
    private void createScalable(Map<String, String> annotations) throws ApiException {
        installScalableCrd(admin);
        new CustomObjectsApi(admin).createNamespacedCustomObject("test.dwd.dev", "v1", namespace, "scalables", Map.of(
                "apiVersion", "test.dwd.dev/v1", "kind", "Scalable",
                "metadata", Map.of("name", SCALABLE.name(), "annotations", annotations),
                "spec", Map.of("replicas", 2))).execute();
    }

    @Test
    void aCustomResourceWithAScaleSubresourceIsFoundThroughDiscovery() throws ApiException {
        createScalable(Map.of("x", "y"));
        var custom = new CustomObjectsApi(admin);
        PatchUtils.patch(Object.class,
                () -> custom.patchNamespacedCustomObjectStatus("test.dwd.dev", "v1", namespace, "scalables",
                        SCALABLE.name(), new V1Patch("{\"status\":{\"replicas\":2,\"readyReplicas\":2}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);

        assertThat(read(SCALABLE)).isEqualTo(new ScalableResource(SCALABLE, Map.of("x", "y"), 2, 2, ""));
        // spec.replicas of a Scale is omitted at 0: it reads as 0, not as missing
        scale(SCALABLE, 0);
        annotate(SCALABLE, Map.of("x", Optional.empty()));
        assertThat(read(SCALABLE)).isEqualTo(new ScalableResource(SCALABLE, Map.of(), 0, 2, ""));
    }

    @Test
    void aReplicationControllerOfTheCoreGroupIsScaled() throws ApiException {
        createReplicationController();
        assertThat(read(RC).specReplicas()).isEqualTo(2);
        scale(RC, 1);
        annotate(RC, Map.of("k", Optional.of("v")));
        assertThat(read(RC)).isEqualTo(new ScalableResource(RC, Map.of("k", "v"), 1, 0, ""));
    }

    @Test
    void theCacheFollowsDeploymentsAndStatefulSetsOfTheDependentsNamesAndKeepsOnlyDwdsAnnotations() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of("dependency-watchdog.gardener.cloud/replicas", "3",
                "kubectl.kubernetes.io/last-applied-configuration", "{\"a large\":\"document\"}"));
        createDeployment("not-a-dependent", 2, Map.of());
        await("the cache syncs and holds KCM").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM).isPresent());
        assertThat(cached(KCM)).contains(
                new ScalableResource(KCM, Map.of("dependency-watchdog.gardener.cloud/replicas", "3"), 3, 0, ""));
        ResourceRef later = new ResourceRef("apps/v1", "Deployment", "not-a-dependent");
        await("a name asked for later gets a watch of its own").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, later).isPresent());
        assertThat(cached(later)).contains(new ScalableResource(later, Map.of(), 2, 0, ""));

        scale(KCM, 0);
        await("the cache sees the scale").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM).orElseThrow().specReplicas() == 0);
        apps.deleteNamespacedDeployment(KCM.name(), namespace).execute();
        await("the cache sees the deletion").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, KCM).isEmpty());

        createEtcdStatefulSet();
        await("StatefulSets are cached too").atMost(Duration.ofSeconds(30))
                .until(() -> resources.cached(namespace, ETCD).isPresent());
        assertThat(cached(ETCD)).contains(new ScalableResource(ETCD, Map.of(), 1, 0, ""));
    }

    @Test
    void theDependentsFirstListsAreAwaitedBeforeTheCacheIsAsked() throws Exception {
        createDeployment(KCM.name(), 3, Map.of());

        assertThat(resources.awaitDependentCaches(List.of(KCM, RC))).as("KCM's watch listed; RC is never cached").isTrue();
        assertThat(cached(KCM)).as("at once").contains(new ScalableResource(KCM, Map.of(), 3, 0, ""));
    }

    @Test
    void otherKindsAreNeverCached() throws ApiException {
        createReplicationController();
        assertThat(read(RC).specReplicas()).isEqualTo(2);
        assertThat(resources.cached(namespace, RC)).isEmpty();
        assertThat(resources.cached(namespace, SCALABLE)).isEmpty();
    }

    @Test
    void aMissingResourceReadsAsEmptyAndCannotBeWritten() {
        assertThat(resources.read(namespace, KCM, TIMEOUT)).isEmpty();
        assertThat(resources.read("no-such-namespace", KCM, TIMEOUT)).isEmpty();
        assertThat(failureOf(() -> resources.scaleAt(namespace, KCM, "1", 1, TIMEOUT)).kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(failureOf(() -> resources.patchAnnotationsAt(namespace, KCM, "1", Map.of("a", Optional.of("b")), TIMEOUT))
                .kind()).isEqualTo(Kind.NOT_FOUND);
    }

    @Test
    void anUnknownKindIsInvalidAndNamed() {
        ApiFailure failure = failureOf(() -> resources.read(namespace,
                new ResourceRef("apps/v1", "Depoyment", "kube-controller-manager"), TIMEOUT));
        assertThat(failure.kind()).isEqualTo(Kind.INVALID);
        assertThat(failure.getMessage()).contains("no kind \"Depoyment\" in apps/v1");

        ApiFailure unknownGroup = failureOf(() -> resources.scaleAt(namespace,
                new ResourceRef("nothere.dwd.dev/v1", "Thing", "t"), "1", 0, TIMEOUT));
        assertThat(unknownGroup.kind()).isEqualTo(Kind.INVALID);
        assertThat(unknownGroup.getMessage())
                .contains("no kind \"Thing\" in nothere.dwd.dev/v1: the server does not serve nothere.dwd.dev/v1");
    }

    @Test
    void kindsWithoutScaleSubresourceOrNamespaceAreInvalid() {
        assertThat(failureOf(() -> resources.read(namespace,
                new ResourceRef("machine.sapcloud.io/v1alpha1", "Machine", "m"), TIMEOUT)).getMessage())
                .contains("Machine in machine.sapcloud.io/v1alpha1 has no scale subresource");
        assertThat(failureOf(() -> resources.read(namespace, new ResourceRef("v1", "ConfigMap", "c"), TIMEOUT)).getMessage())
                .contains("ConfigMap in v1 has no scale subresource");
        ApiFailure clusterScoped = failureOf(() -> resources.read(namespace,
                new ResourceRef("extensions.gardener.cloud/v1alpha1", "Cluster", "c"), TIMEOUT));
        assertThat(clusterScoped.kind()).isEqualTo(Kind.INVALID);
        assertThat(clusterScoped.getMessage()).contains("is cluster-scoped");
    }

    private static final String REPLICAS = "dependency-watchdog.gardener.cloud/replicas";
    private static final String MELTDOWN = "dependency-watchdog.gardener.cloud/meltdown-protection-active";

    /** What a scale-down records before it scales to 0. */
    private static Map<String, Optional<String>> record(int replicas) {
        Map<String, Optional<String>> record = new LinkedHashMap<>();
        record.put(REPLICAS, Optional.of(Integer.toString(replicas)));
        record.put(MELTDOWN, Optional.of(""));
        return record;
    }

    @Test
    void everyKindsScaleSubresourceSharesItsObjectsVersion() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of());
        createEtcdStatefulSet();
        createReplicationController();
        createScalable(Map.of());
        for (ResourceRef ref : List.of(KCM, ETCD, RC, SCALABLE)) {
            ScalableResource seen = readVersioned(ref);
            String recorded = resources.patchAnnotationsAt(namespace, ref, seen.version(), record(seen.specReplicas()), TIMEOUT);
            assertThat(recorded).as("%s: the patch answers the object's new version", ref).isNotEqualTo(seen.version());

            ApiFailure staleScale = failureOf(() -> resources.scaleAt(namespace, ref, seen.version(), 0, TIMEOUT));
            assertThat(staleScale.kind()).as("%s: an annotation change makes a scale at the older version conflict", ref)
                    .isEqualTo(Kind.CONFLICT);
            ApiFailure stalePatch = failureOf(() -> resources.patchAnnotationsAt(namespace, ref, seen.version(),
                    Map.of("late", Optional.of("1")), TIMEOUT));
            assertThat(stalePatch.kind()).isEqualTo(Kind.CONFLICT);

            String scaled = resources.scaleAt(namespace, ref, recorded, 0, TIMEOUT);
            assertThat(scaled).as("%s: the scale answers the object's new version", ref)
                    .isNotEqualTo(recorded).isEqualTo(readVersioned(ref).version());
            ScalableResource after = read(ref);
            assertThat(after.specReplicas()).as("%s scaled at the version its record answered", ref).isZero();
            assertThat(after.annotations()).as("%s", ref).containsEntry(REPLICAS, Integer.toString(seen.specReplicas()))
                    .doesNotContainKey("late");
        }
    }

    @Test
    void aChangeBetweenTheDecisionAndAWriteAtItsVersionIsAConflictAndChangesNothing() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of());
        ScalableResource decidedOn = readVersioned(KCM);
        setReplicasConcurrently(KCM.name(), 5);
        ApiFailure record = failureOf(() -> resources.patchAnnotationsAt(namespace, KCM, decidedOn.version(), record(3), TIMEOUT));
        assertThat(record.kind()).isEqualTo(Kind.CONFLICT);
        assertThat(record.getMessage()).contains("patching annotations", "409");
        assertThat(read(KCM)).isEqualTo(new ScalableResource(KCM, Map.of(), 5, 0, ""));

        ScalableResource now = readVersioned(KCM);
        String recorded = resources.patchAnnotationsAt(namespace, KCM, now.version(), record(5), TIMEOUT);
        setReplicasConcurrently(KCM.name(), 7); // between the record and the scale to 0
        assertThat(failureOf(() -> resources.scaleAt(namespace, KCM, recorded, 0, TIMEOUT)).kind()).isEqualTo(Kind.CONFLICT);
        assertThat(read(KCM).specReplicas()).as("the 7 replicas the record does not hold are not replaced").isEqualTo(7);
    }

    @Test
    void aScaleDownDecidedOnTheCacheSendsItsTwoWritesOnlyAndAReadIsOneRequest() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of());
        List<String> requests = new CopyOnWriteArrayList<>();
        String path = "/apis/apps/v1/namespaces/" + namespace + "/deployments/" + KCM.name();
        try (var recording = new KubernetesScalableResources(seedClientsRecording(requests),
                TestWatchReports.create())) {
            await("the cache holds KCM").atMost(Duration.ofSeconds(30))
                    .until(() -> recording.cached(namespace, KCM).isPresent());
            ScalableResource cached = recording.cached(namespace, KCM).orElseThrow();
            assertThat(cached.version()).as("the cached copy's version is the object's")
                    .isEqualTo(readVersioned(KCM).version());

            String recorded = recording.patchAnnotationsAt(namespace, KCM, cached.version(), record(cached.specReplicas()),
                    TIMEOUT);
            recording.scaleAt(namespace, KCM, recorded, 0, TIMEOUT);
            assertThat(requests).filteredOn(request -> request.contains(path))
                    .containsExactly("PATCH " + path, "PUT " + path + "/scale");

            requests.clear();
            assertThat(recording.read(namespace, KCM, TIMEOUT).orElseThrow().specReplicas()).isZero();
            assertThat(requests).as("a Deployment's replicas are in its spec: no read of the scale subresource")
                    .filteredOn(request -> request.contains(path)).containsExactly("GET " + path);
        }
        assertThat(read(KCM).annotations()).containsOnly(Map.entry(REPLICAS, "3"), Map.entry(MELTDOWN, ""));
    }

    @Test
    void deploymentsAndStatefulSetsScaleAndRecordInOneWriteAtTheirVersion() throws ApiException {
        createDeployment(KCM.name(), 3, Map.of());
        createEtcdStatefulSet();
        List<String> requests = new CopyOnWriteArrayList<>();
        try (var recording = new KubernetesScalableResources(seedClientsRecording(requests),
                TestWatchReports.create())) {
            for (ResourceRef ref : List.of(KCM, ETCD)) {
                ScalableResource seen = readVersioned(ref);
                requests.clear();
                assertThat(recording.scalesInOneWrite(ref)).as("%s", ref).isTrue();
                recording.scaleAndAnnotateAt(namespace, ref, seen.version(), 0, record(seen.specReplicas()), TIMEOUT);
                assertThat(requests).as("%s: one request", ref).hasSize(1).allMatch(request -> request.startsWith("PATCH "));
                ScalableResource after = read(ref);
                assertThat(after.specReplicas()).as("%s", ref).isZero();
                assertThat(after.annotations()).as("%s", ref)
                        .containsOnly(Map.entry(REPLICAS, Integer.toString(seen.specReplicas())), Map.entry(MELTDOWN, ""));

                ApiFailure stale = failureOf(() -> recording.scaleAndAnnotateAt(namespace, ref, seen.version(), 5,
                        Map.of(REPLICAS, Optional.empty()), TIMEOUT));
                assertThat(stale.kind()).as("%s: a write at an older version", ref).isEqualTo(Kind.CONFLICT);
                assertThat(read(ref)).as("%s: the conflict changed nothing", ref).isEqualTo(after);

                Map<String, Optional<String>> removal = new LinkedHashMap<>();
                removal.put(REPLICAS, Optional.empty());
                removal.put(MELTDOWN, Optional.empty());
                recording.scaleAndAnnotateAt(namespace, ref, readVersioned(ref).version(), seen.specReplicas(), removal,
                        TIMEOUT);
                assertThat(read(ref).specReplicas()).as("%s scaled back up", ref).isEqualTo(seen.specReplicas());
                assertThat(read(ref).annotations()).as("%s: the record removed with the scale-up", ref).isEmpty();
            }
        }
    }

    @Test
    void otherKindsScaleInTwoWritesAndRefuseTheOneWriteWithoutSendingIt() throws ApiException {
        createReplicationController();
        createScalable(Map.of());
        List<String> requests = new CopyOnWriteArrayList<>();
        try (var recording = new KubernetesScalableResources(seedClientsRecording(requests),
                TestWatchReports.create())) {
            for (ResourceRef ref : List.of(RC, SCALABLE)) {
                assertThat(recording.scalesInOneWrite(ref)).as("%s", ref).isFalse();
                ScalableResource seen = readVersioned(ref);
                requests.clear();
                assertThatIllegalArgumentException().as("%s", ref).isThrownBy(() -> recording.scaleAndAnnotateAt(namespace,
                        ref, seen.version(), 0, record(seen.specReplicas()), TIMEOUT));
                assertThat(requests).as("%s: nothing sent", ref).isEmpty();
                assertThat(readVersioned(ref)).as("%s unchanged", ref).isEqualTo(seen);
            }
        }
    }

    /** Seed clients that record each request's method and path. */
    private Supplier<ApiClient> seedClientsRecording(List<String> requests) {
        return () -> {
            ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(30));
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
                Request request = chain.request();
                requests.add(request.method() + " " + request.url().encodedPath());
                return chain.proceed(request);
            }).build());
            return client;
        };
    }

    /** Another writer (an operator, an HPA) sets the replicas. */
    private void setReplicasConcurrently(String name, int replicas) throws ApiException {
        PatchUtils.patch(Object.class,
                () -> apps.patchNamespacedDeployment(name, namespace,
                        new V1Patch("{\"spec\":{\"replicas\":" + replicas + "}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, admin);
    }
    @Test
    void annotationsAreRemovedWithNullAndNothingElseIsTouched() throws ApiException {
        var owner = new CoreV1Api(admin).createNamespacedConfigMap(namespace,
                new V1ConfigMap().metadata(new V1ObjectMeta().name("owner"))).execute();
        V1OwnerReference ownerReference = new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("owner")
                .uid(owner.getMetadata().getUid());
        apps.createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(KCM.name())
                        .labels(Map.of("role", "controller-manager"))
                        .annotations(Map.of("keep", "1", "dependency-watchdog.gardener.cloud/meltdown-protection-active", ""))
                        .finalizers(List.of("dwd.test/keep"))
                        .ownerReferences(List.of(ownerReference)))
                .spec(new V1DeploymentSpec().replicas(1)
                        .selector(new V1LabelSelector().matchLabels(POD_LABELS))
                        .template(podTemplate())))
                .execute();

        Map<String, Optional<String>> changes = new HashMap<>();
        changes.put("dependency-watchdog.gardener.cloud/meltdown-protection-active", Optional.empty());
        changes.put("dependency-watchdog.gardener.cloud/replicas", Optional.empty()); // absent: removing is a no-op
        changes.put("added", Optional.of("yes"));
        annotate(KCM, changes);

        V1ObjectMeta after = apps.readNamespacedDeployment(KCM.name(), namespace).execute().getMetadata();
        assertThat(after.getAnnotations()).containsOnly(Map.entry("keep", "1"), Map.entry("added", "yes"));
        assertThat(after.getLabels()).isEqualTo(Map.of("role", "controller-manager"));
        assertThat(after.getFinalizers()).containsExactly("dwd.test/keep");
        assertThat(after.getOwnerReferences()).singleElement()
                .satisfies(reference -> assertThat(reference.getUid()).isEqualTo(ownerReference.getUid()));
        assertThat(apps.readNamespacedDeployment(KCM.name(), namespace).execute().getSpec().getReplicas()).isEqualTo(1);
    }

    @Test
    void theMergePatchCarriesNullsForRemovals() {
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        changes.put("a", Optional.of("1"));
        changes.put("b", Optional.empty());
        assertThat(JsonParser.parseString(KubernetesScalableResources.annotationsMergePatch(changes, "42")))
                .isEqualTo(JsonParser.parseString(
                        "{\"metadata\":{\"resourceVersion\":\"42\",\"annotations\":{\"a\":\"1\",\"b\":null}}}"));
    }

    @Test
    void everyCallIsBoundedByItsTimeout() throws IOException {
        try (var silent = LoopbackServer.silent()) {
            Supplier<ApiClient> unresponsiveSeed = () -> new ApiClient().setBasePath(silent.url());
            try (var stuck = new KubernetesScalableResources(unresponsiveSeed, TestWatchReports.create())) {
                Duration bound = Duration.ofMillis(700);
                for (Runnable call : List.<Runnable>of(
                        () -> stuck.read(namespace, KCM, bound),
                        () -> stuck.scaleAt(namespace, KCM, "1", 1, bound),
                        () -> stuck.patchAnnotationsAt(namespace, KCM, "1", Map.of("a", Optional.of("b")), bound),
                        () -> stuck.read(namespace, SCALABLE, bound))) { // discovery is bounded too
                    long started = System.nanoTime();
                    assertThat(failureOf(call).kind()).isEqualTo(Kind.TIMEOUT);
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(bound.plusSeconds(2));
                }
            }
        }
    }

    /** A namespaced CRD with a scale subresource; created once per server. */
    private static void installScalableCrd(ApiClient admin) {
        var crds = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", admin);
        String name = "scalables.test.dwd.dev";
        if (!crds.get(name).isSuccess()) {
            var created = crds.create(new DynamicKubernetesObject(JsonParser.parseString("""
                    {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                     "metadata": {"name": "scalables.test.dwd.dev"},
                     "spec": {"group": "test.dwd.dev", "scope": "Namespaced",
                       "names": {"kind": "Scalable", "listKind": "ScalableList", "plural": "scalables", "singular": "scalable"},
                       "versions": [{"name": "v1", "served": true, "storage": true,
                         "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                                  "statusReplicasPath": ".status.replicas"}},
                         "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                           "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                           "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}}
                    """).getAsJsonObject()));
            assertThat(created.isSuccess() || created.getHttpStatusCode() == 409).as("CRD created").isTrue();
        }
        var custom = new CustomObjectsApi(admin);
        await("scalables served").atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            custom.listClusterCustomObject("test.dwd.dev", "v1", "scalables").execute();
            return true;
        });
    }
}
