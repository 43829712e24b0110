package dwd.bootstrap.gardener;

import com.google.gson.JsonObject;
import dwd.bootstrap.ContainerImage;
import dwd.bootstrap.DwdProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A container of the image run as a pod of gardenlet's Deployment runs it, every setting read from
 * Gardener's Deployment: its {@code command} (through {@code --entrypoint}, no {@code args}), the image's
 * own user, a writable root, the memory limit, {@code allowPrivilegeEscalation: false}, the config
 * (the ConfigMap's data) mounted read-only at the Deployment's mount path, the termination grace
 * period; and what the kubelet adds: the service account's projected token volume at
 * {@code /var/run/secrets/kubernetes.io/serviceaccount}, {@code KUBERNETES_SERVICE_HOST/PORT}, the pod
 * name as host name. No other flag, no kubeconfig.
 *
 * <p>A network namespace of its own, as a pod has (slirp4netns): the roles' default ports (9643, 9644)
 * do not collide, and the API server on the host's loopback is reached at 10.0.2.2, under the name
 * {@code kubernetes.default.svc}, which the local API server's certificate carries (the pod's
 * environment names the API server by that name instead of a service IP). The metrics port is
 * published on the host's loopback for the test.
 */
public final class GardenletPod {

    /** The host's loopback as slirp4netns shows it inside the container ({@code allow_host_loopback}). */
    static final String HOST_LOOPBACK = "10.0.2.2";
    /** A name the local API server's serving certificate carries. */
    public static final String API_SERVER_NAME = "kubernetes.default.svc";
    static final String SERVICE_ACCOUNT_MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";

    public static final String TOOLS_MISSING =
            "podman or slirp4netns is not installed: GardenerSwapInIT skips (Debian: apt-get install -y podman runc slirp4netns)";

    private GardenletPod() {
    }

    /** Whether podman can give a container a network namespace of its own that reaches the host's loopback. */
    public static boolean runnable() {
        return ContainerImage.podmanInstalled() && Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "slirp4netns")));
    }

    /**
     * Starts pod {@code podName} of Gardener's Deployment {@code objects} from {@code image}.
     *
     * @param serviceAccount the pod's projected token volume (a directory laid out as the kubelet lays it out)
     * @param apiServerPort  the local API server's port on the host's loopback
     */
    public static ContainerImage.Container start(ContainerImage image, GardenerObjects objects, String podName, Path dir,
            Path serviceAccount, int apiServerPort) throws IOException, InterruptedException {
        JsonObject container = objects.container();
        JsonObject pod = objects.podSpec();
        Path config = Files.createDirectories(dir.resolve(podName + "-config"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (Map.Entry<String, String> file : objects.configData().entrySet()) {
            Files.setPosixFilePermissions(Files.writeString(config.resolve(file.getKey()), file.getValue()),
                    PosixFilePermissions.fromString("rw-r--r--"));
        }
        var mount = container.getAsJsonArray("volumeMounts").get(0).getAsJsonObject();
        int metricsPort = DwdProcess.freePort();
        int containerMetricsPort = container.getAsJsonArray("ports").get(0).getAsJsonObject().get("containerPort").getAsInt();

        var flags = new ArrayList<String>();
        flags.addAll(List.of("--entrypoint", new com.google.gson.Gson().toJson(objects.command())));
        flags.addAll(List.of("--hostname", podName));
        String memory = podmanQuantity(container.getAsJsonObject("resources").getAsJsonObject("limits")
                .get("memory").getAsString());
        flags.addAll(List.of("--memory", memory, "--memory-swap", memory)); // a pod's limit, without swap
        JsonObject security = container.getAsJsonObject("securityContext");
        if (security != null && security.has("allowPrivilegeEscalation")
                && !security.get("allowPrivilegeEscalation").getAsBoolean()) {
            flags.addAll(List.of("--security-opt", "no-new-privileges"));
        }
        flags.addAll(List.of("--stop-timeout", pod.get("terminationGracePeriodSeconds").getAsString()));
        flags.addAll(List.of("-v", config.toAbsolutePath() + ":" + mount.get("mountPath").getAsString()
                + (mount.has("readOnly") && mount.get("readOnly").getAsBoolean() ? ":ro" : "")));
        flags.addAll(List.of("-v", serviceAccount.toAbsolutePath() + ":" + SERVICE_ACCOUNT_MOUNT + ":ro"));
        flags.addAll(List.of("-e", "KUBERNETES_SERVICE_HOST=" + API_SERVER_NAME,
                "-e", "KUBERNETES_SERVICE_PORT=" + apiServerPort));
        flags.addAll(List.of("--network", "slirp4netns:allow_host_loopback=true",
                "--add-host", API_SERVER_NAME + ":" + HOST_LOOPBACK,
                "-p", "127.0.0.1:" + metricsPort + ":" + containerMetricsPort));
        return image.startWith(dir, podName, flags, List.of(), metricsPort);
    }

    /** A Kubernetes memory quantity as podman takes it (512Mi: 512m, podman's m being MiB). */
    static String podmanQuantity(String quantity) {
        if (quantity.endsWith("Mi")) {
            return quantity.substring(0, quantity.length() - 2) + "m";
        }
        if (quantity.endsWith("Gi")) {
            return quantity.substring(0, quantity.length() - 2) + "g";
        }
        throw new IllegalArgumentException("memory limit " + quantity + ": only Mi and Gi are translated for podman");
    }
}
