package dwd.adapters.k8s.objects;

import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import io.kubernetes.client.openapi.ApiException;
import java.util.Optional;

/** Turns client-java failures into {@link ObjectReadException}s that say what failed and what to do. */
final class KubernetesErrors {

    private KubernetesErrors() {
    }

    static ObjectReadException translate(ApiException e, String action) {
        if (e.getCode() == 0) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return unreachable(action, cause);
        }
        return byStatus(e.getCode(), statusMessage(e.getResponseBody()).orElse(e.getMessage()), action, e);
    }

    static ObjectReadException unreachable(String action, Throwable cause) {
        return new ObjectReadException(Reason.UNAVAILABLE, "cannot " + action + ": " + cause
                + "; check the kubeconfig's server address and that the API server is up", cause);
    }

    static ObjectReadException byStatus(int code, String message, String action, Throwable cause) {
        return switch (code) {
            case 401 -> new ObjectReadException(Reason.NOT_ALLOWED, "cannot " + action
                    + ": the API server rejected the credentials (401 " + message + "); check the kubeconfig's user", cause);
            case 403 -> new ObjectReadException(Reason.NOT_ALLOWED, "cannot " + action
                    + ": forbidden (403 " + message + "); the kubeconfig's user needs permission to get it", cause);
            case 404 -> new ObjectReadException(Reason.NOT_FOUND, "cannot " + action + ": not found (404 " + message + ")", cause);
            default -> new ObjectReadException(Reason.UNAVAILABLE, "cannot " + action
                    + ": the API server answered " + code + " " + message, cause);
        };
    }

    /** The {@code message} of a Kubernetes {@code Status} body, if the body is one. */
    static Optional<String> statusMessage(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        return JsonDocuments.parseObject(body)
                .map(status -> status.get("message"))
                .filter(String.class::isInstance)
                .map(String.class::cast)
                .or(() -> Optional.of(body.strip().lines().findFirst().orElse("")))
                .filter(text -> !text.isEmpty());
    }
}
