package dwd.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ProjectedToken;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-cluster configuration against the real API server, with bound service-account tokens in a
 * projected volume laid out as the kubelet lays it out: a rotated token is read within a minute, and at
 * once when the server refuses the old one (revoked), without a request failing. Which token a request
 * carried is told by the credential ID the server reports for it (SelfSubjectReview).
 */
@WithLocalControlPlane
class InClusterConfigIT {

    @Test
    void aRotatedTokenIsReadWithinAMinuteAndARevokedOneAtOnceWithoutAFailedRequest(LocalControlPlane controlPlane,
            @TempDir Path dir) throws Exception {
        String namespace = controlPlane.createNamespace("in-cluster");
        var volume = ProjectedToken.create(controlPlane, namespace, "dwd", dir.resolve("serviceaccount"));
        var clock = new SettableNanos();
        Map<String, String> environment = Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1",
                "KUBERNETES_SERVICE_PORT", String.valueOf(URI.create(controlPlane.server()).getPort()));
        InClusterConfig config = InClusterConfig.find(environment, volume.directory(), clock).orElseThrow();
        assertThat(config.server()).isEqualTo(controlPlane.server());
        var counted = new CountingCodes();
        ApiClient client = ApiClients.intercepting(counted).apply(config.newClient());

        String first = credentialOf(client);
        assertThat(whoAmI(client)).isEqualTo(volume.user());

        volume.rotate(); // the old token stays valid: only the minute tells the reader to look again
        clock.advance(Duration.ofSeconds(30));
        assertThat(credentialOf(client)).as("within a minute the token in hand is used").isEqualTo(first);
        clock.advance(Duration.ofSeconds(25));
        String second = credentialOf(client);
        assertThat(second).as("after 55 s the file is read again").isNotEqualTo(first);

        String old = volume.rotate();
        volume.revoke(old);
        String third = credentialOf(client); // at once: 401, the file read again, the request sent again
        assertThat(third).isNotEqualTo(second);
        assertThat(counted.unauthorized.get()).as("the request with the revoked token was answered 401").isEqualTo(1);
        assertThat(counted.answered.get() - counted.unauthorized.get()).as("every request ended 201 or 200")
                .isEqualTo(counted.succeeded.get());
        assertThat(credentialOf(config.newClient())).as("a client made later uses the current token").isEqualTo(third);
    }

    @Test
    void aTokenThatCannotBeReadIsReportedWithItsPathAndNothingStarts(LocalControlPlane controlPlane, @TempDir Path dir)
            throws IOException {
        Path directory = Files.createDirectories(dir.resolve("serviceaccount"));
        Files.write(directory.resolve("ca.crt"), controlPlane.certificateAuthority());
        Files.writeString(directory.resolve("token"), "  \n");
        Map<String, String> environment = Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", "6443");

        assertThatThrownBy(() -> InClusterConfig.find(environment, directory, System::nanoTime))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("service-account token " + directory.resolve("token") + " cannot be read: the file is empty");
        assertThat(InClusterConfig.find(Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1"), directory, System::nanoTime))
                .as("outside a pod (no port), as client-go").isEmpty();
    }

    /** The request's credential ID as the server saw it (a bound token's JTI). */
    private static String credentialOf(ApiClient client) throws IOException {
        return selfSubjectReview(client).getAsJsonObject("status").getAsJsonObject("userInfo").getAsJsonObject("extra")
                .getAsJsonArray("authentication.kubernetes.io/credential-id").get(0).getAsString();
    }

    private static String whoAmI(ApiClient client) throws IOException {
        return selfSubjectReview(client).getAsJsonObject("status").getAsJsonObject("userInfo").get("username").getAsString();
    }

    private static JsonObject selfSubjectReview(ApiClient client) throws IOException {
        var request = new Request.Builder().url(client.getBasePath() + "/apis/authentication.k8s.io/v1/selfsubjectreviews")
                .post(RequestBody.create("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}",
                        MediaType.get("application/json"))).build();
        try (Response response = client.getHttpClient().newCall(request).execute()) {
            assertThat(response.code()).as("SelfSubjectReview answered").isEqualTo(201);
            return JsonParser.parseString(response.body().string()).getAsJsonObject();
        }
    }

    /** Counts the answers seen below the token's interceptor (it is added first, so it runs first). */
    private static final class CountingCodes implements okhttp3.Interceptor {
        final AtomicInteger answered = new AtomicInteger();
        final AtomicInteger unauthorized = new AtomicInteger();
        final AtomicInteger succeeded = new AtomicInteger();

        @Override
        public Response intercept(Chain chain) throws IOException {
            Response response = chain.proceed(chain.request());
            answered.incrementAndGet();
            if (response.code() == 401) {
                unauthorized.incrementAndGet();
            } else if (response.isSuccessful()) {
                succeeded.incrementAndGet();
            }
            return response;
        }
    }

    /** A monotonic clock the test moves. */
    private static final class SettableNanos implements LongSupplier {
        private final AtomicLong nanos = new AtomicLong(123_456_789L);

        void advance(Duration duration) {
            nanos.addAndGet(duration.toNanos());
        }

        @Override
        public long getAsLong() {
            return nanos.get();
        }
    }
}
