package dwd.bootstrap.bench;

import dwd.adapters.k8s.testing.LocalControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RoleRef;
import java.util.List;

/**
 * How both dependency-watchdogs reach the benchmark's seed: as gardenlet runs them, with a bearer token (a service
 * account's, in a seed), not the local control plane's client certificate. A client certificate would have
 * client-java register every security provider on the module path for its key, which no seed's dwd does.
 */
public final class SeedUser {

    /** The user the seed authenticates by a static token ({@link LocalControlPlane#start(List, List)}). */
    public static final String NAME = "dependency-watchdog";

    private SeedUser() {
    }

    /** The users to start the seed with. */
    public static List<String> users() {
        return List.of(NAME);
    }

    /** Binds {@link #NAME} to cluster-admin and returns its kubeconfig (this server, its CA, the token). */
    public static String kubeconfig(LocalControlPlane seed) throws ApiException {
        new RbacAuthorizationV1Api(seed.apiClient()).createClusterRoleBinding(new V1ClusterRoleBinding()
                .metadata(new V1ObjectMeta().name("bench-" + NAME))
                .roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name("cluster-admin"))
                .subjects(List.of(new RbacV1Subject().kind("User").apiGroup("rbac.authorization.k8s.io").name(NAME))))
                .execute();
        return seed.kubeconfigOf(NAME);
    }
}
