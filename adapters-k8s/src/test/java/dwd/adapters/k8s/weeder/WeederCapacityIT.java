package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static dwd.adapters.k8s.weeder.WeederHarness.ETCD_MAIN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.TestWatchReports;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * 100 namespaces, each with a ready etcd-main-client when the weeder starts: 100 weeders start, each
 * deletes its namespace's crash-looping kube-apiserver pod, and everything settles once the (short)
 * window ends. Repeated for several start-ups of the weeder in one process: open watches return to
 * zero, and neither heap nor platform threads grow from cycle to cycle.
 */
@WithLocalControlPlane
class WeederCapacityIT {

    private static final int NAMESPACES = Integer.getInteger("dwd.weeder.namespaces", 100);
    private static final int CYCLES = Integer.getInteger("dwd.weeder.cycles", 5);
    private static final Duration WINDOW = Duration.ofSeconds(5);
    /** Generous against GC noise; a leak of what 100 weeders hold, cycle after cycle, would exceed it. */
    private static final long ALLOWED_HEAP_GROWTH = 16L << 20;
    /** OkHttp starts and retires a few threads of its own; an informer or timer leaked per cycle adds more. */
    private static final int ALLOWED_THREAD_NOISE = 4;

    /** What one cycle left behind, measured after it ended and a full GC. */
    record Cycle(int number, long heapBytes, int platformThreads, long startToSettledMillis) { }

    @Test
    void aHundredReadyServicesAtStartupGetAHundredWeedersThatAllSettle(LocalControlPlane controlPlane) {
        var objects = new ControlPlaneObjects(controlPlane.apiClient());
        ApiClient watchClient = WeederHarness.watchClient(controlPlane);
        var reports = TestWatchReports.create();
        var podWatches = new KubernetesPodWatches(watchClient, reports);
        List<String> namespaces = new ArrayList<>();
        for (int n = 0; n < NAMESPACES; n++) {
            String ns = controlPlane.createNamespace("capacity");
            namespaces.add(ns);
            objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, true);
            objects.createPod(ns, "kube-apiserver-healthy", KUBE_APISERVER_LABELS);
        }
        List<Cycle> cycles = new ArrayList<>();
        try {
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                for (String ns : namespaces) {
                    objects.createPod(ns, "kube-apiserver-" + cycle, KUBE_APISERVER_LABELS);
                    objects.crashLoop(ns, "kube-apiserver-" + cycle);
                }
                long started = System.nanoTime();
                try (var weeder = new WeederHarness(podWatches, reports, controlPlane.apiClient(), watchClient,
                        WeederHarness.gardenerConfig(WINDOW)).start()) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> weeder.count("started") == NAMESPACES);
                    await().atMost(Duration.ofSeconds(30)).until(() -> weeder.count("deleted") == NAMESPACES);
                    await().atMost(Duration.ofSeconds(30)).until(() -> weeder.count("stopped EXPIRED") == NAMESPACES);
                    await().atMost(Duration.ofSeconds(10)).until(() -> reports.running().oldest("pods").isEmpty());
                    assertThat(weeder.supervisor.runningWeeders()).isEmpty();
                    assertThat(weeder.supervisor.knownServices()).isGreaterThanOrEqualTo(NAMESPACES);
                }
                long settled = Duration.ofNanos(System.nanoTime() - started).toMillis();
                cycles.add(new Cycle(cycle, heapAfterFullGc(), Thread.getAllStackTraces().size(),
                        settled));
            }
        } finally {
            objects.close();
        }

        report(cycles);
        assertThat(reports.running().oldest("pods")).as("no pod watch runs").isEmpty();
        Cycle first = cycles.getFirst();
        Cycle last = cycles.getLast();
        assertThat(last.heapBytes()).as("heap after the last cycle vs the first").isLessThan(first.heapBytes() + ALLOWED_HEAP_GROWTH);
        assertThat(last.platformThreads()).as("platform threads after the last cycle vs the first")
                .isLessThanOrEqualTo(first.platformThreads() + ALLOWED_THREAD_NOISE);
    }

    private static long heapAfterFullGc() {
        // Runtime rather than the management beans: the tests are compiled into the module, which does not read java.management.
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static void report(List<Cycle> cycles) {
        var lines = new StringBuilder("weeder capacity: " + NAMESPACES + " namespaces, window " + WINDOW.toSeconds() + " s\n");
        lines.append("cycle | start to settled (ms) | heap after full GC (MiB) | platform threads\n");
        for (Cycle cycle : cycles) {
            lines.append(String.format(Locale.ROOT, "%5d | %21d | %24.1f | %16d%n", cycle.number(),
                    cycle.startToSettledMillis(), cycle.heapBytes() / (1024.0 * 1024.0), cycle.platformThreads()));
        }
        System.out.print(lines);
    }
}
