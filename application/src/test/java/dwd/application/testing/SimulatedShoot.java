package dwd.application.testing;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Machines;
import dwd.application.port.out.NodeLeaseWatch;
import dwd.application.port.out.ShootApi;
import dwd.application.port.out.ShootClients;
import dwd.domain.lease.Machine;
import dwd.domain.lease.Node;
import dwd.domain.lease.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * Shoots as the prober sees them, on virtual time: nodes with live Machines, and kubelets that
 * renew their node leases every {@link #RENEW_INTERVAL} until the test cuts them off. Also
 * serves as the {@link ShootClients} and {@link Machines} ports; failures can be queued per call.
 */
public final class SimulatedShoot implements ShootClients, Machines {

    public static final Duration RENEW_INTERVAL = Duration.ofSeconds(10);

    /** The calls a failure can be queued for. */
    public enum Call { OPEN, VERSION, NODES, LEASES }

    private final VirtualScheduler scheduler;
    private final Map<String, Shoot> shoots = new ConcurrentHashMap<>();

    public SimulatedShoot(VirtualScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Adds a shoot with {@code nodes} healthy nodes whose kubelets renew at random phases. */
    public Shoot addShoot(String namespace, int nodes, RandomGenerator random) {
        var shoot = new Shoot(namespace);
        for (int i = 0; i < nodes; i++) {
            String name = namespace + "-node-" + i;
            shoot.nodes.put(name, new Node(name, Map.of("worker.gardener.cloud/pool", "pool-a"), Map.of(), List.of()));
            shoot.machines.add(new Machine("machine-" + i, Optional.of(name), "Running"));
            Duration phase = Duration.ofNanos(random.nextLong(RENEW_INTERVAL.toNanos()));
            shoot.renew(name);
            scheduler.schedule(phase, () -> shoot.kubeletLoop(name));
        }
        shoots.put(namespace, shoot);
        return shoot;
    }

    public Shoot shoot(String namespace) {
        return shoots.get(namespace);
    }

    @Override
    public ShootApi open(String namespace, String secretName, Duration callTimeout) {
        Shoot shoot = shoots.get(namespace);
        if (shoot == null) {
            throw new ApiFailure(ApiFailure.Kind.NOT_FOUND, "secret " + namespace + "/" + secretName + " not found");
        }
        shoot.failIfQueued(Call.OPEN);
        return shoot.api();
    }

    @Override
    public List<Machine> inNamespace(String namespace) {
        Shoot shoot = shoots.get(namespace);
        return shoot == null ? List.of() : List.copyOf(shoot.machines);
    }

    /** A failure that arrives only after the call has taken {@code duration}. */
    private record SlowFailure(Duration duration, ApiFailure failure) { }

    /** One shoot: its nodes, leases, machines and kubelets. */
    public final class Shoot {
        private final String namespace;
        private final Map<String, Node> nodes = new LinkedHashMap<>();
        private final Map<String, NodeLease> leases = new ConcurrentHashMap<>();
        private final List<Machine> machines = new ArrayList<>();
        private final Set<String> cutOff = ConcurrentHashMap.newKeySet();
        private final Map<Call, Deque<Object>> failures = new HashMap<>();
        private final List<Instant> leaseReads = new ArrayList<>();
        private final Map<String, Instant> lastRenewal = new ConcurrentHashMap<>();
        /** The changes each open lease watch is told of. */
        private final Set<Runnable> leaseWatches = ConcurrentHashMap.newKeySet();
        private int leaseWatchesOpened;
        private Duration leaseAnswerDelay = Duration.ZERO;
        /** Added to every lease answer (a slow or busy API server). */
        private Duration everyLeaseAnswerDelay = Duration.ZERO;
        /** Whether the kubelets' clocks ignore the prober's wall-clock steps (else they share its time source). */
        private volatile boolean kubeletsOnOwnClocks;

        private Shoot(String namespace) {
            this.namespace = namespace;
        }

        private void kubeletLoop(String node) {
            if (!cutOff.contains(node)) {
                renew(node);
            }
            scheduler.schedule(RENEW_INTERVAL, () -> kubeletLoop(node));
        }

        private void renew(String node) {
            // Kubelets write MicroTime: renewTime has microsecond precision.
            Instant renewTime = (kubeletsOnOwnClocks ? scheduler.unsteppedNow() : scheduler.now())
                    .truncatedTo(ChronoUnit.MICROS);
            leases.put(node, new NodeLease(node, Optional.of(renewTime)));
            lastRenewal.put(node, renewTime);
            leaseChanged();
        }

        /** Every open lease watch hears of the change, on a task of its own (as on an adapter's thread). */
        private void leaseChanged() {
            leaseWatches.forEach(changed -> scheduler.execute(changed));
        }

        /** How many lease watches the prober opened on this shoot. */
        public synchronized int leaseWatchesOpened() {
            return leaseWatchesOpened;
        }

        /** How many lease watches are open now. */
        public int leaseWatchesOpen() {
            return leaseWatches.size();
        }

        /** The kubelets keep time by clocks of their own, which a step of the prober's wall clock does not move. */
        public void kubeletsOnOwnClocks() {
            kubeletsOnOwnClocks = true;
        }

        /** The kubelets of these nodes stop renewing (a network cut). */
        public void cut(Set<String> nodeNames) {
            cutOff.addAll(nodeNames);
        }

        /** Every kubelet stops renewing. */
        public void cutAll() {
            cut(nodes.keySet());
        }

        /** Kubelets renew again, at once. */
        public void heal() {
            cutOff.clear();
            nodes.keySet().forEach(this::renew);
        }

        public List<String> nodeNames() {
            return List.copyOf(nodes.keySet());
        }

        public Instant lastRenewal(String node) {
            return lastRenewal.get(node);
        }

        public synchronized void failNext(Call call, ApiFailure failure) {
            failures.computeIfAbsent(call, c -> new ArrayDeque<>()).add(failure);
        }

        /** The next call throws {@code unexpected} (a bug's exception, or an Error), which no port promises. */
        public synchronized void throwNext(Call call, Throwable unexpected) {
            failures.computeIfAbsent(call, c -> new ArrayDeque<>()).add(unexpected);
        }

        /** The next call fails only after taking {@code duration} (a server that does not answer until the timeout). */
        public synchronized void failNextAfter(Call call, Duration duration, ApiFailure failure) {
            failures.computeIfAbsent(call, c -> new ArrayDeque<>()).add(new SlowFailure(duration, failure));
        }

        /**
         * The next lease list is answered, then {@code duration} passes before the caller gets it
         * (a process starved of CPU); nothing else runs meanwhile.
         */
        public synchronized void delayNextLeaseAnswer(Duration duration) {
            leaseAnswerDelay = duration;
        }

        /**
         * Every lease list from now on is answered at once, then {@code duration} passes before the
         * caller gets it (an API server or a prober slowed by load).
         */
        public synchronized void delayEveryLeaseAnswer(Duration duration) {
            everyLeaseAnswerDelay = duration;
        }

        /** When the prober read this shoot's leases. */
        public synchronized List<Instant> leaseReads() {
            return List.copyOf(leaseReads);
        }

        public void putNode(Node node) {
            nodes.put(node.name(), node);
        }

        public void putLease(NodeLease lease) {
            leases.put(lease.name(), lease);
            leaseChanged();
        }

        public void setMachines(List<Machine> newMachines) {
            machines.clear();
            machines.addAll(newMachines);
        }

        private synchronized void failIfQueued(Call call) {
            Deque<Object> queued = failures.get(call);
            if (queued != null && !queued.isEmpty()) {
                Object next = queued.poll();
                if (next instanceof SlowFailure slow) {
                    scheduler.elapse(slow.duration());
                    throw slow.failure();
                }
                switch (next) {
                    case RuntimeException exception -> throw exception;
                    case Error error -> throw error;
                    default -> throw new IllegalStateException("not a failure: " + next);
                }
            }
        }

        private ShootApi api() {
            return new ShootApi() {
                @Override
                public String version() {
                    failIfQueued(Call.VERSION);
                    return "v1.36.3";
                }

                @Override
                public List<Node> nodes() {
                    failIfQueued(Call.NODES);
                    return List.copyOf(nodes.values());
                }

                @Override
                public List<NodeLease> nodeLeases() {
                    failIfQueued(Call.LEASES);
                    List<NodeLease> answer;
                    Duration delay;
                    synchronized (Shoot.this) {
                        leaseReads.add(scheduler.now());
                        answer = List.copyOf(leases.values());
                        delay = leaseAnswerDelay.plus(everyLeaseAnswerDelay);
                        leaseAnswerDelay = Duration.ZERO;
                    }
                    scheduler.elapse(delay);
                    return answer;
                }

                @Override
                public NodeLeaseWatch watchNodeLeases(Runnable changed) {
                    // Each watch is an object of its own: two watches given the same callback stay two.
                    Runnable listener = changed::run;
                    synchronized (Shoot.this) {
                        leaseWatchesOpened++;
                    }
                    leaseWatches.add(listener);
                    return new NodeLeaseWatch() {
                        @Override
                        public List<NodeLease> leases() {
                            return List.copyOf(leases.values());
                        }

                        @Override
                        public void close() {
                            leaseWatches.remove(listener);
                        }
                    };
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public String toString() {
            return "shoot " + namespace;
        }
    }
}
