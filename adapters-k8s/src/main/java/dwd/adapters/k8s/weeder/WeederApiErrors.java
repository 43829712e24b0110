package dwd.adapters.k8s.weeder;

import dwd.application.port.out.ApiFailure;
import io.kubernetes.client.openapi.ApiException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Translates client-java's {@link ApiException} into the ports' {@link ApiFailure}, so that no
 * client type crosses a port. Kept private to the weeder until the shared translation lands.
 */
final class WeederApiErrors {

    private WeederApiErrors() {
    }

    static ApiFailure translate(String what, ApiException e) {
        String message = what + ": " + describe(e);
        int code = e.getCode();
        if (code == 0) {
            boolean timedOut = e.getCause() instanceof SocketTimeoutException
                    || e.getCause() instanceof InterruptedIOException;
            return new ApiFailure(timedOut ? ApiFailure.Kind.TIMEOUT : ApiFailure.Kind.UNAVAILABLE, message, e);
        }
        return switch (code) {
            case 401 -> new ApiFailure(ApiFailure.Kind.UNAUTHORIZED, message, e);
            case 403 -> new ApiFailure(ApiFailure.Kind.FORBIDDEN, message, e);
            case 404 -> new ApiFailure(ApiFailure.Kind.NOT_FOUND, message, e);
            case 409 -> new ApiFailure(ApiFailure.Kind.CONFLICT, message, e);
            case 429 -> new ApiFailure(ApiFailure.Kind.THROTTLED, message, retryAfter(e.getResponseHeaders()), e);
            default -> new ApiFailure(code >= 500 ? ApiFailure.Kind.UNAVAILABLE : ApiFailure.Kind.INVALID, message, e);
        };
    }

    /** The HTTP status and, briefly, what the server or transport said. */
    static String describe(ApiException e) {
        if (e.getCode() == 0) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : " " + cause.getMessage());
        }
        String body = e.getResponseBody() == null ? "" : e.getResponseBody().strip();
        return "HTTP " + e.getCode() + (body.isEmpty() ? "" : " " + abbreviate(body));
    }

    private static Optional<Duration> retryAfter(Map<String, List<String>> headers) {
        if (headers == null) {
            return Optional.empty();
        }
        List<String> values = headers.get("Retry-After");
        if (values == null || values.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Long.parseLong(values.getFirst().strip())));
        } catch (NumberFormatException notSeconds) {
            return Optional.empty();
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "…";
    }
}
