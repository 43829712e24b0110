package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure.Kind;
import dwd.application.port.out.ApiFailure;
import dwd.domain.config.ResourceRef;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Server-side dry run of the prober's writes on a real API server: checked like real writes, persisted nowhere. */
@WithLocalControlPlane
class KubernetesScalableResourcesDryRunIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final String MELTDOWN = "dependency-watchdog.gardener.cloud/meltdown-protection-active";
    private static final Map<String, Optional<String>> MELTDOWN_MARKS = Map.of(
            "dependency-watchdog.gardener.cloud/replicas", Optional.of("3"), MELTDOWN, Optional.of(""));

    private LocalControlPlane controlPlane;
    private AppsV1Api apps;
    private String namespace;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(LocalControlPlane controlPlane) throws ApiException {
        this.controlPlane = controlPlane;
        this.apps = new AppsV1Api(controlPlane.apiClient());
        this.namespace = controlPlane.createNamespace("shoot--dry-run");
        var labels = Map.of("app", "kcm");
        apps.createNamespacedDeployment(namespace, new V1Deployment()
                .metadata(new V1ObjectMeta().name(KCM.name()))
                .spec(new V1DeploymentSpec().replicas(3).selector(new V1LabelSelector().matchLabels(labels))
                        .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
                                .spec(new V1PodSpec().containers(List.of(new V1Container().name("c").image("x")))))))
                .execute();
    }

    /** Seed clients that record each request's method and path with query, acting as {@code user} if given. */
    private Supplier<ApiClient> seedClients(String user) {
        return () -> {
            ApiClient client = controlPlane.newApiClient(Duration.ofSeconds(30));
            client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
                var request = chain.request();
                requests.add(request.method() + " " + request.url().encodedPath()
                        + (request.url().encodedQuery() == null ? "" : "?" + request.url().encodedQuery()));
                return chain.proceed(user == null ? request : request.newBuilder().header("Impersonate-User", user).build());
            }).build());
            return client;
        };
    }

    private V1Deployment deployment() throws ApiException {
        return apps.readNamespacedDeployment(KCM.name(), namespace).execute();
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
    void everyWriteIsSentWithDryRunAllAndNothingIsPersisted() throws ApiException {
        String before = deployment().getMetadata().getResourceVersion();
        try (var resources = KubernetesScalableResources.serverDryRun(seedClients(null), TestWatchReports.create())) {
            assertThat(resources.dryRunWrites()).isTrue();
            String recorded = resources.patchAnnotationsAt(namespace, KCM, before, MELTDOWN_MARKS, TIMEOUT);
            assertThat(recorded).as("a dry run answers the version unchanged").isEqualTo(before);
            String scaled = resources.scaleAt(namespace, KCM, recorded, 0, TIMEOUT); // lands, as the real one would
            assertThat(scaled).as("so does a scale's").isEqualTo(before);
            resources.patchAnnotationsAt(namespace, KCM, scaled, Map.of(MELTDOWN, Optional.empty()), TIMEOUT);
            resources.scaleAndAnnotateAt(namespace, KCM, before, 0, MELTDOWN_MARKS, TIMEOUT);
            assertThat(resources.read(namespace, KCM, TIMEOUT).orElseThrow().specReplicas()).isEqualTo(3);
            ApiFailure stale = failureOf(() -> resources.scaleAt(namespace, KCM, "1", 0, TIMEOUT));
            assertThat(stale.kind()).as("a dry run checks the version as a real write does").isEqualTo(Kind.CONFLICT);
        }
        V1Deployment after = deployment();
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(before);
        assertThat(after.getSpec().getReplicas()).isEqualTo(3);
        assertThat(after.getMetadata().getAnnotations()).isNullOrEmpty();
        String path = "/apis/apps/v1/namespaces/" + namespace + "/deployments/" + KCM.name();
        assertThat(requests).filteredOn(request -> !request.startsWith("GET")).containsExactly(
                "PATCH " + path + "?dryRun=All", "PUT " + path + "/scale?dryRun=All", "PATCH " + path + "?dryRun=All",
                "PATCH " + path + "?dryRun=All", "PUT " + path + "/scale?dryRun=All");
        try (var real = new KubernetesScalableResources(seedClients(null), TestWatchReports.create())) {
            assertThat(real.dryRunWrites()).isFalse();
        }
    }

    @Test
    void theServerRefusesADryRunAsItWouldRefuseTheRealWrite() throws ApiException {
        grantEverythingButScaling("dwd-shadow-limited");
        try (var limited = KubernetesScalableResources.serverDryRun(seedClients("dwd-shadow-limited"), TestWatchReports.create())) {
            String version = deployment().getMetadata().getResourceVersion();
            limited.patchAnnotationsAt(namespace, KCM, version, MELTDOWN_MARKS, TIMEOUT); // allowed
            ApiFailure forbidden = failureOf(() -> limited.scaleAt(namespace, KCM, version, 0, TIMEOUT));
            assertThat(forbidden.kind()).isEqualTo(Kind.FORBIDDEN);
            assertThat(forbidden.getMessage()).contains("scaling " + KCM + " in namespace " + namespace + " to 0: 403",
                    "403", "\"dwd-shadow-limited\" cannot update resource \"deployments/scale\"");

            ApiFailure missing = failureOf(() -> limited.patchAnnotationsAt(namespace,
                    new ResourceRef("apps/v1", "Deployment", "not-there"), version, MELTDOWN_MARKS, TIMEOUT));
            assertThat(missing.kind()).isEqualTo(Kind.NOT_FOUND);
        }
        try (var admin = KubernetesScalableResources.serverDryRun(seedClients(null), TestWatchReports.create())) {
            String version = deployment().getMetadata().getResourceVersion();
            assertThat(failureOf(() -> admin.scaleAt(namespace, KCM, version, -1, TIMEOUT)).kind()).isEqualTo(Kind.INVALID);
        }
        assertThat(deployment().getSpec().getReplicas()).isEqualTo(3);
        assertThat(deployment().getMetadata().getAnnotations()).isNullOrEmpty();
    }

    /** Reading and patching Deployments, reading their scale subresource, but not updating it. */
    private void grantEverythingButScaling(String user) throws ApiException {
        var rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
        rbac.createNamespacedRole(namespace, new V1Role().metadata(new V1ObjectMeta().name("no-scaling")).rules(List.of(
                new V1PolicyRule().apiGroups(List.of("apps")).resources(List.of("deployments"))
                        .verbs(List.of("get", "list", "watch", "patch")),
                new V1PolicyRule().apiGroups(List.of("apps")).resources(List.of("deployments/scale"))
                        .verbs(List.of("get"))))).execute();
        rbac.createNamespacedRoleBinding(namespace, new V1RoleBinding().metadata(new V1ObjectMeta().name("no-scaling"))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("no-scaling"))
                .subjects(List.of(new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io").name(user))))
                .execute();
    }
}
