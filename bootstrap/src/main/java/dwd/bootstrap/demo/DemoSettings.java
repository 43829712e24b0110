package dwd.bootstrap.demo;

import java.time.Duration;
import java.util.List;

/** The demo's shoots, its shortened timings and the flags Gardener passes: what the stage sets up and the story checks. */
final class DemoSettings {

    static final String ALPHA = "shoot--demo--alpha";
    static final String BETA = "shoot--demo--beta";
    /** Where the roles keep their leader-election Leases (the original's default, as in a seed). */
    static final String LEASE_NAMESPACE = "garden";
    static final Duration KUBELET_PERIOD = Duration.ofSeconds(2);
    static final String GRACE_PERIOD = "8s";
    static final Duration GRACE = Duration.ofSeconds(8);
    static final Duration MCM_DELAY = Duration.ofSeconds(5);
    /** No pod ever becomes ready on a control plane without kubelets: do not wait the default 5 s for each. */
    static final Duration READINESS_WAIT = Duration.ofMillis(500);
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);
    /** {@code --beside-original}: how long one side may take after the other acted; the original recovers in about 25 s here. */
    static final Duration COMPARISON_WINDOW = Duration.ofSeconds(40);
    static final Duration ROLES_READY_TIMEOUT = Duration.ofSeconds(90);
    /** The flags Gardener's seed reconciler passes to each role, besides the config file. */
    static final List<String> GARDENER_PROBER_FLAGS = List.of("--kube-api-qps=20.0", "--kube-api-burst=100",
            "--zap-log-level=INFO", "--enable-leader-election=true");
    static final List<String> GARDENER_WEEDER_FLAGS = List.of("--enable-leader-election=true");

    private DemoSettings() {
    }
}
