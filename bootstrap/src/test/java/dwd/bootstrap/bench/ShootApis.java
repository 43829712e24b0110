package dwd.bootstrap.bench;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The shoots' API servers the benchmark's prober probes: simulated, or real kube-apiservers. */
interface ShootApis extends AutoCloseable {

    /** The kubeconfig of shoot {@code shoot}'s access secret. */
    String kubeconfig(int shoot);

    /** The node names of shoot {@code shoot}, for its Machines in the seed. */
    List<String> nodes(int shoot);

    /** Stops the kubelets of these shoots at {@code at}; returns the renew times their leases keep. */
    Map<Integer, List<Instant>> expire(List<Integer> shoots, Instant at) throws InterruptedException;

    /** Completed TLS handshakes the servers saw so far, or -1 when they cannot tell. */
    long handshakes();

    /** The processes serving the shoot APIs (empty when they run inside the benchmark's JVM). */
    List<Long> pids();

    /** What serves the shoot APIs, for the report. */
    String describe();
}
