package dwd.adapters.k8s;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import dwd.application.port.out.ApiFailure;
import dwd.adapters.k8s.tls.CertificateRefused;
import dwd.application.port.out.ApiFailure.Kind;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * Translates what client-java and the transport throw, and what the API server answers, into the
 * ports' errors: {@link ApiFailure} for the roles, {@link ObjectReadException} for {@code dwd check}.
 * It is the one place where HTTP status codes and transport exceptions are read, so no client
 * exception crosses a port.
 *
 * <p>Every message starts with the action that failed ({@code "reading apps/v1 Deployment kcm in
 * namespace shoot--a"}) and adds what the server or the transport said. Messages never carry
 * response bodies verbatim, request headers, or the JSON that a client-java model rejected, so a
 * failed read of a secret cannot leak its content into a log.
 */
public final class ApiFailures {

    /** Status messages are cut here: enough to understand, never a whole document. */
    private static final int MAX_DETAIL = 300;

    private ApiFailures() {
    }

    /** A client-java call that may fail with an {@link ApiException} or an {@link IOException}. */
    @FunctionalInterface
    public interface ApiCall<T> {
        T call() throws ApiException, IOException;
    }

    /**
     * Runs {@code call} and translates its failure.
     *
     * @param action what the call does, for the message, e.g. {@code "listing nodes of shoot x"}
     * @throws ApiFailure when the call fails in any way client-java reports
     */
    public static <T> T call(String action, ApiCall<T> call) {
        try {
            return call.call();
        } catch (ApiException | IOException | IllegalArgumentException | JsonParseException | AnswerOutOfBounds
                | MalformedAnswer e) {
            throw translate(action, e);
        }
    }

    /** The failure of {@code action} that {@code error} reports. */
    public static ApiFailure translate(String action, Throwable error) {
        return switch (error) {
            case ApiFailure alreadyTranslated -> alreadyTranslated;
            case ApiException api -> fromApiException(action, api);
            case AnswerOutOfBounds refused -> new ApiFailure(Kind.BAD_INPUT, action + ": refused: "
                    + InDwdWords.of(refused.getMessage()));
            case MalformedAnswer json -> new ApiFailure(Kind.INVALID,
                    action + ": the response is not the JSON expected: " + cut(InDwdWords.of(json.getMessage())));
            case IOException io -> fromTransport(action, io);
            case JsonParseException json -> new ApiFailure(Kind.INVALID,
                    action + ": the response is not the JSON expected: " + cut(InDwdWords.jsonProblem(json)));
            case IllegalArgumentException model -> new ApiFailure(Kind.INVALID,
                    action + ": the response does not fit client-java's model (is the server newer than"
                            + " Kubernetes 1.36?): " + withoutJson(model.getMessage()));
            default -> fromTransportCause(action, error);
        };
    }

    /**
     * The failure of {@code action} that {@code error} reports, for a reader of objects ({@code dwd
     * check}): the message starts with {@code "cannot "} and the action, and ends with what to check
     * where the user can do something about it.
     */
    public static ObjectReadException readFailure(String action, Throwable error) {
        ApiFailure failure = translate(action, error);
        String cannot = "cannot " + failure.getMessage();
        return switch (failure.kind()) {
            case UNAUTHORIZED -> new ObjectReadException(Reason.NOT_ALLOWED,
                    cannot + "; the API server rejected the credentials: check the kubeconfig's user", failure);
            case FORBIDDEN -> new ObjectReadException(Reason.NOT_ALLOWED,
                    cannot + "; the kubeconfig's user needs permission to get it", failure);
            case NOT_FOUND -> new ObjectReadException(Reason.NOT_FOUND, cannot, failure);
            case UNAVAILABLE, TIMEOUT -> new ObjectReadException(Reason.UNAVAILABLE,
                    cannot + "; check the kubeconfig's server address and that the API server is up", failure);
            case THROTTLED -> new ObjectReadException(Reason.UNAVAILABLE,
                    cannot + "; the API server is busy: try again in a moment", failure);
            case CONFLICT, INVALID, BAD_INPUT -> new ObjectReadException(Reason.UNAVAILABLE, cannot, failure);
            case CERTIFICATE_NOT_TRUSTED, CERTIFICATE_EXPIRED, CERTIFICATE_HOST_MISMATCH -> new ObjectReadException(
                    Reason.UNAVAILABLE, cannot + "; check the kubeconfig's server and certificate-authority-data against"
                    + " the API server's certificate", failure);
        };
    }

    private static ApiFailure fromApiException(String action, ApiException e) {
        int code = e.getCode();
        if (code == 0) {
            return fromTransportCause(action, e.getCause());
        }
        String detail = action + ": " + code + statusSummary(e.getResponseBody());
        Kind kind = kindOf(code);
        if (code >= 300 && code < 400) {
            // A redirect is never followed: the credentials must go to the API server the kubeconfig names, and
            // its answer must come from there.
            return new ApiFailure(kind, detail + " (a redirect, which dwd does not follow: the kubeconfig's"
                    + " server must be the API server itself)");
        }
        if (kind == Kind.THROTTLED) {
            Optional<Duration> retryAfter = retryAfter(e.getResponseHeaders(), e.getResponseBody());
            return new ApiFailure(kind, detail + retryAfter.map(wait -> " (retry after " + wait.toSeconds() + "s)")
                    .orElse(""), retryAfter, null);
        }
        return new ApiFailure(kind, detail);
    }

    /** The kind of failure an answer that is no success says, by its status {@code code}. */
    public static Kind kindOf(int code) {
        if (code >= 300 && code < 400) {
            return Kind.BAD_INPUT;
        }
        return switch (code) {
            case 400, 422 -> Kind.INVALID;
            case 401 -> Kind.UNAUTHORIZED;
            case 403 -> Kind.FORBIDDEN;
            case 404 -> Kind.NOT_FOUND;
            case 408 -> Kind.TIMEOUT;
            case 409 -> Kind.CONFLICT;
            case 429 -> Kind.THROTTLED;
            default -> code >= 400 && code < 500 ? Kind.INVALID : Kind.UNAVAILABLE; // 5xx, and what a server should not say
        };
    }

    private static ApiFailure fromTransportCause(String action, Throwable cause) {
        if (cause instanceof IOException io) {
            return fromTransport(action, io);
        }
        String what = cause == null ? "no response" : cut(InDwdWords.detail(cause));
        return new ApiFailure(Kind.UNAVAILABLE, action + ": the call failed (" + what + ")");
    }

    private static ApiFailure fromTransport(String action, IOException e) {
        if (e instanceof NotSent refused) {
            return new ApiFailure(Kind.FORBIDDEN, action + ": " + refused.getMessage(), e);
        }
        Optional<CertificateRefused> certificate = causes(e).filter(CertificateRefused.class::isInstance)
                .map(CertificateRefused.class::cast).findFirst();
        if (certificate.isPresent()) {
            return new ApiFailure(certificate.get().kind(), action + ": " + certificate.get().getMessage(), e);
        }
        // SocketTimeoutException is a read/connect timeout; a bare InterruptedIOException("timeout")
        // is OkHttp's call timeout.
        if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
            return new ApiFailure(Kind.TIMEOUT, action + ": timed out (" + cut(InDwdWords.detail(e)) + ")", e);
        }
        Optional<String> refusedClientCertificate = InDwdWords.refusedClientCertificate(e);
        if (refusedClientCertificate.isPresent()) {
            return new ApiFailure(Kind.UNAUTHORIZED, action + ": the server refused dwd's client certificate (TLS alert "
                    + refusedClientCertificate.get() + "): check the kubeconfig's client-certificate-data", e);
        }
        String problem = switch (e) {
            case ConnectException ignored -> "cannot connect";
            case UnknownHostException ignored -> "unknown host";
            case SSLException ignored -> "the TLS handshake failed";
            default -> "connection failed";
        };
        return new ApiFailure(Kind.UNAVAILABLE, action + ": " + problem + " (" + cut(InDwdWords.detail(e)) + ")", e);
    }

    private static java.util.stream.Stream<Throwable> causes(Throwable e) {
        return java.util.stream.Stream.iterate(e, java.util.Objects::nonNull,
                cause -> cause.getCause() == cause ? null : cause.getCause()).limit(20);
    }

    /** {@code " NotFound: deployments.apps \"x\" not found"} from a Status body, or {@code ""}. */
    private static String statusSummary(String body) {
        Optional<JsonObject> status = parseObject(body);
        if (status.isEmpty()) {
            return "";
        }
        String reason = text(status.get(), "reason");
        String message = text(status.get(), "message");
        StringBuilder summary = new StringBuilder();
        if (!reason.isEmpty()) {
            summary.append(' ').append(reason);
        }
        if (!message.isEmpty()) {
            summary.append(": ").append(cut(message));
        }
        return summary.toString();
    }

    /** The {@code Retry-After} header in seconds, else the Status's {@code details.retryAfterSeconds}. */
    static Optional<Duration> retryAfter(Map<String, List<String>> headers, String body) {
        if (headers != null) {
            for (var header : headers.entrySet()) {
                if ("Retry-After".equalsIgnoreCase(header.getKey()) && header.getValue() != null) {
                    for (String value : header.getValue()) {
                        Optional<Duration> seconds = seconds(value);
                        if (seconds.isPresent()) {
                            return seconds;
                        }
                    }
                }
            }
        }
        return parseObject(body)
                .map(status -> status.get("details"))
                .filter(JsonElement::isJsonObject)
                .map(details -> details.getAsJsonObject().get("retryAfterSeconds"))
                .flatMap(value -> value != null && value.isJsonPrimitive() ? seconds(value.getAsString()) : Optional.empty());
    }

    /** Whole seconds as HTTP writes them; more than fit in a {@code long} read as the most that does. */
    private static Optional<Duration> seconds(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String digits = value.trim();
        if (digits.isEmpty() || digits.length() > 1_000 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty(); // an HTTP date (the API server never sends one), or not a number
        }
        String significant = digits.replaceFirst("^0+(?=.)", "");
        boolean fits = significant.length() < 19
                || significant.length() == 19 && significant.compareTo(String.valueOf(Long.MAX_VALUE)) <= 0;
        return Optional.of(Duration.ofSeconds(fits ? Long.parseLong(significant) : Long.MAX_VALUE));
    }

    private static Optional<JsonObject> parseObject(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonElement parsed = JsonParser.parseString(body);
            return parsed.isJsonObject() ? Optional.of(parsed.getAsJsonObject()) : Optional.empty();
        } catch (JsonParseException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
    }

    /** A model's rejection names the offending field, then appends the whole JSON: keep only the first part. */
    private static String withoutJson(String message) {
        if (message == null) {
            return "rejected";
        }
        int json = message.indexOf("JSON:");
        return cut(json < 0 ? message : message.substring(0, json).strip());
    }

    /** One line, at most {@link #MAX_DETAIL} characters. */
    static String cut(String text) {
        if (text == null) {
            return "";
        }
        String oneLine = text.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= MAX_DETAIL ? oneLine : oneLine.substring(0, MAX_DETAIL) + "…";
    }
}
