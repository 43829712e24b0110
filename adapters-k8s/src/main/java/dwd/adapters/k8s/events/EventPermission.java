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

/**
 * Whether the process's identity may create Events in every namespace, asked once with a
 * SelfSubjectAccessReview (which every authenticated user may create). dwd writes its Events about
 * shoot Deployments and pods in the shoots' namespaces; Gardener's roles grant core Events in
 * {@code garden} only, so under them the answer is no.
 */
enum EventPermission {
    ALLOWED,
    DENIED,
    /** The review got no answer (the seed unreachable, overloaded): asked again before the next write. */
    UNANSWERED,
    /** The review itself was refused or failed otherwise: Events are tried, and their failures counted. */
    UNKNOWN;

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
            return OutageLog.isOutage(failure) ? UNANSWERED : UNKNOWN;
        } catch (RuntimeException unexpected) {
            return UNKNOWN;
        }
    }
}
