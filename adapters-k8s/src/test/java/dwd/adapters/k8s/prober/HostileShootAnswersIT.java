package dwd.adapters.k8s.prober;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.ShootApiStub;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ApiFailure.Kind;
import dwd.application.port.out.ShootApi;
import dwd.adapters.k8s.testing.TestWatchReports;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a shoot's API server answers is read within bounds, through the shoot clients the prober
 * uses: a list beyond them is refused as a failed probe (BAD_INPUT, saying which bound), having read
 * little of it; a redirect is not followed; any Retry-After is a duration, however large.
 */
@WithLocalControlPlane
class HostileShootAnswersIT {

    private static final String SECRET = "shoot-access-dwd-probe";
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";

    private KubernetesShootClients shootClients;
    private String namespace;
    private ShootApiStub shoot;
    private LocalControlPlane controlPlane;

    @BeforeEach
    void setUp(LocalControlPlane controlPlane) throws IOException, ApiException {
        this.controlPlane = controlPlane;
        this.shootClients = new KubernetesShootClients(() -> controlPlane.newApiClient(Duration.ofSeconds(30)),
                UnaryOperator.identity(), TestWatchReports.create());
        this.namespace = controlPlane.createNamespace("shoot--hostile");
        this.shoot = new ShootApiStub();
        new CoreV1Api(controlPlane.apiClient()).createNamespacedSecret(namespace, new V1Secret()
                .metadata(new V1ObjectMeta().name(SECRET))
                .data(Map.of("kubeconfig", shoot.kubeconfig().getBytes(StandardCharsets.UTF_8))))
                .execute();
    }

    @AfterEach
    void tearDown() {
        shootClients.close();
        shoot.close();
    }

    private ApiFailure leaseListFailure(Function<String, ShootApiStub.Answer> leases) {
        shoot.answering(path -> path.equals(LEASES) ? leases.apply(path) : ShootApiStub.version());
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            api.nodeLeases();
        } catch (ApiFailure failure) {
            return failure;
        }
        throw new AssertionError("the lease list was read");
    }

    @Test
    void aFiftyMegabyteListOfNinetyFiveThousandLeasesIsRefusedAfterItsFirstTenThousand() {
        ApiFailure failure = leaseListFailure(path -> shoot.leaseFlood(95_000, 530));

        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("listing leases in kube-node-lease: refused: more than 10000 leases");
        // 10,000 leases are 5 MB; what the server got out beyond them sat in socket buffers when the call was cut.
        assertThat(shoot.bytesSent()).as("the rest of the 50 MB is not read").isLessThan(40L * 1024 * 1024);
    }

    @Test
    void aListWhoseEveryPageCarriesAContinueTokenIsRefusedAfterABoundedNumberOfPages() {
        ApiFailure failure = leaseListFailure(path -> ShootApiStub.endlessPages());

        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("more than " + BoundedList.MAX_PAGES + " pages of leases");
        assertThat(shoot.requests()).filteredOn(request -> request.contains(LEASES)).hasSize(BoundedList.MAX_PAGES);
    }

    @Test
    void whatAProbeKeepsOfAListIsBounded() {
        // 10,000 leases, each with a name of 1,000 characters: within the item bound, beyond what a probe keeps.
        ShootApiStub.Answer longNames = exchange -> {
            var leases = new java.util.LinkedHashMap<String, Instant>();
            for (int i = 0; i < 10_000; i++) {
                leases.put(String.format("%01000d", i), Instant.now());
            }
            ShootApiStub.leases(leases).answer(exchange);
        };
        ApiFailure failure = leaseListFailure(path -> longNames);

        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("what a probe keeps of the leases in kube-node-lease came to more than 16 MiB");
    }

    @Test
    void aStringLongerThanAnyKubernetesFieldIsRefusedBeforeItIsHeldAndOneSkippedIsNeverHeld() {
        String huge = "z".repeat(2 * 1024 * 1024);
        ApiFailure failure = leaseListFailure(path -> exchange -> ShootApiStub.leases(Map.of(huge, Instant.now())).answer(exchange));
        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("refused: the answer goes beyond what dwd reads")
                .contains("String value length");

        // The same string where the verdict reads nothing (an annotation of a node) is skipped unread.
        shoot.answering(path -> path.equals("/api/v1/nodes") ? exchange -> {
            byte[] body = ("{\"items\":[{\"metadata\":{\"name\":\"n1\",\"annotations\":{\"big\":\"" + huge
                    + "\"}}}]}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        } : ShootApiStub.version());
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThat(api.nodes()).singleElement().satisfies(node -> {
                assertThat(node.name()).isEqualTo("n1");
                assertThat(node.annotations()).isEmpty();
            });
        }
    }

    @Test
    void aListNestedDeeperThanAnyKubernetesObjectIsRefused() {
        ShootApiStub.Answer deep = exchange -> {
            byte[] body = ("{\"items\":[{\"metadata\":" + "{\"a\":".repeat(500) + "1" + "}".repeat(500) + "}]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        };
        ApiFailure failure = leaseListFailure(path -> deep);

        assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
        assertThat(failure.getMessage()).contains("nesting depth");
    }

    @Test
    void aLargeVersionAnswerAndALargeErrorBodyAreReadOnlyInPart() {
        shoot.answering(path -> shoot.largeBody(200, 10L * 1024 * 1024));
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            api.version();
            throw new AssertionError("a 10 MB version was read");
        } catch (ApiFailure failure) {
            assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
            assertThat(failure.getMessage()).contains("GET /version: refused: the answer is larger than 65536 bytes");
        }
        long afterVersion = shoot.bytesSent();
        assertThat(afterVersion).isLessThan(5L * 1024 * 1024);

        shoot.answering(path -> shoot.largeBody(503, 100L * 1024 * 1024));
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            api.version();
            throw new AssertionError("a 503 was taken for an answer");
        } catch (ApiFailure failure) {
            assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        }
        assertThat(shoot.bytesSent() - afterVersion).as("of a 100 MB error body").isLessThan(5L * 1024 * 1024);
    }

    @Test
    void aRedirectIsNotFollowed() throws IOException {
        try (var elsewhere = new ShootApiStub()) {
            elsewhere.answering(path -> ShootApiStub.version());
            shoot.answering(path -> ShootApiStub.redirect(elsewhere.url() + path));
            try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
                api.version();
                throw new AssertionError("the redirect was followed");
            } catch (ApiFailure failure) {
                assertThat(failure.kind()).isEqualTo(Kind.BAD_INPUT);
                assertThat(failure.getMessage()).contains("302").contains("a redirect, which dwd does not follow");
            }
            assertThat(elsewhere.requests()).as("nothing sent to where it pointed").isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775807", "99999999999999999999999999", "3155760000"})
    void anyRetryAfterIsADurationHoweverLarge(String retryAfter) {
        shoot.answering(path -> ShootApiStub.status(429, Map.of("Retry-After", retryAfter)));
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            api.version();
            throw new AssertionError("a 429 was taken for an answer");
        } catch (ApiFailure failure) {
            assertThat(failure.kind()).isEqualTo(Kind.THROTTLED);
            long seconds = retryAfter.length() > 19 ? Long.MAX_VALUE : Long.parseLong(retryAfter);
            assertThat(failure.retryAfter()).contains(Duration.ofSeconds(seconds));
        }
    }

    @Test
    void aHealthyShootStubIsReadAsAShoot() {
        shoot.answering(path -> switch (path) {
            case "/version" -> ShootApiStub.version();
            case "/api/v1/nodes" -> ShootApiStub.nodes(List.of("n1", "n2"));
            case LEASES -> ShootApiStub.leases(Map.of("n1", Instant.now(), "n2", Instant.now()));
            default -> ShootApiStub.status(404, Map.of());
        });
        try (ShootApi api = shootClients.open(namespace, SECRET, TIMEOUT)) {
            assertThat(api.version()).isEqualTo("v1.36.3");
            assertThat(api.nodes()).extracting(dwd.domain.lease.Node::name).containsExactly("n1", "n2");
            assertThat(api.nodeLeases()).hasSize(2).allSatisfy(lease -> assertThat(lease.renewTime()).isPresent());
        }
    }
}
