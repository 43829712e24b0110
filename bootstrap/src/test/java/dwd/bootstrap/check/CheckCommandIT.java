package dwd.bootstrap.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dwd.adapters.k8s.testing.objects.CheckFixtures;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.bootstrap.Main;
import io.kubernetes.client.openapi.ApiClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dwd check} against a live custom resource on a real API server: a Widget (CRD with a status
 * subresource) is driven through the states of a reconcile by patching its status, and each state
 * gives the expected codes and exit code.
 */
@WithLocalControlPlane
class CheckCommandIT {

    private static final Pattern CODE = Pattern.compile("^((?:WARN|FAIL)\\d{4}) ", Pattern.MULTILINE);

    @TempDir
    static Path directory;

    private static ApiClient client;
    private static String namespace;
    private static String kubeconfig;
    private static String config;

    record Run(int exitCode, String out, String err) {
        List<String> codes() {
            var codes = new ArrayList<String>();
            Matcher matcher = CODE.matcher(out);
            while (matcher.find()) {
                codes.add(matcher.group(1));
            }
            return codes;
        }
    }

    @BeforeAll
    static void widgetCrdAndConfig(LocalControlPlane controlPlane) throws Exception {
        client = controlPlane.apiClient();
        CheckFixtures.installWidgetCrd(client);
        namespace = controlPlane.createNamespace("check");
        kubeconfig = Files.writeString(directory.resolve("kubeconfig"), controlPlane.kubeconfig()).toString();
        config = Files.writeString(directory.resolve("cc.yaml"), """
                conditions:
                  negativePolarity: [Stalled, Reconciling, FetchFailed]
                """).toString();
    }

    private static Run check(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var command = new ArrayList<>(List.of("check", "--config", config, "--kubeconfig", kubeconfig));
        command.addAll(List.of(args));
        int exitCode = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), command.toArray(String[]::new));
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static Run checkWidget(String name, String... more) {
        var args = new ArrayList<>(List.of("--kind", "Widget", "--name", name, "--namespace", namespace));
        args.addAll(List.of(more));
        return check(args.toArray(String[]::new));
    }

    private static void status(String name, String json) {
        CheckFixtures.patchWidgetStatus(client, namespace, name, json);
    }

    @Test
    void aWidgetThroughTheStatesOfAReconcile() throws Exception {
        CheckFixtures.createWidget(client, namespace, "podinfo", Map.of("url", "https://example.com/podinfo.git"));

        // Created, no status yet: Ready is missing.
        Run created = checkWidget("podinfo");
        assertThat(created.codes()).containsExactly("FAIL0002");
        assertThat(created.exitCode()).isEqualTo(1);
        assertThat(created.out()).startsWith("FAIL0002 failure Widget/" + namespace + "/podinfo: Ready condition must always be present\n");

        // The controller starts reconciling but leaves Ready Unknown.
        status("podinfo", """
                {"conditions":[
                  {"type":"Reconciling","status":"True","reason":"Progressing","message":"cloning","observedGeneration":1},
                  {"type":"Ready","status":"Unknown","reason":"Progressing","message":"cloning","observedGeneration":1}]}""");
        Run readyUnknown = checkWidget("podinfo");
        assertThat(readyUnknown.codes()).containsExactly("FAIL0003");
        assertThat(readyUnknown.exitCode()).isEqualTo(1);

        // A clean mid-reconcile state: Ready False, root observedGeneration not yet the new generation.
        status("podinfo", """
                {"observedGeneration":0,"conditions":[
                  {"type":"Reconciling","status":"True","reason":"Progressing","message":"cloning","observedGeneration":1},
                  {"type":"Ready","status":"False","reason":"Progressing","message":"cloning","observedGeneration":1}]}""");
        Run reconciling = checkWidget("podinfo", "--kstatus");
        assertThat(reconciling.codes()).isEmpty();
        assertThat(reconciling.exitCode()).isZero();
        assertThat(reconciling.out()).isEqualTo("kstatus InProgress Widget/" + namespace + "/podinfo: Widget generation is 1, "
                + "but latest observed generation is 0 (reason LatestGenerationNotObserved)\n"
                + "checked 1 object: 0 warnings, 0 failures\n");

        // The fetch fails; Ready does not carry the failure's reason and message: a warning only.
        status("podinfo", """
                {"observedGeneration":1,"conditions":[
                  {"type":"FetchFailed","status":"True","reason":"GitOperationFailed","message":"timeout","observedGeneration":1},
                  {"type":"Ready","status":"False","reason":"Progressing","message":"cloning","observedGeneration":1}]}""");
        Run fetchFailed = checkWidget("podinfo");
        assertThat(fetchFailed.codes()).containsExactly("WARN0002");
        assertThat(fetchFailed.exitCode()).isZero();
        assertThat(fetchFailed.out()).contains("Ready != FetchFailed (reason \"Progressing\" != \"GitOperationFailed\", "
                + "message \"cloning\" != \"timeout\")");

        // Stalled and Reconciling at once.
        status("podinfo", """
                {"conditions":[
                  {"type":"Stalled","status":"True","reason":"RetryLimit","message":"gave up","observedGeneration":1},
                  {"type":"Reconciling","status":"True","reason":"Progressing","message":"retrying","observedGeneration":1},
                  {"type":"Ready","status":"False","reason":"RetryLimit","message":"gave up","observedGeneration":1}]}""");
        assertThat(checkWidget("podinfo").codes()).containsExactly("FAIL0005");

        // Ready, but a Reconciling False was left behind.
        status("podinfo", """
                {"conditions":[
                  {"type":"Ready","status":"True","reason":"Succeeded","message":"stored artifact","observedGeneration":1},
                  {"type":"Reconciling","status":"False","reason":"Succeeded","message":"done","observedGeneration":1}]}""");
        Run leftover = checkWidget("podinfo");
        assertThat(leftover.codes()).containsExactly("WARN0001", "WARN0003");
        assertThat(leftover.exitCode()).isZero();

        // The spec changes (generation 2) and the controller has not caught up, yet Ready stays True.
        CheckFixtures.patchWidgetSpec(client, namespace, "podinfo", "{\"url\":\"https://example.com/other.git\"}");
        Run stale = checkWidget("podinfo", "--output", "json");
        assertThat(stale.exitCode()).isEqualTo(1);
        JsonNode object = new ObjectMapper().readTree(stale.out()).get("objects").get(0);
        assertThat(object.get("apiVersion").asText()).isEqualTo("check.dwd.dev/v1");
        assertThat(object.get("findings").findValuesAsText("code")).containsExactly("WARN0001", "WARN0003", "FAIL0007", "FAIL0008");
        assertThat(object.get("findings").get(3).get("message").asText()).endsWith(": [Ready Reconciling]");

        // Reconciled: everything at generation 2, nothing left over.
        status("podinfo", """
                {"observedGeneration":2,"conditions":[
                  {"type":"Ready","status":"True","reason":"Succeeded","message":"stored artifact","observedGeneration":2}]}""");
        Run ready = checkWidget("podinfo", "--kstatus");
        assertThat(ready.exitCode()).isZero();
        assertThat(ready.out()).isEqualTo("kstatus Current Widget/" + namespace + "/podinfo: Resource is Ready\n"
                + "checked 1 object: 0 warnings, 0 failures\n");
    }

    @Test
    void theApiVersionCanBeGivenAndTheKindIsFoundCaseInsensitively() {
        CheckFixtures.createWidget(client, namespace, "versioned", Map.of());
        assertThat(checkWidget("versioned", "--api-version", "check.dwd.dev/v1").codes()).containsExactly("FAIL0002");
        assertThat(check("--kind", "widget", "--name", "versioned", "-n", namespace).codes()).containsExactly("FAIL0002");
    }

    /** As a file's object, a live one that cannot be read as the rules need is a result, not an error. */
    @Test
    void aLiveRolloutWithAStringObservedGenerationIsAResultThatSaysWhy() {
        CheckFixtures.createRollout(client, namespace, "web", Map.of("observedGeneration", "1", "conditions", List.of(
                Map.of("type", "Available", "status", "True", "reason", "AvailableReason", "message", "Rollout has minimum availability"))));
        Run run = check("--kind", "Rollout", "--name", "web", "-n", namespace, "--kstatus");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEmpty();
        String why = "status.observedGeneration: expected an integer, found \"1\" (a string)";
        assertThat(run.out()).contains("kstatus Unknown Rollout/" + namespace + "/web: " + why + "\n",
                "FAIL0000 failure Rollout/" + namespace + "/web: The object cannot be read as the checks need it: " + why
                        + "; not run: [FAIL0006 FAIL0007 FAIL0009 FAIL0010]\n",
                "FAIL0002 failure Rollout/" + namespace + "/web: Ready condition must always be present\n");
        assertThat(run.out()).endsWith("checked 1 object: 1 warning, 2 failures, 1 unreadable\n");
    }

    @Test
    void aMissingObjectIsAReadErrorThatSaysWhatWasMissing() {
        Run run = checkWidget("absent");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("dwd check: widgets.check.dwd.dev \"absent\" in namespace \"" + namespace + "\" not found at https://");
    }

    @Test
    void anUnknownKindIsAReadError() {
        Run run = check("--kind", "Gizmo", "--name", "x", "-n", namespace);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("dwd check: kind Gizmo is not served by the cluster at https://");
    }
}
