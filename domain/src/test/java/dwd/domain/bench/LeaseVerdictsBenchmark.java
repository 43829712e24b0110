package dwd.domain.bench;

import dwd.domain.lease.LeaseProbeInput;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.lease.LeaseVerdicts;
import dwd.domain.lease.Machine;
import dwd.domain.lease.Node;
import dwd.domain.lease.NodeCondition;
import dwd.domain.lease.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One lease verdict for a large shoot: every node with the usual conditions, its machine and its lease, listed in
 * API order (unrelated to each other), with a few nodes excluded and a share of leases expired.
 *
 * <p>Run with {@code scripts/mvn -B -ntp -pl domain -Pbench verify -DskipTests}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(2)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LeaseVerdictsBenchmark {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final List<String> POOLS = List.of("pool-a", "pool-b", "pool-c");

    @Param("5000")
    int nodes;

    private LeaseProbeInput input;

    @Setup
    public void buildShoot() {
        var random = new Random(42);
        var nodeList = new ArrayList<Node>(nodes);
        var machineList = new ArrayList<Machine>(nodes);
        var leaseList = new ArrayList<NodeLease>(nodes);
        for (int i = 0; i < nodes; i++) {
            String name = "shoot--garden--big-" + POOLS.get(i % POOLS.size()) + "-z1-" + Integer.toHexString(i);
            nodeList.add(new Node(name,
                    Map.of("worker.gardener.cloud/pool", POOLS.get(i % POOLS.size()),
                            "kubernetes.io/hostname", name, "topology.kubernetes.io/zone", "z1"),
                    Map.of("node.alpha.kubernetes.io/ttl", "0"),
                    conditions(random.nextInt(100) == 0)));
            machineList.add(new Machine("machine-" + name, Optional.of(name),
                    random.nextInt(200) == 0 ? "Terminating" : "Running"));
            // About 40% of the leases last renewed 35 s ago (expired with the default 40 s grace), the rest 5 s ago.
            long secondsAgo = random.nextInt(100) < 40 ? 35 : 5;
            leaseList.add(new NodeLease(name, Optional.of(NOW.minusSeconds(secondsAgo))));
        }
        Collections.shuffle(machineList, random);
        Collections.shuffle(leaseList, random);
        input = new LeaseProbeInput(nodeList, machineList, leaseList,
                Map.of("pool-a", List.of("KernelDeadlock", "ReadonlyFilesystem", "DiskPressure", "NetworkUnavailable"),
                        "pool-b", List.of("DiskPressure", "MemoryPressure")),
                Duration.ofSeconds(40), 0.6, NOW);
    }

    @Benchmark
    public LeaseVerdict decide() {
        return LeaseVerdicts.decide(input);
    }

    private static List<NodeCondition> conditions(boolean diskPressure) {
        return List.of(
                new NodeCondition("KernelDeadlock", "False", "KernelHasNoDeadlock"),
                new NodeCondition("ReadonlyFilesystem", "False", "FilesystemIsNotReadOnly"),
                new NodeCondition("NetworkUnavailable", "False", "RouteCreated"),
                new NodeCondition("MemoryPressure", "False", "KubeletHasSufficientMemory"),
                new NodeCondition("DiskPressure", diskPressure ? "True" : "False", "KubeletHasNoDiskPressure"),
                new NodeCondition("PIDPressure", "False", "KubeletHasSufficientPID"),
                new NodeCondition("Ready", "True", "KubeletReady"));
    }
}
