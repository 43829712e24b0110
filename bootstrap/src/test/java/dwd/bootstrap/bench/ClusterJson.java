package dwd.bootstrap.bench;

/**
 * A Gardener {@code Cluster} as a seed holds it: the shoot (about 4 KB, reconciled, one worker pool,
 * no per-shoot grace period, so the config's 40 s applies) and short stand-ins for the seed and the
 * cloud profile (real ones are larger; the prober drops both when it caches the Cluster).
 */
final class ClusterJson {

    private static final String CLUSTER = """
            {"apiVersion":"extensions.gardener.cloud/v1alpha1","kind":"Cluster","metadata":{"name":"%1$s"},"spec":{\
            "cloudProfile":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"aws"},\
            "spec":{"type":"aws","kubernetes":{"versions":[{"version":"1.31.4"},{"version":"1.30.8"}]},\
            "machineImages":[{"name":"gardenlinux","versions":[{"version":"1592.3"}]}],\
            "machineTypes":[{"name":"m5.large","cpu":"2","gpu":"0","memory":"8Gi","usable":true}],\
            "regions":[{"name":"eu-west-1","zones":[{"name":"eu-west-1a"},{"name":"eu-west-1b"}]}]}},\
            "seed":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Seed","metadata":{"name":"aws-eu1"},\
            "spec":{"provider":{"type":"aws","region":"eu-west-1"},"networks":{"nodes":"10.250.0.0/16",\
            "pods":"100.96.0.0/11","services":"100.64.0.0/13"},"ingress":{"domain":"ingress.aws-eu1.example.com"}}},\
            "shoot":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"%2$s",\
            "namespace":"garden-bench","uid":"%3$s","generation":7,"labels":{"shoot.gardener.cloud/status":"healthy",\
            "name":"%2$s","project.gardener.cloud/name":"bench"},"annotations":{"gardener.cloud/created-by":"bench@example.com",\
            "shoot.gardener.cloud/tasks":""}},\
            "spec":{"addons":{"kubernetesDashboard":{"enabled":false},"nginxIngress":{"enabled":false}},\
            "cloudProfileName":"aws","dns":{"domain":"%2$s.bench.shoot.example.com"},\
            "hibernation":{"enabled":false,"schedules":[{"start":"00 20 * * 1,2,3,4,5","end":"00 08 * * 1,2,3,4,5",\
            "location":"Europe/Berlin"}]},"kubernetes":{"version":"1.31.4","enableStaticTokenKubeconfig":false,\
            "kubeAPIServer":{"enableAnonymousAuthentication":false,"eventTTL":"1h0m0s","requests":{"maxNonMutatingInflight":400,\
            "maxMutatingInflight":200}},"kubeControllerManager":{"horizontalPodAutoscaler":{"syncPeriod":"15s"}},\
            "kubeProxy":{"mode":"IPTables","enabled":true},"kubelet":{"failSwapOn":true,"kubeReserved":{"cpu":"80m",\
            "memory":"1Gi","pid":"20k"}}},"networking":{"type":"calico","pods":"100.96.0.0/11","nodes":"10.250.0.0/16",\
            "services":"100.64.0.0/13","ipFamilies":["IPv4"]},"maintenance":{"autoUpdate":{"kubernetesVersion":true,\
            "machineImageVersion":true},"timeWindow":{"begin":"220000+0100","end":"230000+0100"}},\
            "provider":{"type":"aws","controlPlaneConfig":{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1",\
            "kind":"ControlPlaneConfig"},"infrastructureConfig":{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1",\
            "kind":"InfrastructureConfig","networks":{"vpc":{"cidr":"10.250.0.0/16"},"zones":[{"name":"eu-west-1a",\
            "internal":"10.250.112.0/22","public":"10.250.96.0/22","workers":"10.250.0.0/19"}]}},\
            "workers":[{"name":"pool-a","machine":{"type":"m5.large","image":{"name":"gardenlinux","version":"1592.3"},\
            "architecture":"amd64"},"maximum":6,"minimum":3,"maxSurge":1,"maxUnavailable":0,"volume":{"type":"gp3",\
            "size":"50Gi"},"zones":["eu-west-1a"],"systemComponents":{"allow":true},"cri":{"name":"containerd"},\
            "machineControllerManager":{"drainTimeout":"2h0m0s","healthTimeout":"10m0s","creationTimeout":"20m0s"}}]},\
            "purpose":"evaluation","region":"eu-west-1","secretBindingName":"aws-bench","seedName":"aws-eu1"},\
            "status":{"clusterIdentity":"%1$s-%3$s","conditions":[\
            {"type":"APIServerAvailable","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","lastUpdateTime":"2026-01-01T00:00:00Z","reason":"HealthzRequestSucceeded","message":"API server /healthz endpoint responded with success status code."},\
            {"type":"ControlPlaneHealthy","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","lastUpdateTime":"2026-01-01T00:00:00Z","reason":"ControlPlaneRunning","message":"All control plane components are healthy."},\
            {"type":"EveryNodeReady","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","lastUpdateTime":"2026-01-01T00:00:00Z","reason":"EveryNodeReady","message":"All nodes are ready."},\
            {"type":"SystemComponentsHealthy","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","lastUpdateTime":"2026-01-01T00:00:00Z","reason":"SystemComponentsRunning","message":"All system components are healthy."}],\
            "gardener":{"id":"gardener-controller-manager","name":"gardener-controller-manager","version":"v1.110.0"},\
            "hibernated":false,"lastOperation":{"description":"Shoot cluster has been successfully reconciled.",\
            "lastUpdateTime":"2026-01-01T00:00:00Z","progress":100,"state":"Succeeded","type":"Reconcile"},\
            "observedGeneration":7,"seedName":"aws-eu1","technicalID":"%1$s","uid":"%3$s"}}}}""";

    private ClusterJson() {
    }

    static String cluster(String namespace) {
        String shootName = namespace.substring(namespace.lastIndexOf("--") + 2);
        return CLUSTER.formatted(namespace, shootName,
                java.util.UUID.nameUUIDFromBytes(namespace.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
