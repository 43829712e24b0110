package dwd.bootstrap.training;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A seed and a shoot in one, on loopback, for the AOT cache's training run ({@code dwd aot-training}): an HTTPS
 * server answering what the roles ask at their start and in their first work with fixed objects. One shoot
 * ({@link #NAMESPACE}) with a Cluster, its access secret (a kubeconfig back to this server), three healthy nodes
 * with fresh leases and Machines, and Gardener's three dependents; a ready {@code etcd-main-client} EndpointSlice and
 * a crash-looping kube-apiserver pod. Leases (leader election) are kept as written; every watch stays open and
 * silent; anything else gets an empty list or 404. Not a test double for behaviour: nothing here checks a request.
 */
public final class TrainingSeed implements AutoCloseable {

    public static final String NAMESPACE = "shoot--dwd--training";
    /** The child's first line: this prefix and the kubeconfig, base64. */
    public static final String KUBECONFIG_LINE = "KUBECONFIG ";
    /** Then a line per kind of request answered: this prefix and {@code METHOD /path} ({@code WATCH /path}). */
    public static final String SAW_LINE = "SAW ";
    private static final String TOKEN = "dwd-training";
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);
    private static final String[] NODES = {"node-a", "node-b", "node-c"};

    private final HttpsServer server;
    private final String caPem;
    private final Map<String, String> leases = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong(1000);
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closed = new CountDownLatch(1);

    TrainingSeed() throws Exception {
        Pki pki = Pki.create();
        this.caPem = pki.caPem();
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setHttpsConfigurator(new HttpsConfigurator(pki.context()));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (exchange) {
                answer(exchange);
            } catch (IOException | RuntimeException gone) {
                // the client went away (a role stopping): nothing to answer
            }
        });
        server.start();
    }

    /** A kubeconfig reaching this server: the seed's, and the shoot's in its access secret. */
    String kubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                current-context: training
                clusters:
                - name: training
                  cluster:
                    server: https://127.0.0.1:%d
                    certificate-authority-data: %s
                contexts:
                - name: training
                  context: {cluster: training, user: training}
                users:
                - name: training
                  user: {token: %s}
                """.formatted(server.getAddress().getPort(),
                Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII)), TOKEN);
    }

    /**
     * The child process's work: serves the seed, prints its kubeconfig and each kind of request as it is first
     * answered on standard output, and returns once standard input ends (the training process is gone).
     */
    public static int serve() throws Exception {
        var seed = new TrainingSeed();
        synchronized (System.out) {
            System.out.println(KUBECONFIG_LINE + Base64.getEncoder().encodeToString(
                    seed.kubeconfig().getBytes(StandardCharsets.UTF_8)));
            System.out.flush();
        }
        System.in.transferTo(OutputStream.nullOutputStream());
        seed.close();
        return 0;
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath().replaceAll("(?<=.)/+$", "");
        String query = String.valueOf(exchange.getRequestURI().getRawQuery());
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(1 << 20);
        }
        boolean watch = query.contains("watch=true");
        String kind = (watch ? "WATCH" : method) + " " + path;
        if (seen.add(kind)) {
            synchronized (System.out) {
                System.out.println(SAW_LINE + kind);
                System.out.flush();
            }
        }
        if (watch) {
            hold(exchange);
            return;
        }
        String[] parts = path.substring(1).split("/");
        String resource = resourceOf(parts);
        switch (method) {
            case "GET" -> get(exchange, path, parts, resource, query);
            case "POST" -> created(exchange, resource, new String(body, StandardCharsets.UTF_8), parts);
            case "PUT" -> {
                String object = withVersion(new String(body, StandardCharsets.UTF_8));
                if (resource.equals("leases")) {
                    leases.put(path, object);
                }
                json(exchange, 200, object);
            }
            case "DELETE" -> json(exchange, 200, pod());
            case "PATCH" -> json(exchange, 200, deployment(parts[parts.length - 1]));
            default -> json(exchange, 405, status(405));
        }
    }

    private void get(HttpExchange exchange, String path, String[] parts, String resource, String query)
            throws IOException {
        if (path.equals("/version")) {
            json(exchange, 200, "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\"v1.36.3\"}");
            return;
        }
        boolean named = isNamed(parts);
        if (named) {
            String object = switch (resource) {
                case "leases" -> leases.get(path);
                case "secrets" -> secret();
                case "deployments" -> deployment(parts[parts.length - 1]);
                default -> null;
            };
            json(exchange, object == null ? 404 : 200, object == null ? status(404) : object);
            return;
        }
        String items = switch (resource) {
            case "clusters" -> cluster();
            case "machines" -> String.join(",", java.util.Arrays.stream(NODES).map(TrainingSeed::machine).toList());
            case "secrets" -> secret();
            case "deployments" -> query.contains("metadata.name%3D") || query.contains("metadata.name=")
                    ? deployment(query.replaceAll(".*metadata\\.name(%3D|=)([a-z-]+).*", "$2")) : "";
            case "endpointslices" -> slice();
            case "pods" -> pod();
            case "nodes" -> String.join(",", java.util.Arrays.stream(NODES).map(TrainingSeed::node).toList());
            case "leases" -> path.contains("/kube-node-lease/")
                    ? String.join(",", java.util.Arrays.stream(NODES).map(TrainingSeed::nodeLease).toList()) : "";
            default -> "";
        };
        json(exchange, 200, "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\""
                + version.incrementAndGet() + "\"},\"items\":[" + items + "]}");
    }

    private void created(HttpExchange exchange, String resource, String body, String[] parts) throws IOException {
        if (resource.equals("selfsubjectaccessreviews")) {
            json(exchange, 201, "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
                    + "\"status\":{\"allowed\":true}}");
            return;
        }
        String object = withVersion(body);
        if (resource.equals("leases")) {
            String name = object.replaceAll("(?s).*\"name\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            leases.put("/" + String.join("/", parts) + "/" + name, object);
        }
        json(exchange, 201, object);
    }

    /** A watch: answered, then silent until the role or the run ends. */
    private void hold(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.flush();
        try {
            closed.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code namespaces/x/leases/y} → leases; a subresource counts as its resource. */
    private static String resourceOf(String[] parts) {
        for (int i = parts.length - 1; i >= 0; i--) {
            if (Set.of("leases", "secrets", "deployments", "statefulsets", "clusters", "machines", "endpointslices",
                    "pods", "nodes", "events", "selfsubjectaccessreviews").contains(parts[i])) {
                return parts[i];
            }
        }
        return "";
    }

    /** Whether the path names one object: a name follows the resource. */
    private static boolean isNamed(String[] parts) {
        String resource = resourceOf(parts);
        for (int i = 0; i < parts.length - 1; i++) {
            if (parts[i].equals(resource)) {
                return true;
            }
        }
        return false;
    }

    private String withVersion(String object) {
        return object.replaceFirst("\"metadata\"\\s*:\\s*\\{", "\"metadata\":{\"resourceVersion\":\""
                + version.incrementAndGet() + "\",\"uid\":\"" + java.util.UUID.randomUUID() + "\",");
    }

    private static String status(int code) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + code + "}";
    }

    private static String now() {
        return MICRO_TIME.format(Instant.now());
    }

    private static String cluster() {
        return """
                {"apiVersion":"extensions.gardener.cloud/v1alpha1","kind":"Cluster","metadata":{"name":"%1$s",\
                "resourceVersion":"10"},"spec":{"shoot":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot",\
                "metadata":{"name":"training"},"spec":{"hibernation":{"enabled":false},"provider":{"workers":[\
                {"name":"pool-a"}]}},"status":{"hibernated":false,"lastOperation":{"type":"Reconcile",\
                "state":"Succeeded"}}}}}""".formatted(NAMESPACE);
    }

    private String secret() {
        return """
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"shoot-access-dependency-watchdog-probe",\
                "namespace":"%s","resourceVersion":"11"},"data":{"kubeconfig":"%s"}}""".formatted(NAMESPACE,
                Base64.getEncoder().encodeToString(kubeconfig().getBytes(StandardCharsets.UTF_8)));
    }

    private static String deployment(String name) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","namespace":"%s",\
                "resourceVersion":"12"},"spec":{"replicas":1},"status":{"replicas":1,"readyReplicas":1}}"""
                .formatted(name, NAMESPACE);
    }

    private static String machine(String node) {
        return """
                {"apiVersion":"machine.sapcloud.io/v1alpha1","kind":"Machine","metadata":{"name":"machine-%1$s",\
                "namespace":"%2$s","labels":{"node":"%1$s"}},"status":{"currentStatus":{"phase":"Running"}}}"""
                .formatted(node, NAMESPACE);
    }

    private static String node(String name) {
        return """
                {"metadata":{"name":"%s","labels":{"worker.gardener.cloud/pool":"pool-a"}},"status":{"conditions":[\
                {"type":"Ready","status":"True","reason":"KubeletReady"}]}}""".formatted(name);
    }

    private static String nodeLease(String name) {
        return """
                {"metadata":{"name":"%s","namespace":"kube-node-lease"},"spec":{"holderIdentity":"%1$s",\
                "leaseDurationSeconds":40,"renewTime":"%s"}}""".formatted(name, now());
    }

    private static String slice() {
        return """
                {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"etcd-main-client-abc",\
                "namespace":"%s","resourceVersion":"13","labels":{"kubernetes.io/service-name":"etcd-main-client"}},\
                "addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true}}]}"""
                .formatted(NAMESPACE);
    }

    private static String pod() {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"kube-apiserver-0","namespace":"%s",\
                "uid":"7a0c5e4e-0000-4000-8000-000000000001","resourceVersion":"14","labels":{"gardener.cloud/role":\
                "controlplane","role":"apiserver"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",\
                "name":"kube-apiserver-7d9f","uid":"7a0c5e4e-0000-4000-8000-000000000002","controller":true}]},\
                "status":{"containerStatuses":[{"name":"kube-apiserver","state":{"waiting":{"reason":\
                "CrashLoopBackOff"}}}]}}""".formatted(NAMESPACE);
    }

    private static void json(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** A CA and a serving certificate for 127.0.0.1, made at start (RSA 2048, as a kube-apiserver's). */
    private record Pki(SSLContext context, String caPem) {

        static Pki create() throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair caKeys = generator.generateKeyPair();
            KeyPair serverKeys = generator.generateKeyPair();
            Instant now = Instant.now();
            Date from = Date.from(now.minus(Duration.ofDays(1)));
            Date until = Date.from(now.plus(Duration.ofDays(1)));
            var caName = new X500Name("CN=dwd-training-ca");
            var converter = new JcaX509CertificateConverter();
            X509Certificate ca = converter.getCertificate(new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, from,
                    until, caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
            X509Certificate serving = converter.getCertificate(new JcaX509v3CertificateBuilder(caName, BigInteger.TWO,
                    from, until, new X500Name("CN=127.0.0.1"), serverKeys.getPublic())
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
                            new GeneralName(GeneralName.iPAddress, "127.0.0.1")))
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = "training".toCharArray();
            store.setKeyEntry("serving", serverKeys.getPrivate(), password, new X509Certificate[] {serving, ca});
            var keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, new SecureRandom());
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(ca.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            return new Pki(context, pem);
        }
    }
}
