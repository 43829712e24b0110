package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonSyntaxException;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReadException.Reason;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ApiFailure.Kind;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Secret;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiFailuresTest {

    private static final String ACTION = "reading apps/v1 Deployment kcm in namespace shoot--a";

    private static ApiException status(int code, String reason, String message) {
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"" + reason
                + "\",\"message\":\"" + message + "\",\"code\":" + code + "}";
        return new ApiException("", code, Map.of(), body);
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "400, INVALID", "401, UNAUTHORIZED", "403, FORBIDDEN", "404, NOT_FOUND", "405, INVALID", "408, TIMEOUT",
        "409, CONFLICT", "410, INVALID", "415, INVALID", "422, INVALID", "429, THROTTLED", "500, UNAVAILABLE",
        "502, UNAVAILABLE", "503, UNAVAILABLE", "504, UNAVAILABLE", "302, BAD_INPUT", "307, BAD_INPUT",
    })
    void httpStatusCodesMapToKinds(int code, Kind kind) {
        assertThat(ApiFailures.translate(ACTION, status(code, "Some", "m")).kind()).isEqualTo(kind);
    }

    @Test
    void theMessageSaysWhatFailedAndWhatTheServerSaid() {
        ApiFailure failure = ApiFailures.translate(ACTION,
                status(404, "NotFound", "deployments.apps \\\"kcm\\\" not found"));
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": 404 NotFound: deployments.apps \"kcm\" not found");
        assertThat(failure.getCause()).isNull(); // the ApiException's message would carry the whole body
    }

    @Test
    void aBodyThatIsNoStatusIsLeftOut() {
        ApiFailure failure = ApiFailures.translate(ACTION, new ApiException("", 503, Map.of(), "<html>busy</html>"));
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": 503");
    }

    @Test
    void throttlingCarriesTheRetryAfterHeader() {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.put("retry-after", List.of("7"));
        ApiFailure failure = ApiFailures.translate(ACTION, new ApiException("", 429, headers, ""));
        assertThat(failure.kind()).isEqualTo(Kind.THROTTLED);
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(failure.getMessage()).endsWith("(retry after 7s)");
    }

    @ParameterizedTest(name = "Retry-After: {0}")
    @CsvSource({
        "9223372036854775807, 9223372036854775807", "9223372036854775808, 9223372036854775807",
        "000000000000000000000000042, 42", "99999999999999999999999999999999, 9223372036854775807",
    })
    void aRetryAfterOfAnySizeIsADurationAtMostTheLargestSeconds(String header, long seconds) {
        ApiFailure failure = ApiFailures.translate(ACTION,
                new ApiException("", 429, Map.of("Retry-After", List.of(header)), null));
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest(name = "Retry-After: {0}")
    @CsvSource({"-5", "+5", "1.5", "5s", "' '"})
    void aRetryAfterThatIsNoWholeNumberOfSecondsIsIgnored(String header) {
        ApiFailure failure = ApiFailures.translate(ACTION,
                new ApiException("", 429, Map.of("Retry-After", List.of(header)), null));
        assertThat(failure.retryAfter()).isEmpty();
    }

    @Test
    void anAnswerBeyondABoundIsBadInputSayingWhich() {
        ApiFailure failure = ApiFailures.translate(ACTION, new AnswerOutOfBounds("more than 10000 leases"));
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": refused: more than 10000 leases");
    }

    @Test
    void aRedirectIsBadInputSayingItIsNotFollowed() {
        ApiFailure failure = ApiFailures.translate(ACTION, new ApiException("", 302, Map.of(), null));
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": 302 (a redirect, which dwd does not follow: the"
                + " kubeconfig's server must be the API server itself)");
    }

    @Test
    void throttlingFallsBackToTheStatusRetryAfterSeconds() {
        String body = "{\"kind\":\"Status\",\"reason\":\"TooManyRequests\",\"details\":{\"retryAfterSeconds\":3}}";
        ApiFailure failure = ApiFailures.translate(ACTION, new ApiException("", 429, Map.of(), body));
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(3));
    }

    @Test
    void throttlingWithoutAHintHasNoRetryAfter() {
        ApiFailure failure = ApiFailures.translate(ACTION,
                new ApiException("", 429, Map.of("Retry-After", List.of("Wed, 21 Oct 2026 07:28:00 GMT")), null));
        assertThat(failure.kind()).isEqualTo(Kind.THROTTLED);
        assertThat(failure.retryAfter()).isEmpty();
    }

    @Test
    void transportTimeoutsAreTimeouts() {
        ApiFailure read = ApiFailures.translate(ACTION, new ApiException(new SocketTimeoutException("timeout")));
        ApiFailure call = ApiFailures.translate(ACTION, new ApiException(new InterruptedIOException("timeout")));
        assertThat(read.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(call.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(call.getMessage()).isEqualTo(ACTION + ": timed out (timeout)");
        assertThat(call.getCause()).isInstanceOf(InterruptedIOException.class);
    }

    @Test
    void otherTransportFailuresMeanUnavailable() {
        assertThat(ApiFailures.translate(ACTION, new ApiException(new ConnectException("Connection refused"))))
                .satisfies(failure -> {
                    assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
                    assertThat(failure.getMessage()).isEqualTo(ACTION + ": cannot connect (Connection refused)");
                });
        assertThat(ApiFailures.translate(ACTION, new SSLHandshakeException("bad certificate")).kind())
                .isEqualTo(Kind.UNAVAILABLE);
        assertThat(ApiFailures.translate(ACTION, new IOException("reset")).kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(ApiFailures.translate(ACTION, new ApiException("no cause")).kind()).isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void aModelThatRejectsTheResponseIsInvalidAndItsJsonIsNotQuoted() {
        String secretJson = "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
                + "\"data\":{\"token\":\"c3VwZXItc2VjcmV0\"},\"newField\":1}";
        assertThatThrownBy(() -> ApiFailures.call(ACTION, () -> JSON.deserialize(secretJson, V1Secret.class)))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> {
                    assertThat(failure.kind()).isEqualTo(Kind.INVALID);
                    assertThat(failure.getMessage())
                            .startsWith(ACTION + ": the response does not fit client-java's model")
                            .contains("newField")
                            .doesNotContain("c3VwZXItc2VjcmV0");
                    assertThat(failure.getCause()).isNull();
                });
    }

    @Test
    void aTransportFailureWithoutAMessageIsNamedByWhatHappenedNotByItsClass() {
        assertThat(ApiFailures.translate(ACTION, new java.io.EOFException()).getMessage())
                .isEqualTo(ACTION + ": connection failed (the connection ended early)");
        assertThat(ApiFailures.translate(ACTION, new ApiException((Throwable) null)).getMessage())
                .isEqualTo(ACTION + ": the call failed (no response)");
    }

    @Test
    void aServerThatRefusesDwdsClientCertificateIsUnauthorized() {
        ApiFailure failure = ApiFailures.translate(ACTION, new SSLHandshakeException("Received fatal alert: bad_certificate"));
        assertThat(failure.kind()).isEqualTo(Kind.UNAUTHORIZED);
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": the server refused dwd's client certificate (TLS alert"
                + " bad_certificate): check the kubeconfig's client-certificate-data");
    }

    @Test
    void otherHandshakeFailuresAreUnavailableInDwdsWords() {
        ApiFailure failure = ApiFailures.translate(ACTION, new SSLHandshakeException(
                "PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find"
                        + " valid certification path to requested target"));
        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(failure.getMessage()).isEqualTo(ACTION + ": the TLS handshake failed (PKIX path building failed:"
                + " unable to find valid certification path to requested target)");
    }

    @Test
    void anHtmlAnswerIsMalformedJsonSaidWithoutTheParsersClassOrAdvice() {
        assertThatThrownBy(() -> ApiFailures.call(ACTION, () -> com.google.gson.JsonParser.parseString(
                "<html><body>Service Unavailable</body></html>").getAsJsonObject()))
                .isInstanceOfSatisfying(ApiFailure.class, failure -> {
                    assertThat(failure.kind()).isEqualTo(Kind.INVALID);
                    assertThat(failure.getMessage()).startsWith(ACTION + ": the response is not the JSON expected: ")
                            .doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Za-z]").doesNotContain("JsonReader", "gson", "See http");
                });
        ApiFailure gson = ApiFailures.translate(ACTION, new JsonSyntaxException(new com.google.gson.stream.MalformedJsonException(
                "Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON at line 1 column 1 path $\n"
                        + "See https://github.com/google/gson/blob/main/Troubleshooting.md#malformed-json")));
        assertThat(gson.getMessage()).isEqualTo(ACTION + ": the response is not the JSON expected: malformed JSON at line 1,"
                + " column 1");
    }

    @Test
    void malformedJsonIsInvalid() {
        ApiFailure failure = ApiFailures.translate(ACTION, new JsonSyntaxException("Expected BEGIN_OBJECT but was STRING"));
        assertThat(failure.kind()).isEqualTo(Kind.INVALID);
        assertThat(failure.getMessage()).contains("not the JSON expected");
    }

    @Test
    void anApiFailureIsPassedOnUnchanged() {
        ApiFailure original = new ApiFailure(Kind.BAD_INPUT, "x");
        assertThat(ApiFailures.translate(ACTION, original)).isSameAs(original);
    }

    @Test
    void longStatusMessagesAreCut() {
        ApiFailure failure = ApiFailures.translate(ACTION, status(422, "Invalid", "x".repeat(1000)));
        assertThat(failure.getMessage().length()).isLessThan(ACTION.length() + 350);
    }

    @Test
    void aReadFailureTakesTheStatusMessageAndSaysWhatToDo() {
        ObjectReadException notFound = ApiFailures.readFailure("get widgets \"x\"",
                status(404, "NotFound", "widgets \\\"x\\\" not found"));
        assertThat(notFound.reason()).isEqualTo(Reason.NOT_FOUND);
        assertThat(notFound).hasMessage("cannot get widgets \"x\": 404 NotFound: widgets \"x\" not found");

        assertThat(ApiFailures.readFailure("get x", status(403, "Forbidden", "no")))
                .satisfies(e -> assertThat(e.reason()).isEqualTo(Reason.NOT_ALLOWED))
                .hasMessage("cannot get x: 403 Forbidden: no; the kubeconfig's user needs permission to get it");
        assertThat(ApiFailures.readFailure("get x", status(401, "Unauthorized", "no")))
                .satisfies(e -> assertThat(e.reason()).isEqualTo(Reason.NOT_ALLOWED))
                .hasMessageEndingWith("check the kubeconfig's user");
        assertThat(ApiFailures.readFailure("get x", new ApiException(new ConnectException("Connection refused"))))
                .satisfies(e -> assertThat(e.reason()).isEqualTo(Reason.UNAVAILABLE))
                .hasMessage("cannot get x: cannot connect (Connection refused);"
                        + " check the kubeconfig's server address and that the API server is up");
    }

    @Test
    void aReadFailureLeavesOutABodyThatIsNoStatus() {
        assertThat(ApiFailures.readFailure("get x", new ApiException("", 502, Map.of(), "upstream connect error\nmore")))
                .satisfies(e -> assertThat(e.reason()).isEqualTo(Reason.UNAVAILABLE))
                .hasMessageStartingWith("cannot get x: 502;")
                .hasMessageNotContaining("upstream");
    }
}
