package dwd.bootstrap.weeder;

import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.bootstrap.DwdProcess;
import dwd.bootstrap.bench.SeedUser;
import dwd.bootstrap.WeederObjects;
import dwd.bootstrap.bench.Implementation;
import dwd.bootstrap.bench.LogTail;
import dwd.bootstrap.weeder.AuditedRequests.Request;
import dwd.bootstrap.weeder.WatchedArrivals.Arrival;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.DiscoveryV1Api;
import io.kubernetes.client.openapi.models.V1Endpoint;
import io.kubernetes.client.openapi.models.V1EndpointConditions;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The weeder's first deletion for {@code make bench-versus}, the same trial for either implementation and timed
 * only from outside it: the API server's audit log (slice update done → the implementation's pod DELETE done) and
 * a watch of the benchmark's. Each trial has a namespace of its own: a not-ready {@code etcd-main-client} slice and
 * a crash-looping, unscheduled {@code kube-apiserver-0}; the slice turns ready, the pod's deletion is awaited, the
 * slice turns not ready again. (The original keeps a weeder watching for its whole {@code watchDuration} whatever
 * the slice does next, so a trial in a namespace used before would meet a weeder already watching.)
 *
 * <p>A <b>warm</b> process is idle for a while before its trials and for its client-side rate limit to refill
 * after each (see {@link WeederFirstDeletionBenchIT}); <b>fresh</b> processes, one per trial, are fired at as soon
 * as they are ready by the same outside signs for both: the leader-election Lease is held, and the process's
 * EndpointSlice watch is open (the audit log). Gardener runs both weeders with {@code --enable-leader-election=true}
 * and the default rate limit.
 */
public final class WeederVersusRun {

    /** The first deletions of one implementation's weeder, in milliseconds, in trial order. */
    public record FirstDeletions(List<Double> warm, List<Double> fresh, List<Double> freshReady) {
    }

    private static final String SLICE = "etcd-main-client-x";
    private static final String POD = "kube-apiserver-0";
    private static final String LEASE = "dwd-weeder-leader-election";
    private static final String LEASE_NAMESPACE = "garden";
    private static final String READY_AGENT = "bench-versus/ready";
    private static final Duration IDLE_BETWEEN_TRIALS = WeederFirstDeletionBenchIT.IDLE_BETWEEN_TRIALS;

    private final Implementation implementation;
    private final Path dir;
    private final String jvmOptions;
    private final Path auditLog;
    private final LocalControlPlane controlPlane;
    private final ApiClient client;
    private final ApiClient readyClient;
    private final WatchedArrivals arrivals;
    private final Path config;
    private final Path kubeconfig;
    private int trials;
    /** What {@link #watching} has not read yet of the audit log. */
    private final LogTail auditTail;

    private WeederVersusRun(Implementation implementation, Path dir, String jvmOptions, Path auditLog,
            LocalControlPlane controlPlane) throws IOException, ApiException {
        this.implementation = implementation;
        this.dir = dir;
        this.jvmOptions = jvmOptions;
        this.auditLog = auditLog;
        this.auditTail = new LogTail(auditLog);
        this.controlPlane = controlPlane;
        this.client = controlPlane.newApiClient(Duration.ofSeconds(30));
        this.readyClient = controlPlane.newApiClient(Duration.ofSeconds(30));
        readyClient.setUserAgent(READY_AGENT);
        this.arrivals = new WatchedArrivals(controlPlane.newApiClient(Duration.ZERO), null);
        this.config = Files.writeString(dir.resolve("weeder-config.yaml"),
                Files.readString(DwdProcess.REPOSITORY.resolve("deploy/examples/weeder-config.yaml")));
        this.kubeconfig = Files.writeString(dir.resolve("seed-kubeconfig.yaml"), SeedUser.kubeconfig(controlPlane));
    }

    /**
     * Runs {@code warmTrials} trials against one warm process (idle {@code idle} first), then {@code freshTrials}
     * fresh processes, on a control plane of their own whose audit log and the processes' logs go to {@code dir}.
     */
    public static FirstDeletions run(Implementation implementation, Path dir, String jvmOptions, int warmTrials,
            int freshTrials, Duration idle) throws Exception {
        Files.createDirectories(dir);
        Path policy = dir.resolve("seed-audit-policy.yaml").toAbsolutePath();
        try (InputStream in = WeederVersusRun.class.getResourceAsStream("/dwd/it/weeder-audit-policy.yaml")) {
            Files.write(policy, in.readAllBytes());
        }
        Path auditLog = dir.resolve("seed-audit.log").toAbsolutePath();
        try (var controlPlane = LocalControlPlane.start(List.of("--audit-policy-file=" + policy,
                "--audit-log-path=" + auditLog, "--audit-log-mode=batch", "--audit-log-batch-max-wait=1s"),
                SeedUser.users())) {
            var run = new WeederVersusRun(implementation, dir, jvmOptions, auditLog, controlPlane);
            try {
                new CoreV1Api(run.client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(LEASE_NAMESPACE)))
                        .execute();
                List<Double> warm = run.warm(warmTrials, idle);
                var freshReady = new ArrayList<Double>();
                List<Double> fresh = run.fresh(freshTrials, freshReady);
                return new FirstDeletions(warm, fresh, freshReady);
            } finally {
                run.arrivals.close();
            }
        }
    }

    private List<Double> warm(int count, Duration idle) throws Exception {
        var namespaces = new ArrayList<String>();
        if (count == 0) {
            return List.of();
        }
        try (DwdProcess weeder = start("weeder-warm")) {
            awaitReady(weeder, Instant.now().minusSeconds(1));
            await("up and idle for " + idle).during(idle).atMost(idle.plusSeconds(10))
                    .pollInterval(Duration.ofSeconds(1)).until(weeder.process::isAlive);
            for (int i = 0; i < count; i++) {
                String namespace = prepare();
                fire(namespace);
                namespaces.add(namespace);
                await("idle while the rate limit refills").during(IDLE_BETWEEN_TRIALS)
                        .atMost(IDLE_BETWEEN_TRIALS.plusSeconds(10)).pollInterval(Duration.ofMillis(500))
                        .until(weeder.process::isAlive);
            }
            weeder.terminate();
        }
        return firstDeletions(namespaces);
    }

    private List<Double> fresh(int count, List<Double> readyAfter) throws Exception {
        var namespaces = new ArrayList<String>();
        for (int i = 0; i < count; i++) {
            String namespace = prepare();
            deleteLease(); // the original does not give it up when it stops: the next one would wait for it to expire
            Instant started = Instant.now();
            try (DwdProcess weeder = start("weeder-fresh-" + i)) {
                readyAfter.add(Duration.between(started, awaitReady(weeder, started)).toNanos() / 1e9);
                fire(namespace);
                namespaces.add(namespace);
                weeder.terminate();
            }
        }
        return firstDeletions(namespaces);
    }

    private DwdProcess start(String name) throws IOException {
        return implementation.launch("weeder", dir, implementation.label() + "-" + name, config, kubeconfig,
                List.of("--enable-leader-election=true"), jvmOptions);
    }

    /**
     * Waits until the weeder leads (the Lease has a holder renewed since {@code since}) and its EndpointSlice watch is
     * open (the audit log has its WATCH, received since {@code since}); returns when both were first seen.
     */
    private Instant awaitReady(DwdProcess weeder, Instant since) {
        return await(implementation.label() + "'s weeder leading with its EndpointSlice watch open")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!weeder.process.isAlive()) {
                        throw new IllegalStateException("the weeder exited with " + weeder.process.exitValue()
                                + "; see " + weeder.log);
                    }
                    return leading(since) && watching(since) ? Instant.now() : null;
                }, ready -> ready != null);
    }

    private boolean leading(Instant since) {
        try {
            V1Lease lease = new CoordinationV1Api(client).readNamespacedLease(LEASE, LEASE_NAMESPACE).execute();
            return lease.getSpec() != null && lease.getSpec().getHolderIdentity() != null
                    && !lease.getSpec().getHolderIdentity().isEmpty() && lease.getSpec().getRenewTime() != null
                    && !lease.getSpec().getRenewTime().toInstant().isBefore(since.minusSeconds(1));
        } catch (ApiException notYet) {
            return false;
        }
    }

    /** Reads only what the audit log gained since the last look: the harness must not compete with a starting process. */
    private boolean watching(Instant since) throws IOException {
        return auditTail.newLines().stream().map(AuditedRequests::parse).flatMap(Optional::stream)
                .anyMatch(r -> r.by(implementation.userAgentPrefix()) && r.is("watch", "endpointslices")
                        && !r.received().isBefore(since));
    }

    private void deleteLease() {
        try {
            new CoordinationV1Api(client).deleteNamespacedLease(LEASE, LEASE_NAMESPACE).execute();
        } catch (ApiException absent) {
            // nobody held it yet
        }
    }

    /** A namespace with the not-ready slice and the crash-looping pod, seen by the benchmark's watch. */
    private String prepare() throws Exception {
        String namespace = controlPlane.createNamespace("versus-" + implementation.label() + "-" + ++trials);
        WeederObjects.createEtcdSlice(client, namespace, false);
        WeederObjects.createCrashLoopingPod(client, namespace, POD);
        arrivals.await("the crash-loop in " + namespace + " is visible", Duration.ofSeconds(10),
                arrival -> arrival.namespace().equals(namespace) && arrival.kind().equals("Pod")
                        && arrival.type().equals("MODIFIED") && arrival.object().toString().contains("CrashLoopBackOff"));
        return namespace;
    }

    /** The slice turns ready; waits for the pod's deletion, then the slice turns not ready again. */
    private void fire(String namespace) throws Exception {
        setSliceReady(readyClient, namespace, true);
        Arrival gone = arrivals.await("the crash-looping pod in " + namespace + " deleted", Duration.ofSeconds(30),
                arrival -> arrival.namespace().equals(namespace) && arrival.kind().equals("Pod")
                        && arrival.type().equals("DELETED"));
        setSliceReady(client, namespace, false);
        if (gone == null) {
            throw new IllegalStateException("no deletion in " + namespace);
        }
    }

    private static void setSliceReady(ApiClient as, String namespace, boolean ready) throws ApiException {
        V1EndpointSlice slice = new DiscoveryV1Api(as).readNamespacedEndpointSlice(SLICE, namespace).execute();
        new DiscoveryV1Api(as).replaceNamespacedEndpointSlice(SLICE, namespace, slice.endpoints(List.of(new V1Endpoint()
                .addresses(List.of("10.0.0.1")).conditions(new V1EndpointConditions().ready(ready))))).execute();
    }

    /** Per namespace, from the audit log: the ready PUT done → the implementation's first pod DELETE done (ms). */
    private List<Double> firstDeletions(List<String> namespaces) {
        var millis = new ArrayList<Double>();
        for (String namespace : namespaces) {
            AuditedRequests audit = await("the audit log has the trial in " + namespace).atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> AuditedRequests.read(auditLog, namespace),
                            log -> readyPut(log).isPresent() && deletion(log).isPresent());
            Request put = readyPut(audit).orElseThrow();
            Request delete = deletion(audit).orElseThrow();
            millis.add(Duration.between(put.reached(), delete.reached()).toNanos() / 1e6);
        }
        return millis;
    }

    private static Optional<Request> readyPut(AuditedRequests audit) {
        return audit.all().stream().filter(r -> r.by(READY_AGENT) && r.is("update", "endpointslices")).findFirst();
    }

    private Optional<Request> deletion(AuditedRequests audit) {
        return audit.all().stream().filter(r -> r.by(implementation.userAgentPrefix()) && r.is("delete", "pods")
                && r.name().equals(POD)).findFirst();
    }
}
