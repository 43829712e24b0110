package dwd.bootstrap.seed;

import dwd.adapters.k8s.ClientSideThrottle;
import dwd.adapters.k8s.InClusterConfig;
import dwd.adapters.k8s.NoDelaySockets;
import dwd.adapters.k8s.input.TextInput;
import dwd.adapters.k8s.input.UnusableInput;
import dwd.adapters.k8s.input.YamlParsers;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.adapters.k8s.watch.WatchReports;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import okhttp3.OkHttpClient;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * How to reach the seed's API server, resolved in the original's order: the {@code --kubeconfig}
 * flag, then {@code $KUBECONFIG}, then the in-cluster service account (whose rotating token is read
 * again as client-go reads it: {@link InClusterConfig}), then {@code ~/.kube/config}. {@link #newClient()} gives every user its own client (watches need
 * their own, with read timeout 0; writers their own call timeouts).
 *
 * <p>A connection may be {@linkplain #throttledBy throttled}: its clients then share the client-side
 * rate limit, while {@link #exemptFromThrottling()} gives the same connection without it (the
 * prober's scaling must never queue behind reads). All clients of a connection report an
 * unreachable server to one {@link #outages() OutageLog}, and all its watches that they run to one
 * registry ({@link #watchReports()}).
 *
 * <p>The clients of a connection share one transport ({@link #onOneTransport}): HTTP/2 carries all their requests
 * and watches on one connection to the seed, with one reader thread and one ping, and sockets without Nagle's
 * algorithm; {@link #withOwnTransport()} gives a connection of its own (leader election's, so that its renewals never
 * share a connection's fate with the watches).
 *
 * <p>Every client pings its HTTP/2 connection every {@link #PING_INTERVAL}: a connection that went
 * silent without closing (a NAT or load balancer that lost its state) fails when a ping goes
 * unanswered until the next, within twice the interval, and the watches and writes on it go on over
 * a new one. client-java's default of a minute let a watch sit on a dead connection for two.
 */
public final class SeedConnection implements Supplier<ApiClient> {

    /** As often as client-go checks an idle HTTP/2 connection (its 30 s read-idle timeout, halved). */
    static final Duration PING_INTERVAL = Duration.ofSeconds(15);

    private final String source;
    /** Builds a client on a transport of its own; {@link #withOwnTransport()} starts from it. */
    private final Supplier<ApiClient> separate;
    private final Supplier<ApiClient> factory;
    private final Supplier<ApiClient> unthrottled;
    private final WatchReports reports;

    private SeedConnection(String source, String server, Supplier<ApiClient> separate) {
        this(source, new WatchReports(new OutageLog("seed API server " + server)), separate);
    }

    /** Every client notes in the reports' OutageLog whether its calls are answered, and pings its connection. */
    private SeedConnection(String source, WatchReports reports, Supplier<ApiClient> separate) {
        this(source, separate, onOneTransport(separate), reports);
    }

    private SeedConnection(String source, Supplier<ApiClient> separate, Supplier<ApiClient> shared, WatchReports reports) {
        this(source, separate, () -> reports.outages().detecting().apply(pinging(shared.get())),
                () -> reports.outages().detecting().apply(pinging(shared.get())), reports);
    }

    /**
     * Clients of {@code separate} that share the first one's transport: its connection pool, dispatcher, TLS settings
     * and sockets (without Nagle's algorithm, {@link NoDelaySockets}), so that OkHttp puts them on one HTTP/2
     * connection. Each client keeps its own timeouts and interceptors.
     */
    static Supplier<ApiClient> onOneTransport(Supplier<ApiClient> separate) {
        var transport = new AtomicReference<OkHttpClient>();
        return () -> {
            ApiClient client = separate.get();
            OkHttpClient shared = transport.updateAndGet(first -> first != null ? first
                    : client.getHttpClient().newBuilder().socketFactory(NoDelaySockets.SHARED).build());
            client.setHttpClient(shared.newBuilder().build());
            return client;
        };
    }

    /** The same seed on a transport of its own (the same reports and outages), undecorated. */
    public SeedConnection withOwnTransport() {
        return new SeedConnection(source, reports, separate);
    }

    private static ApiClient pinging(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().pingInterval(PING_INTERVAL).build());
        return client;
    }

    private SeedConnection(String source, Supplier<ApiClient> separate, Supplier<ApiClient> factory,
            Supplier<ApiClient> unthrottled, WatchReports reports) {
        this.source = source;
        this.separate = separate;
        this.factory = factory;
        this.unthrottled = unthrottled;
        this.reports = reports;
    }

    /** Where the configuration came from, for the start-up log. */
    public String source() {
        return source;
    }

    public ApiClient newClient() {
        return factory.get();
    }

    /** The same seed, with {@code decoration} applied to every client made (metering, user agent). */
    public SeedConnection decorated(UnaryOperator<ApiClient> decoration) {
        return new SeedConnection(source, separate, () -> decoration.apply(factory.get()),
                () -> decoration.apply(unthrottled.get()), reports);
    }

    /** The same seed, whose clients all take their requests' tokens from {@code throttle}. */
    public SeedConnection throttledBy(ClientSideThrottle throttle) {
        UnaryOperator<ApiClient> applied = throttle.applied();
        return new SeedConnection(source, separate, () -> applied.apply(factory.get()), unthrottled, reports);
    }

    /** The same seed without the client-side rate limit (other decorations kept). */
    public SeedConnection exemptFromThrottling() {
        return new SeedConnection(source, separate, unthrottled, unthrottled, reports);
    }

    /** Where every watch and background call to this seed reports an unreachable server: one per process. */
    public OutageLog outages() {
        return reports.outages();
    }

    /** Where every watch of this seed reports an unreachable server and that it runs: one per process. */
    public WatchReports watchReports() {
        return reports;
    }

    @Override
    public ApiClient get() {
        return newClient();
    }

    /**
     * Resolves the seed connection.
     *
     * @throws IllegalArgumentException naming the source and what is wrong with it
     */
    public static SeedConnection resolve(String kubeconfigFlag, Map<String, String> environment, Path home) {
        if (!kubeconfigFlag.isBlank()) {
            return fromFile(Path.of(kubeconfigFlag), "--kubeconfig " + kubeconfigFlag);
        }
        String fromEnvironment = environment.getOrDefault("KUBECONFIG", "");
        if (!fromEnvironment.isBlank()) {
            // Like client-go, take the first file of a path list that exists.
            for (String candidate : fromEnvironment.split(java.io.File.pathSeparator)) {
                if (!candidate.isBlank() && Files.isRegularFile(Path.of(candidate))) {
                    return fromFile(Path.of(candidate), "$KUBECONFIG " + candidate);
                }
            }
            throw new IllegalArgumentException("$KUBECONFIG=" + fromEnvironment + " names no readable file");
        }
        var inCluster = InClusterConfig.find(environment, InClusterConfig.SERVICE_ACCOUNT, System::nanoTime);
        if (inCluster.isPresent()) {
            InClusterConfig config = inCluster.get();
            return new SeedConnection("in-cluster service account", config.server(), config::newClient);
        }
        Path defaultFile = home.resolve(".kube").resolve("config");
        if (Files.isRegularFile(defaultFile)) {
            return fromFile(defaultFile, defaultFile.toString());
        }
        throw new IllegalArgumentException("no seed cluster configured: pass --kubeconfig, set $KUBECONFIG, run in a"
                + " cluster, or create " + defaultFile);
    }

    private static SeedConnection fromFile(Path file, String source) {
        // Parse once now so that a broken file is reported at start-up, not at the first call.
        String server = load(file, source).getServer();
        return new SeedConnection(source, server, () -> {
            try {
                return ClientBuilder.kubeconfig(load(file, source)).build();
            } catch (IOException e) {
                throw new IllegalStateException(source + ": credentials cannot be read: " + e.getMessage(), e);
            }
        });
    }

    private static KubeConfig load(Path file, String source) {
        String text;
        try {
            text = TextInput.read(file, TextInput.KUBECONFIG);
            YamlParsers.readThrough(text);
        } catch (UnusableInput e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        try {
            KubeConfig config = KubeConfig.loadKubeConfig(new StringReader(text));
            if (config == null) {
                throw new IllegalArgumentException(source + ": the file holds no kubeconfig");
            }
            config.setFile(file.toFile()); // relative certificate paths resolve against the file
            if (config.getServer() == null) {
                throw new IllegalArgumentException(source + ": the current context has no cluster server");
            }
            return config;
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException illegal && illegal.getMessage().startsWith(source)) {
                throw illegal;
            }
            throw new IllegalArgumentException(source + ": not a usable kubeconfig: " + e.getMessage(), e);
        }
    }
}
