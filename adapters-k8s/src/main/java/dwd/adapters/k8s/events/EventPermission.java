package dwd.adapters.k8s.events;

import com.google.gson.JsonObject;
import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import java.time.Duration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Whether the process's identity may create Events in every namespace, asked with a
 * SelfSubjectAccessReview (which every authenticated user may create, and which changes no state: a
 * standby asks it too). dwd writes its Events about
 * shoot Deployments and pods in the shoots' namespaces; Gardener's roles grant core Events in
 * {@code garden} only, so under them the answer is no.
 */
enum EventPermission {
    ALLOWED,
    DENIED,
    /** The review got no answer (the seed unreachable, overloaded): asked again. */
    UNANSWERED,
    /** The review itself was refused or failed otherwise: asked again; Events are tried meanwhile. */
    UNKNOWN;

    private static final Logger LOG = LogManager.getLogger();

    /** The rule that grants what the review asks, as an operator writes it into a ClusterRole. */
    static final String RULE = "{apiGroups: [events.k8s.io], resources: [events], verbs: [create]}";

    static EventPermission ask(ApiClient client, Duration timeout) {
        var review = new V1SelfSubjectAccessReview()
                .apiVersion("authorization.k8s.io/v1").kind("SelfSubjectAccessReview")
                .spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(new V1ResourceAttributes()
                        .group("events.k8s.io").resource("events").verb("create").namespace("")));
        try {
            JsonObject answer = ApiFailures.call("asking whether Events may be created in all namespaces",
                    () -> JsonCalls.execute(new AuthorizationV1Api(client).createSelfSubjectAccessReview(review)
                            .buildCall(null), timeout));
            JsonObject status = answer.getAsJsonObject("status");
            return status != null && status.has("allowed") && status.get("allowed").getAsBoolean() ? ALLOWED : DENIED;
        } catch (ApiFailure failure) {
            LOG.debug("{}; asked again later", failure.getMessage());
            return OutageLog.isOutage(failure) ? UNANSWERED : UNKNOWN;
        } catch (RuntimeException unexpected) {
            LOG.debug("asking whether Events may be created in all namespaces failed; asked again later", unexpected);
            return UNKNOWN;
        }
    }
}
