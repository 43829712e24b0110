package dwd.adapters.k8s.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.V1BoundObjectReference;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;

/**
 * A service account's projected token volume as the kubelet keeps it: {@code token}, {@code ca.crt} and
 * {@code namespace} are symlinks into {@code ..data}, itself a symlink to a directory of the current
 * files; a rotation writes a new directory and swaps {@code ..data} in one rename. Each token is a bound
 * token (TokenRequest) tied to a Secret of its own, so deleting that Secret revokes it, as deleting its
 * pod would.
 */
public final class ProjectedToken {

    private static final AtomicInteger GENERATION = new AtomicInteger();

    private final ApiClient admin;
    private final String namespace;
    private final String serviceAccount;
    private final Path directory;
    private final byte[] certificateAuthority;
    private final String server;
    private final List<String> rotatedOut = new ArrayList<>();
    private String token;
    private String boundSecret;
    private Path currentData;

    private ProjectedToken(LocalControlPlane controlPlane, String namespace, String serviceAccount, Path directory) {
        this.admin = controlPlane.apiClient();
        this.namespace = namespace;
        this.serviceAccount = serviceAccount;
        this.directory = directory;
        this.certificateAuthority = controlPlane.certificateAuthority();
        this.server = controlPlane.server();
    }

    /**
     * Creates the service account (if missing) and the volume in {@code directory}, holding a first token
     * for it. The files are readable by everyone (Gardener's {@code defaultMode: 420}), so a container's
     * non-root user reads them.
     */
    public static ProjectedToken create(LocalControlPlane controlPlane, String namespace, String serviceAccount,
            Path directory) throws ApiException, IOException {
        var volume = new ProjectedToken(controlPlane, namespace, serviceAccount, directory);
        try {
            new CoreV1Api(volume.admin).createNamespacedServiceAccount(namespace,
                    new V1ServiceAccount().metadata(new V1ObjectMeta().name(serviceAccount))
                            .automountServiceAccountToken(false)).execute();
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        Files.createDirectories(directory);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String file : new String[] {"token", "ca.crt", "namespace"}) {
            Files.createSymbolicLink(directory.resolve(file), Path.of("..data", file));
        }
        volume.rotate();
        return volume;
    }

    /** The token the volume holds now. */
    public String token() {
        return token;
    }

    /** The service account's user name. */
    public String user() {
        return "system:serviceaccount:" + namespace + ":" + serviceAccount;
    }

    /** Writes a new token for the service account and swaps it in as the kubelet does; returns the old one. */
    public String rotate() throws ApiException, IOException {
        String old = token;
        String secret = serviceAccount + "-token-binding-" + GENERATION.incrementAndGet();
        V1Secret binding = new CoreV1Api(admin).createNamespacedSecret(namespace,
                new V1Secret().metadata(new V1ObjectMeta().name(secret)).type("Opaque")).execute();
        AuthenticationV1TokenRequest request = new CoreV1Api(admin).createNamespacedServiceAccountToken(serviceAccount,
                namespace, new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec()
                        .audiences(List.of())
                        .expirationSeconds(3600L)
                        .boundObjectRef(new V1BoundObjectReference().apiVersion("v1").kind("Secret").name(secret)
                                .uid(binding.getMetadata().getUid())))).execute();
        String fresh = request.getStatus().getToken();
        Path data = directory.resolve("..%d_%d".formatted(System.currentTimeMillis(), GENERATION.get()));
        Files.createDirectory(data);
        Files.writeString(data.resolve("token"), fresh);
        Files.write(data.resolve("ca.crt"), certificateAuthority);
        Files.writeString(data.resolve("namespace"), namespace);
        for (Path file : new Path[] {data, data.resolve("token"), data.resolve("ca.crt"), data.resolve("namespace")}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
                    Files.isDirectory(file) ? "rwxr-xr-x" : "rw-r--r--"));
        }
        Path link = directory.resolve("..data_tmp");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, data.getFileName());
        Files.move(link, directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (currentData != null) {
            for (String file : new String[] {"token", "ca.crt", "namespace"}) {
                Files.deleteIfExists(currentData.resolve(file));
            }
            Files.deleteIfExists(currentData);
        }
        currentData = data;
        String oldSecret = boundSecret;
        boundSecret = secret;
        token = fresh;
        if (oldSecret != null) {
            rotatedOut.add(oldSecret);
        }
        return old;
    }

    /**
     * Revokes every token rotated out so far (deletes the Secrets they are bound to); {@link #awaitRefused}
     * waits until the API server no longer accepts one.
     */
    public void revokeRotatedOut() throws ApiException {
        for (String secret : rotatedOut) {
            new CoreV1Api(admin).deleteNamespacedSecret(secret, namespace).execute();
        }
        rotatedOut.clear();
    }

    /** Waits until the API server refuses {@code token} (it caches a token's authentication for up to 10 s). */
    public void awaitRefused(String token) {
        ApiClient withToken = new ClientBuilder().setBasePath(server).setCertificateAuthority(certificateAuthority)
                .setAuthentication(new AccessTokenAuthentication(token)).build();
        Awaitility.await("the revoked token refused").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    try {
                        new VersionApi(withToken).getCode().execute();
                        return false;
                    } catch (ApiException e) {
                        return e.getCode() == 401;
                    }
                });
    }

    /** {@link #revokeRotatedOut()}, then {@link #awaitRefused} of {@code old}. */
    public void revoke(String old) throws ApiException {
        revokeRotatedOut();
        awaitRefused(old);
    }

    /** The directory's path, to mount at {@code /var/run/secrets/kubernetes.io/serviceaccount}. */
    public Path directory() {
        return directory;
    }

    /** The token file's text as a reader finds it through the symlinks. */
    public String readToken() throws IOException {
        return Files.readString(directory.resolve("token"), StandardCharsets.UTF_8);
    }
}
