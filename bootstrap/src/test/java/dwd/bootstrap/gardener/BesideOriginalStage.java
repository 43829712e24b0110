package dwd.bootstrap.gardener;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.bootstrap.DwdProcess;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * The stage of {@link BesideOriginalIT}: a seed with Gardener's objects for both roles and the additions of
 * {@code deploy/beside-original/rbac.yaml}; a kubeconfig per identity (the original's service accounts, dwd's,
 * the probe identity of the shoots); Gardener's configs with the delays both sides share shortened; and the
 * four processes: the original's prober and weeder, and dwd's in shadow mode comparing itself with them.
 */
final class BesideOriginalStage {

    /** Both sides' probe interval (Gardener's 30 s, shortened); the original probes each shoot this long apart at least. */
    static final String PROBE_INTERVAL = "20s";
    static final String WINDOW = "60s";

    private final LocalControlPlane controlPlane;
    private final ApiClient admin;
    private final Path dir;
    final GardenerObjects prober = GardenerObjects.seed("prober");
    final GardenerObjects weeder = GardenerObjects.seed("weeder");

    BesideOriginalStage(LocalControlPlane controlPlane, Path dir) {
        this.controlPlane = controlPlane;
        this.admin = controlPlane.apiClient();
        this.dir = dir;
    }

    /** Gardener's objects, the shoot-side RBAC of the probe identity, and the comparison's identities and Roles. */
    void applyRbac() throws ApiException {
        new CoreV1Api(admin).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("garden"))).execute();
        prober.apply(admin);
        weeder.apply(admin);
        GardenerObjects.shootAccess().apply(admin);
        GardenerObjects.of(DwdProcess.REPOSITORY.resolve("deploy/beside-original/rbac.yaml")).apply(admin);
        new CoreV1Api(admin).createNamespacedServiceAccount("kube-system", new V1ServiceAccount()
                .metadata(new V1ObjectMeta().name("dependency-watchdog-probe"))).execute();
    }

    /** A kubeconfig for the service account, with a token of an hour. */
    Path kubeconfig(String namespace, String serviceAccount) throws ApiException, IOException {
        return Files.writeString(dir.resolve(serviceAccount + ".kubeconfig"), kubeconfigText(namespace, serviceAccount));
    }

    /** The kubeconfig of Gardener's shoot access secret: this API server as the shoot, the probe identity's token. */
    String probeKubeconfig() throws ApiException {
        return kubeconfigText("kube-system", "dependency-watchdog-probe");
    }

    private String kubeconfigText(String namespace, String serviceAccount) throws ApiException {
        AuthenticationV1TokenRequest request = new CoreV1Api(admin).createNamespacedServiceAccountToken(serviceAccount,
                namespace, new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec().audiences(List.of())
                        .expirationSeconds(3600L))).execute();
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: seed
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: seed
                  context: {cluster: seed, user: %s}
                current-context: seed
                """.formatted(controlPlane.server(), Base64.getEncoder().encodeToString(controlPlane.certificateAuthority()),
                serviceAccount, request.getStatus().getToken(), serviceAccount);
    }

    /**
     * Gardener's prober config with the delays both sides run shortened: the probe interval 30 s to
     * {@link #PROBE_INTERVAL}, the first probe after 30 s to 5 s, machine-controller-manager's scale-up delay 30 s
     * to 5 s.
     */
    Path proberConfig() throws IOException {
        String config = prober.configData().get("dep-config.yaml")
                .replace("probeInterval: 30s", "probeInterval: " + PROBE_INTERVAL + "\ninitialDelay: 5s")
                .replace("initialDelay: 30s", "initialDelay: 5s");
        return Files.writeString(dir.resolve("prober-config.yaml"), config);
    }

    /** Gardener's weeder config as it is. */
    Path weederConfig() throws IOException {
        return Files.writeString(dir.resolve("weeder-config.yaml"), weeder.configData().get("dep-config.yaml"));
    }

    /** dwd as the second Deployment runs it: Gardener's flags of the role, in shadow mode, comparing. */
    DwdProcess dwd(String role, Path config, Path kubeconfig, Path logs) throws IOException {
        var flags = new ArrayList<String>();
        (role.equals("prober") ? prober : weeder).command().stream().skip(2)
                .filter(flag -> !flag.startsWith("--config-file=")).forEach(flags::add);
        flags.addAll(List.of("--dry-run=server", "--compare-with-original", "--comparison-window=" + WINDOW));
        return DwdProcess.launch(role, logs, "dwd-" + role, config, kubeconfig, flags);
    }

    /** The original with Gardener's flags of the role. */
    OriginalProcess original(Path binary, String role, Path config, Path kubeconfig, Path logs) throws IOException {
        return OriginalProcess.start(binary, role, (role.equals("prober") ? prober : weeder).command(), config,
                kubeconfig, logs.resolve("original-" + role + ".log"));
    }

    /** A role's {@code /comparison} page. */
    static JsonObject comparison(DwdProcess dwd) throws IOException {
        return JsonParser.parseString(dwd.metricsPage("/comparison")).getAsJsonObject();
    }

    /** The decided episodes of {@code namespace} of this kind, oldest first. */
    static List<JsonObject> episodes(JsonObject page, String namespace, String kind) {
        return StreamSupport.stream(page.getAsJsonArray("episodes").spliterator(), false)
                .map(element -> element.getAsJsonObject())
                .filter(e -> e.get("namespace").getAsString().equals(namespace) && e.get("kind").getAsString().equals(kind))
                .toList();
    }

    /** The labels of one side's actions, in time order. */
    static List<String> labels(JsonObject episode, String side) {
        return StreamSupport.stream(episode.getAsJsonArray(side).spliterator(), false)
                .map(element -> element.getAsJsonObject().get("label").getAsString()).toList();
    }
}
