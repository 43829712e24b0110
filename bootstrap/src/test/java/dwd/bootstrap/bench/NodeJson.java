package dwd.bootstrap.bench;

import java.util.Locale;
import java.util.UUID;

/**
 * A Node and its Lease as a kubelet on a Gardener worker writes them (about 3.5 KB and 0.5 KB of
 * JSON), so that the benchmark's prober parses what a real shoot sends.
 */
final class NodeJson {

    private static final String NODE = """
            {"metadata":{"name":"%1$s","uid":"%2$s","resourceVersion":"%3$d","creationTimestamp":"2026-01-01T00:00:00Z",\
            "labels":{"beta.kubernetes.io/arch":"amd64","beta.kubernetes.io/instance-type":"m5.large",\
            "beta.kubernetes.io/os":"linux","kubernetes.io/arch":"amd64","kubernetes.io/hostname":"%1$s",\
            "kubernetes.io/os":"linux","networking.gardener.cloud/node-local-dns-enabled":"true",\
            "node.kubernetes.io/instance-type":"m5.large","node.kubernetes.io/role":"node",\
            "topology.ebs.csi.aws.com/zone":"eu-west-1a","topology.kubernetes.io/region":"eu-west-1",\
            "topology.kubernetes.io/zone":"eu-west-1a","worker.garden.sapcloud.io/group":"pool-a",\
            "worker.gardener.cloud/kubernetes-version":"1.31.4","worker.gardener.cloud/pool":"pool-a",\
            "worker.gardener.cloud/system-components":"true"},\
            "annotations":{"checksum/cloud-config-data":"4a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768",\
            "csi.volume.kubernetes.io/nodeid":"{\\"ebs.csi.aws.com\\":\\"i-0%4$015x\\"}",\
            "node.alpha.kubernetes.io/ttl":"0","node.machine.sapcloud.io/last-applied-anno-labels-taints":"{}",\
            "volumes.kubernetes.io/controller-managed-attach-detach":"true"}},\
            "spec":{"podCIDR":"100.64.%5$d.0/24","podCIDRs":["100.64.%5$d.0/24"],"providerID":"aws:///eu-west-1a/i-0%4$015x"},\
            "status":{"capacity":{"cpu":"2","ephemeral-storage":"50553324Ki","hugepages-1Gi":"0","hugepages-2Mi":"0",\
            "memory":"7901112Ki","pods":"110"},"allocatable":{"cpu":"1920m","ephemeral-storage":"49178585683",\
            "hugepages-1Gi":"0","hugepages-2Mi":"0","memory":"6750136Ki","pods":"110"},"conditions":[\
            %6$s],\
            "addresses":[{"type":"InternalIP","address":"10.250.%5$d.%7$d"},{"type":"InternalDNS","address":"ip-10-250-%5$d-%7$d.eu-west-1.compute.internal"},\
            {"type":"Hostname","address":"ip-10-250-%5$d-%7$d.eu-west-1.compute.internal"}],\
            "daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},"nodeInfo":{"machineID":"ec2%4$029x",\
            "systemUUID":"ec2%4$029x","bootID":"%2$s","kernelVersion":"6.6.62-cloud-amd64",\
            "osImage":"Garden Linux 1592.3","containerRuntimeVersion":"containerd://1.7.23","kubeletVersion":"v1.31.4",\
            "kubeProxyVersion":"v1.31.4","operatingSystem":"linux","architecture":"amd64"},\
            "images":[{"names":["europe-docker.pkg.dev/gardener-project/releases/gardener/node-problem-detector@sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0","europe-docker.pkg.dev/gardener-project/releases/gardener/node-problem-detector:v0.8.20"],"sizeBytes":48123904},\
            {"names":["registry.k8s.io/kube-proxy@sha256:1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809","registry.k8s.io/kube-proxy:v1.31.4"],"sizeBytes":30229615},\
            {"names":["quay.io/calico/node@sha256:2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a","quay.io/calico/node:v3.28.2"],"sizeBytes":120542118},\
            {"names":["registry.k8s.io/pause@sha256:7031c1b283388d2c2e09b57badb803c05ebed362dc88d84b480cc47f72a21097","registry.k8s.io/pause:3.10"],"sizeBytes":320368}]}}""";

    private static final String CONDITION = """
            {"type":"%s","status":"%s","lastHeartbeatTime":"2026-01-01T00:10:00Z","lastTransitionTime":"2026-01-01T00:00:00Z",\
            "reason":"%s","message":"%s"}""";

    private static final String CONDITIONS = String.join(",",
            CONDITION.formatted("KernelDeadlock", "False", "KernelHasNoDeadlock", "kernel has no deadlock"),
            CONDITION.formatted("ReadonlyFilesystem", "False", "FilesystemIsNotReadOnly", "Filesystem is not read-only"),
            CONDITION.formatted("FrequentContainerdRestart", "False", "NoFrequentContainerdRestart", "containerd is functioning properly"),
            CONDITION.formatted("FrequentKubeletRestart", "False", "NoFrequentKubeletRestart", "kubelet is functioning properly"),
            CONDITION.formatted("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            CONDITION.formatted("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            CONDITION.formatted("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            CONDITION.formatted("Ready", "True", "KubeletReady", "kubelet is posting ready status"));

    private static final String LEASE = """
            {"metadata":{"name":"%1$s","namespace":"kube-node-lease","uid":"%2$s","resourceVersion":"%3$d",\
            "creationTimestamp":"2026-01-01T00:00:00Z","ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"%1$s",\
            "uid":"%2$s"}]},"spec":{"holderIdentity":"%1$s","leaseDurationSeconds":40,"renewTime":"%4$s"}}""";

    private NodeJson() {
    }

    static String node(String name, int shoot, int node) {
        long id = (long) shoot * 1_000 + node;
        return NODE.formatted(name, uid(name), 2_000 + id, id, shoot % 250, CONDITIONS, node + 10);
    }

    static String lease(String name, String renewTime) {
        return LEASE.formatted(name, uid(name), name.hashCode() & 0xffff, renewTime);
    }

    private static String uid(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString()
                .toLowerCase(Locale.ROOT);
    }
}
