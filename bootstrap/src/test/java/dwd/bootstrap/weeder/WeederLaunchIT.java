package dwd.bootstrap.weeder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.PatchUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code ./dwd weeder} as an operator runs it (module path, Gardener's config), against a real API server. */
@WithLocalControlPlane
class WeederLaunchIT {

    static final Path REPOSITORY = Path.of(System.getProperty("dwd.repository.root", "..")).toAbsolutePath().normalize();

    private Process weeder;

    @AfterEach
    void stop() throws InterruptedException {
        if (weeder != null && weeder.isAlive()) {
            weeder.destroy();
            weeder.waitFor(30, TimeUnit.SECONDS);
            weeder.destroyForcibly();
        }
    }

    private Process start(Path dir, String configYaml, LocalControlPlane controlPlane) throws Exception {
        Path config = Files.writeString(dir.resolve("weeder-config.yaml"), configYaml);
        Path kubeconfig = Files.writeString(dir.resolve("seed.kubeconfig"), controlPlane.kubeconfig());
        weeder = new ProcessBuilder(REPOSITORY.resolve("dwd").toString(), "weeder", "--config-file", config.toString(),
                "--kubeconfig", kubeconfig.toString(), "--metrics-bind-addr=0", "--health-bind-addr=0")
                .redirectErrorStream(true).redirectOutput(dir.resolve("weeder.log").toFile()).start();
        return weeder;
    }

    @Test
    void aConfigErrorIsPrintedWithItsPathAndExitsWithOne(LocalControlPlane controlPlane) throws Exception {
        Path dir = Files.createTempDirectory("dwd-weeder");
        Process process = start(dir, """
                servicesAndDependantSelectors:
                  etcd-main-client:
                    podSelectors:
                      - matchExpressions:
                          - {key: role, operator: In}
                """, controlPlane);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("weeder.log")))
                .contains("servicesAndDependantSelectors[etcd-main-client].podSelectors[0].matchExpressions[0].values");
    }

    @Test
    void gardenersConfigRestartsACrashLoopingKubeApiServerWhenEtcdRecovers(LocalControlPlane controlPlane,
            ApiClient client) throws Exception {
        String namespace = controlPlane.createNamespace("shoot--dev--weeder");
        var crashLoop = CrashLoopingApiServer.create(client, namespace);

        Path dir = Files.createTempDirectory("dwd-weeder");
        start(dir, Files.readString(REPOSITORY.resolve("deploy/examples/weeder-config.yaml")), controlPlane);
        await("the weeder is running").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.readString(dir.resolve("weeder.log")).contains("weeder running"));
        assertThat(crashLoop.pods()).as("not ready yet: left alone").isEqualTo(1);

        crashLoop.etcdTurnsReady();
        await("the crash-looping kube-apiserver is deleted").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(crashLoop::podDeleted);
        await("the deletion is logged").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.readString(dir.resolve("weeder.log")).contains(namespace + ": deleted pod kube-apiserver-0 (uid "));
    }

    interface CallFactory {
        okhttp3.Call call() throws ApiException;
    }

    static void patch(ApiClient client, CallFactory call) throws ApiException {
        PatchUtils.patch(Object.class, call::call, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
    }
}
