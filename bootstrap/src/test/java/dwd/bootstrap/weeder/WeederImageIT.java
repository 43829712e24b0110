package dwd.bootstrap.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.ContainerImage;
import dwd.bootstrap.DwdProcess;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dwd weeder} from the image of {@code make image}, as the manifests run it (read-only root, tmpfs
 * at /tmp, user 65532, no capabilities), with Gardener's weeder config mounted read-only.
 */
@WithLocalControlPlane
@EnabledIf(value = ContainerImage.PODMAN_INSTALLED, disabledReason = ContainerImage.PODMAN_MISSING)
class WeederImageIT {

    @Test
    void theImageDeletesACrashLoopingKubeApiServerWhenEtcdTurnsReady(LocalControlPlane controlPlane, ApiClient client,
            @TempDir Path dir) throws Exception {
        ContainerImage image = ContainerImage.get();
        String namespace = controlPlane.createNamespace("shoot--dev--image");
        var crashLoop = CrashLoopingApiServer.create(client, namespace);
        Path config = Files.copy(WeederLaunchIT.REPOSITORY.resolve("deploy/examples/weeder-config.yaml"), dir.resolve("config.yaml"));
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), controlPlane.selfContainedKubeconfig());
        int metricsPort = DwdProcess.freePort();
        int healthPort = DwdProcess.freePort();
        try (var weeder = image.start(dir, "dwd-it-weeder-" + ProcessHandle.current().pid(),
                Map.of(config, "/etc/dwd/config.yaml", kubeconfig, "/etc/dwd/kubeconfig"), metricsPort, healthPort,
                List.of("weeder", "--config-file=/etc/dwd/config.yaml", "--kubeconfig=/etc/dwd/kubeconfig",
                        "--metrics-bind-addr=127.0.0.1:" + metricsPort, "--health-bind-addr=127.0.0.1:" + healthPort))) {
            await("the weeder is running").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> weeder.log().contains("weeder running"));
            assertThat(crashLoop.pods()).as("not ready yet: left alone").isEqualTo(1);

            crashLoop.etcdTurnsReady();
            await("the crash-looping kube-apiserver is deleted").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(crashLoop::podDeleted);
            await("the deletion is logged").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> weeder.log().contains(namespace + ": deleted pod kube-apiserver-0 (uid "));
            assertThat(weeder.healthz()).as("/healthz on the health port").isEqualTo(200);
            assertThat(weeder.terminate()).as("exits on SIGTERM; its log:%n%s", weeder.log()).isIn(0, 143);
        }
    }
}
