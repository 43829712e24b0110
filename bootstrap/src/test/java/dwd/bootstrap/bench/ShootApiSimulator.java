package dwd.bootstrap.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The API servers of many shoots in one process, for the scale benchmark: one TLS port on loopback,
 * each shoot told apart by its bearer token. It answers what a probe reads ({@code GET /version},
 * the node list, the leases in {@code kube-node-lease}, and the discovery documents a client-go
 * client reads to find nodes and leases) with Kubernetes JSON, and 401 or 404 to anything else.
 * Every shoot has the same number of nodes; each node's kubelet renews its lease every 10 s at a
 * phase of its own, until {@link #expire} stops the kubelets of some shoots ({@link #resume} starts
 * them again). It records when each shoot's lease list was asked for: what a shoot sees of its probes.
 * It also serves watches of the leases ({@code watch=true}): a MODIFIED event at each kubelet's renewal, a
 * bookmark every minute, until the watch's {@code timeoutSeconds}; it records when each was asked for.
 *
 * <p>HTTP/1.1 with keep-alive, one virtual thread per connection. It counts connections (each is
 * one TLS handshake) and requests, so the benchmark can tell how many handshakes a probe run costs.
 * Certificates: a CA and a serving certificate for 127.0.0.1 (RSA 2048), made at start.
 */
final class ShootApiSimulator implements ShootApis {

    /** How often a kubelet renews its node lease (a lease duration of 40 s / 4, as kubelets do). */
    static final Duration RENEW_INTERVAL = Duration.ofSeconds(10);
    /** A watch looks at its shoot's kubelets this often, so one that resumes is seen within it. */
    private static final Duration WATCH_TICK = Duration.ofMillis(20);
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);
    private static final byte[] VERSION = """
            {"major":"1","minor":"31","gitVersion":"v1.31.4","gitCommit":"a78aa47129b8539636eb86a9d00e31b2720fe06b",\
            "gitTreeState":"clean","buildDate":"2024-12-10T11:36:09Z","goVersion":"go1.22.9","compiler":"gc",\
            "platform":"linux/amd64"}""".getBytes(StandardCharsets.UTF_8);
    /** Discovery, for clients that resolve a resource's path before they list it (client-go's REST mapper). */
    private static final Map<String, byte[]> DISCOVERY = Map.of(
            "/api", """
                    {"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0",\
                    "serverAddress":"127.0.0.1:443"}]}""".getBytes(StandardCharsets.UTF_8),
            "/apis", """
                    {"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"coordination.k8s.io",\
                    "versions":[{"groupVersion":"coordination.k8s.io/v1","version":"v1"}],\
                    "preferredVersion":{"groupVersion":"coordination.k8s.io/v1","version":"v1"}}]}"""
                    .getBytes(StandardCharsets.UTF_8),
            "/api/v1", """
                    {"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"nodes","singularName":"node",\
                    "namespaced":false,"kind":"Node","verbs":["get","list","watch"],"shortNames":["no"]}]}"""
                    .getBytes(StandardCharsets.UTF_8),
            "/apis/coordination.k8s.io/v1", """
                    {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"coordination.k8s.io/v1","resources":[\
                    {"name":"leases","singularName":"lease","namespaced":true,"kind":"Lease",\
                    "verbs":["get","list","watch"]}]}""".getBytes(StandardCharsets.UTF_8));

    private final int shoots;
    private final int nodesPerShoot;
    private final Duration latency;
    private final Map<String, Integer> shootByToken = new HashMap<>();
    private final String[] tokens;
    /** Per shoot and node: the kubelet's phase within {@link #RENEW_INTERVAL}, in ms. */
    private final long[][] phases;
    /** Per shoot: the rendered node list (built on first request; it never changes). */
    private final byte[][] nodeLists;
    /** Shoots whose kubelets stopped, with the renew times their leases keep. */
    private final Map<Integer, List<Instant>> frozen = new ConcurrentHashMap<>();
    /** Shoots whose kubelets started again after they had stopped, and since when. */
    private final Map<Integer, Instant> resumed = new ConcurrentHashMap<>();
    /** Per shoot: when its lease list was asked for (epoch ms), in order. */
    private final List<List<Long>> leaseListArrivals;
    /** Per shoot: when a watch of its leases was asked for (epoch ms), in order. */
    private final List<List<Long>> leaseWatchArrivals;
    /** Paths asked for that the simulator does not serve (a client asking for something it should not need). */
    private final Map<String, Long> unknownPaths = new ConcurrentHashMap<>();
    private final String caPem;
    private final SSLServerSocket server;
    private final Thread acceptor;
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final List<Socket> open = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile boolean closed;

    /**
     * Starts serving.
     *
     * @param latency added before every answer (a network and API server's own time)
     */
    ShootApiSimulator(int shoots, int nodesPerShoot, Duration latency) throws Exception {
        this.shoots = shoots;
        this.nodesPerShoot = nodesPerShoot;
        this.latency = latency;
        this.tokens = new String[shoots];
        this.phases = new long[shoots][nodesPerShoot];
        this.nodeLists = new byte[shoots][];
        this.leaseListArrivals = new ArrayList<>(shoots);
        this.leaseWatchArrivals = new ArrayList<>(shoots);
        for (int shoot = 0; shoot < shoots; shoot++) {
            leaseListArrivals.add(new ArrayList<>());
            leaseWatchArrivals.add(new ArrayList<>());
        }
        var random = new SplittableRandom(20_261_121);
        var secure = new SecureRandom();
        for (int shoot = 0; shoot < shoots; shoot++) {
            byte[] secret = new byte[16];
            secure.nextBytes(secret);
            tokens[shoot] = "shoot-" + shoot + "-" + HexFormat.of().formatHex(secret);
            shootByToken.put(tokens[shoot], shoot);
            for (int node = 0; node < nodesPerShoot; node++) {
                phases[shoot][node] = random.nextLong(RENEW_INTERVAL.toMillis());
            }
        }
        var pki = Pki.create();
        this.caPem = pki.caPem();
        this.server = (SSLServerSocket) pki.context().getServerSocketFactory()
                .createServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().name("shoot-api-accept").daemon().start(this::acceptLoop);
    }

    /** A self-contained kubeconfig for shoot {@code shoot}: this server, its CA and the shoot's token. */
    @Override
    public String kubeconfig(int shoot) {
        return """
                apiVersion: v1
                kind: Config
                current-context: shoot
                clusters:
                - name: shoot
                  cluster:
                    server: https://127.0.0.1:%d
                    certificate-authority-data: %s
                contexts:
                - name: shoot
                  context: {cluster: shoot, user: dwd}
                users:
                - name: dwd
                  user:
                    token: %s
                """.formatted(server.getLocalPort(),
                Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII)), tokens[shoot]);
    }

    /** The node names of shoot {@code shoot} (the seed's Machines carry them in their {@code node} label). */
    @Override
    public List<String> nodes(int shoot) {
        var names = new ArrayList<String>(nodesPerShoot);
        for (int node = 0; node < nodesPerShoot; node++) {
            names.add(nodeName(shoot, node));
        }
        return names;
    }

    /**
     * Stops the kubelets of these shoots at {@code at}: their leases keep the last renew time before
     * it for good.
     *
     * @return per shoot, the renew times its leases keep
     */
    @Override
    public Map<Integer, List<Instant>> expire(List<Integer> shootsToExpire, Instant at) {
        var renewTimes = new HashMap<Integer, List<Instant>>();
        for (int shoot : shootsToExpire) {
            var times = new ArrayList<Instant>(nodesPerShoot);
            for (int node = 0; node < nodesPerShoot; node++) {
                times.add(lastRenewal(shoot, node, at));
            }
            resumed.remove(shoot);
            frozen.put(shoot, List.copyOf(times));
            renewTimes.put(shoot, List.copyOf(times));
        }
        return renewTimes;
    }

    /**
     * Starts the stopped kubelets of these shoots again at {@code at}: each renews its lease at its next
     * beat from then on.
     *
     * @return per shoot, the instants its leases are renewed first
     */
    Map<Integer, List<Instant>> resume(List<Integer> shootsToResume, Instant at) {
        var firstRenewals = new HashMap<Integer, List<Instant>>();
        for (int shoot : shootsToResume) {
            var times = new ArrayList<Instant>(nodesPerShoot);
            for (int node = 0; node < nodesPerShoot; node++) {
                Instant last = lastRenewal(shoot, node, at);
                times.add(last.equals(at) ? last : last.plus(RENEW_INTERVAL));
            }
            resumed.put(shoot, at);
            firstRenewals.put(shoot, List.copyOf(times));
        }
        return firstRenewals;
    }

    /** When shoot {@code shoot}'s lease list was asked for, in epoch milliseconds, in order. */
    List<Long> leaseListArrivals(int shoot) {
        List<Long> arrivals = leaseListArrivals.get(shoot);
        synchronized (arrivals) {
            return List.copyOf(arrivals);
        }
    }

    /** When a watch of shoot {@code shoot}'s leases was asked for, in epoch milliseconds, in order. */
    List<Long> leaseWatchArrivals(int shoot) {
        List<Long> arrivals = leaseWatchArrivals.get(shoot);
        synchronized (arrivals) {
            return List.copyOf(arrivals);
        }
    }

    /** Paths asked for that the simulator answered with 404, and how often. */
    Map<String, Long> unknownPaths() {
        return Map.copyOf(unknownPaths);
    }

    /** Connections accepted with a completed TLS handshake, since the start. */
    @Override
    public long handshakes() {
        return connections.get();
    }

    /** Requests answered, since the start. */
    long requests() {
        return requests.get();
    }

    @Override
    public List<Long> pids() {
        return List.of();
    }

    @Override
    public String describe() {
        return "simulated (one TLS port for " + shoots + " shoots, " + nodesPerShoot + " nodes each, latency "
                + latency.toMillis() + " ms)";
    }

    private Instant lastRenewal(int shoot, int node, Instant now) {
        long millis = now.toEpochMilli();
        long sinceRenewal = Math.floorMod(millis + phases[shoot][node], RENEW_INTERVAL.toMillis());
        return Instant.ofEpochMilli(millis - sinceRenewal);
    }

    private static String nodeName(int shoot, int node) {
        return String.format(Locale.ROOT, "shoot-%05d-node-%d", shoot, node);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().name("shoot-api-conn").start(() -> serve((SSLSocket) socket));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("shoot API simulator: accept failed: " + e);
                }
            }
        }
    }

    private void serve(SSLSocket socket) {
        open.add(socket);
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(120_000);
            socket.startHandshake();
            connections.incrementAndGet();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (!closed) {
                Request request = Request.read(in);
                if (request == null) {
                    return;
                }
                requests.incrementAndGet();
                if (latency.isPositive()) {
                    LockSupport.parkNanos(latency.toNanos());
                }
                if (request.watch()) {
                    watch(request, out);
                    return; // a watch ends its connection (the client's next request opens another)
                }
                respond(request, out);
                if (request.closeAfter()) {
                    return;
                }
            }
        } catch (IOException ignored) {
            // the client went away: nothing to answer
        } finally {
            open.remove(socket);
        }
    }

    private void respond(Request request, OutputStream out) throws IOException {
        Integer shoot = request.token() == null ? null : shootByToken.get(request.token());
        if (shoot == null) {
            write(out, 401, status(401, "Unauthorized", "Unauthorized"), request.closeAfter());
            return;
        }
        String path = request.path().endsWith("/") ? request.path().substring(0, request.path().length() - 1)
                : request.path();
        if (path.equals("/version")) {
            write(out, 200, VERSION, request.closeAfter());
        } else if (path.equals("/api/v1/nodes")) {
            write(out, 200, nodeList(shoot), request.closeAfter());
        } else if (path.equals("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases")) {
            List<Long> arrivals = leaseListArrivals.get(shoot);
            synchronized (arrivals) {
                arrivals.add(System.currentTimeMillis());
            }
            write(out, 200, leaseList(shoot, Instant.now()), request.closeAfter());
        } else if (DISCOVERY.containsKey(path)) {
            write(out, 200, DISCOVERY.get(path), request.closeAfter());
        } else {
            unknownPaths.merge(path, 1L, Long::sum);
            write(out, 404, status(404, "NotFound", "the server could not find the requested resource"),
                    request.closeAfter());
        }
    }

    /**
     * A watch of a shoot's leases: a MODIFIED event at every renewal (none while its kubelets are stopped), a
     * bookmark a minute, as chunks, until {@code timeoutSeconds} (at most 10 minutes) or the client leaves.
     */
    private void watch(Request request, OutputStream out) throws IOException {
        Integer shoot = request.token() == null ? null : shootByToken.get(request.token());
        if (shoot == null || !request.path().equals("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases")) {
            unknownPaths.merge(request.path() + "?watch", 1L, Long::sum);
            write(out, shoot == null ? 401 : 404, status(404, "NotFound", "not served"), true);
            return;
        }
        List<Long> arrivals = leaseWatchArrivals.get(shoot);
        synchronized (arrivals) {
            arrivals.add(System.currentTimeMillis());
        }
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Instant end = Instant.now().plusSeconds(Math.min(600, Math.max(1, request.timeoutSeconds())));
        Instant nextBookmark = Instant.now().plusSeconds(60);
        Instant from = Instant.now();
        while (!closed) {
            // The next renewal of any of the shoot's kubelets after `from`, if they run.
            Instant next = end;
            int renewing = -1;
            for (int node = 0; node < nodesPerShoot; node++) {
                Instant renewal = nextRenewal(shoot, node, from);
                if (renewal != null && renewal.isBefore(next)) {
                    next = renewal;
                    renewing = node;
                }
            }
            if (nextBookmark.isBefore(next)) {
                next = nextBookmark;
                renewing = -2;
            }
            long wait = Duration.between(Instant.now(), next).toNanos();
            if (wait > WATCH_TICK.toNanos()) {
                LockSupport.parkNanos(WATCH_TICK.toNanos()); // kubelets may start again meanwhile: look again
                continue;
            }
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (next.equals(end) && renewing == -1) {
                break;
            }
            String event = renewing == -2
                    ? "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Lease\",\"apiVersion\":\"coordination.k8s.io/v1\","
                            + "\"metadata\":{\"resourceVersion\":\"" + next.toEpochMilli() + "\"}}}\n"
                    : "{\"type\":\"MODIFIED\",\"object\":" + NodeJson.lease(nodeName(shoot, renewing),
                            MICRO_TIME.format(next)).replaceFirst("\"resourceVersion\":\"\\d+\"",
                            "\"resourceVersion\":\"" + next.toEpochMilli() + "\"") + "}\n";
            if (renewing == -2) {
                nextBookmark = next.plusSeconds(60);
            }
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            from = next.plusMillis(1);
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** A kubelet's first renewal at or after {@code from}; null while its kubelet is stopped for good. */
    private Instant nextRenewal(int shoot, int node, Instant from) {
        Instant last = lastRenewal(shoot, node, from);
        Instant next = last.equals(from) ? last : last.plus(RENEW_INTERVAL);
        if (frozen.containsKey(shoot)) {
            Instant resumedAt = resumed.get(shoot);
            if (resumedAt == null) {
                return null;
            }
            while (next.isBefore(resumedAt)) {
                next = next.plus(RENEW_INTERVAL);
            }
        }
        return next;
    }

    private static void write(OutputStream out, int code, byte[] body, boolean close) throws IOException {
        String head = "HTTP/1.1 " + code + (code == 200 ? " OK" : code == 401 ? " Unauthorized" : " Not Found")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                + (close ? "\r\nConnection: close" : "") + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    private static byte[] status(int code, String reason, String message) {
        return ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}").getBytes(StandardCharsets.UTF_8);
    }

    private byte[] nodeList(int shoot) {
        byte[] rendered = nodeLists[shoot];
        if (rendered == null) {
            var json = new StringBuilder("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"")
                    .append(1000 + shoot).append("\"},\"items\":[");
            for (int node = 0; node < nodesPerShoot; node++) {
                json.append(node == 0 ? "" : ",").append(NodeJson.node(nodeName(shoot, node), shoot, node));
            }
            rendered = json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
            nodeLists[shoot] = rendered;
        }
        return rendered;
    }

    private byte[] leaseList(int shoot, Instant now) {
        List<Instant> kept = frozen.get(shoot);
        Instant resumedAt = resumed.get(shoot);
        var json = new StringBuilder(512 * nodesPerShoot)
                .append("{\"kind\":\"LeaseList\",\"apiVersion\":\"coordination.k8s.io/v1\",\"metadata\":{\"resourceVersion\":\"")
                .append(now.toEpochMilli()).append("\"},\"items\":[");
        for (int node = 0; node < nodesPerShoot; node++) {
            Instant renewed = lastRenewal(shoot, node, now);
            if (kept != null && (resumedAt == null || renewed.isBefore(resumedAt))) {
                renewed = kept.get(node);
            }
            json.append(node == 0 ? "" : ",").append(NodeJson.lease(nodeName(shoot, node), MICRO_TIME.format(renewed)));
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        closed = true;
        server.close();
        acceptor.join(5_000);
        synchronized (open) {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    /** One request's head: what the simulator looks at. */
    private record Request(String path, String token, boolean closeAfter, boolean watch, int timeoutSeconds) {

        /** Reads a request head (a GET has no body); null at the end of the stream. */
        static Request read(InputStream in) throws IOException {
            var head = new ByteArrayOutputStream(512);
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                // states: 0 nothing, 1 CR, 2 CRLF, 3 CRLF CR, 4 CRLF CRLF (end of the head)
                if (b == '\r') {
                    matched = matched == 2 ? 3 : 1;
                } else if (b == '\n') {
                    matched = matched == 1 ? 2 : matched == 3 ? 4 : 0;
                } else {
                    matched = 0;
                }
            }
            String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
            String[] requestLine = lines[0].split(" ");
            String target = requestLine.length > 1 ? requestLine[1] : "/";
            int query = target.indexOf('?');
            String token = null;
            boolean close = false;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim();
                if (name.equals("authorization") && value.startsWith("Bearer ")) {
                    token = value.substring("Bearer ".length());
                } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                    close = true;
                }
            }
            boolean watch = false;
            int timeoutSeconds = 300;
            if (query >= 0) {
                for (String parameter : target.substring(query + 1).split("&")) {
                    if (parameter.equals("watch=true")) {
                        watch = true;
                    } else if (parameter.startsWith("timeoutSeconds=")) {
                        timeoutSeconds = Integer.parseInt(parameter.substring("timeoutSeconds=".length()));
                    }
                }
            }
            return new Request(query < 0 ? target : target.substring(0, query), token, close, watch, timeoutSeconds);
        }
    }

    /** The CA and the serving certificate. */
    private record Pki(SSLContext context, String caPem) {

        static Pki create() throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair caKeys = generator.generateKeyPair();
            KeyPair serverKeys = generator.generateKeyPair();
            Instant now = Instant.now();
            Date from = Date.from(now.minus(Duration.ofDays(1)));
            Date until = Date.from(now.plus(Duration.ofDays(30)));
            var caName = new X500Name("CN=shoot-api-simulator-ca");
            var caBuilder = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, from, until, caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            var converter = new JcaX509CertificateConverter();
            X509Certificate ca = converter.getCertificate(
                    caBuilder.build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
            var serverBuilder = new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, from, until,
                    new X500Name("CN=kube-apiserver"), serverKeys.getPublic())
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            X509Certificate serving = converter.getCertificate(
                    serverBuilder.build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = "simulator".toCharArray();
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
