package dwd.adapters.k8s.weeder;

import static dwd.adapters.k8s.weeder.ControlPlaneObjects.KUBE_APISERVER_LABELS;
import static dwd.adapters.k8s.weeder.WeederHarness.ETCD_MAIN_CLIENT;
import static org.awaitility.Awaitility.await;

import dwd.adapters.k8s.testing.LocalControlPlane;
import dwd.adapters.k8s.testing.WithLocalControlPlane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Benchmark, not a test (nothing is asserted): how long from etcd-main-client turning ready to the
 * DELETE of a kube-apiserver pod that was already crash-looping. Each trial writes the slice ready
 * (PUT), waits for the deletion, then writes it not ready and waits for the weeder to stop.
 * Runs only with {@code -Ddwd.bench=true}; see docs/weeder.md.
 */
@WithLocalControlPlane
@EnabledIfSystemProperty(named = "dwd.bench", matches = "true")
class WeederReactionTimeBenchIT {

    private static final int WARM_UP = Integer.getInteger("dwd.bench.warmUp", 10);
    private static final int TRIALS = Integer.getInteger("dwd.bench.trials", 100);

    /** One trial, in nanoseconds from the start of the PUT that made the slice ready. */
    record Trial(long putAnswered, long deleteSent, long deleteAnswered) { }

    @Test
    void reactionTimeFromReadyTransitionToDelete(LocalControlPlane controlPlane) {
        var objects = new ControlPlaneObjects(controlPlane.apiClient());
        String ns = controlPlane.createNamespace("bench-reaction");
        objects.createSlice(ns, "etcd-main-client-x1", ETCD_MAIN_CLIENT, false);
        List<Trial> trials = new ArrayList<>();
        try (var weeder = new WeederHarness(WeederHarness.watchClient(controlPlane), controlPlane.apiClient(),
                WeederHarness.gardenerConfig(Duration.ofMinutes(5))).start()) {
            for (int i = 0; i < WARM_UP + TRIALS; i++) {
                String pod = "kube-apiserver-" + i;
                String uid = objects.createPod(ns, pod, KUBE_APISERVER_LABELS);
                objects.crashLoop(ns, pod);

                long put = System.nanoTime();
                objects.setSliceReadiness(ns, "etcd-main-client-x1", true);
                long putAnswered = System.nanoTime();
                var deletion = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1))
                        .until(() -> weeder.deletionsIn(ns).stream().filter(d -> d.uid().equals(uid)).findFirst(),
                                Optional::isPresent)
                        .orElseThrow();
                if (i >= WARM_UP) {
                    trials.add(new Trial(putAnswered - put, deletion.sentNanos() - put, deletion.answeredNanos() - put));
                }

                long stoppedBefore = weeder.count("stopped");
                objects.setSliceReadiness(ns, "etcd-main-client-x1", false);
                await().atMost(Duration.ofSeconds(20)).until(() -> weeder.count("stopped") > stoppedBefore);
            }
        } finally {
            objects.close();
        }
        report(trials);
    }

    private static void report(List<Trial> trials) {
        System.out.printf(Locale.ROOT, "weeder reaction time over %d trials (after %d warm-up), milliseconds:%n",
                trials.size(), WARM_UP);
        System.out.printf(Locale.ROOT, "%-40s %8s %8s %8s %8s%n", "from the start of the ready PUT to", "median", "p99",
                "min", "max");
        line("the PUT's answer", trials.stream().mapToLong(Trial::putAnswered).toArray());
        line("the DELETE sent", trials.stream().mapToLong(Trial::deleteSent).toArray());
        line("the DELETE answered", trials.stream().mapToLong(Trial::deleteAnswered).toArray());
    }

    private static void line(String label, long[] nanos) {
        long[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-40s %8.1f %8.1f %8.1f %8.1f%n", label, millis(percentile(sorted, 50)),
                millis(percentile(sorted, 99)), millis(sorted[0]), millis(sorted[sorted.length - 1]));
    }

    /** Nearest-rank percentile. */
    private static long percentile(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
