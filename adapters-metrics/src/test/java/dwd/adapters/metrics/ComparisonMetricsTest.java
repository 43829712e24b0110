package dwd.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.comparison.Comparison;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Judgement;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Side;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The comparison's series and its status page, by the names the dashboard, the alert and {@code dwd compare} use. */
class ComparisonMetricsTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final String NS = "shoot--dev--a";

    private final PrometheusMeterRegistry registry = MetricsServer.newRegistry();
    private final ComparisonMetrics metrics = new ComparisonMetrics(registry, List.of(EpisodeKind.MELTDOWN, EpisodeKind.RECOVERY));

    private static Act act(String name, int from, int to, int second) {
        return new Act(name, name, from, to, T0.plusSeconds(second), "3 of 5 leases expired", false);
    }

    private static Episode episode(List<Act> dwd, List<Act> original, boolean reconstructed) {
        return new Episode(NS, EpisodeKind.MELTDOWN, "", T0, T0.plusSeconds(30), dwd, original,
                Judgement.judge(dwd, original, Map.of()), reconstructed);
    }

    @Test
    void everyOutcomeOfTheRolesKindsStartsAtZeroAndDecidedEpisodesAreCounted() {
        assertThat(registry.scrape())
                .contains("dwd_comparison_episodes_total{kind=\"meltdown\",outcome=\"different\"} 0.0")
                .contains("dwd_comparison_episodes_total{kind=\"recovery\",outcome=\"dwd_only\"} 0.0")
                .doesNotContain("kind=\"weeding\"");

        metrics.episodeDecided(episode(List.of(act("kcm", 3, 0, 0)), List.of(act("kcm", 3, 0, 19)), false));
        metrics.episodeDecided(episode(List.of(act("kcm", 3, 0, 0)), List.of(), false));
        metrics.episodeDecided(episode(List.of(act("kcm", 0, 3, 9)), List.of(act("kcm", 0, 3, 0)), false));
        metrics.episodeDecided(episode(List.of(act("kcm", 3, 0, 600)), List.of(act("kcm", 3, 0, 0)), true));
        metrics.otherChange(new OtherChange(NS, "kcm", "replicas 3→2", "kubectl", T0));

        assertThat(registry.scrape())
                .contains("dwd_comparison_episodes_total{kind=\"meltdown\",outcome=\"both\"} 3.0")
                .contains("dwd_comparison_episodes_total{kind=\"meltdown\",outcome=\"dwd_only\"} 1.0")
                .contains("dwd_comparison_lead_seconds_bucket{ahead=\"dwd\",kind=\"meltdown\",le=\"20.0\"} 1")
                .contains("dwd_comparison_lead_seconds_bucket{ahead=\"dwd\",kind=\"meltdown\",le=\"10.0\"} 0")
                .contains("dwd_comparison_lead_seconds_count{ahead=\"original\",kind=\"meltdown\"} 1")
                .contains("dwd_comparison_lead_seconds_count{ahead=\"dwd\",kind=\"meltdown\"} 1")
                .contains("dwd_comparison_other_changes_total 1.0");
    }

    @Test
    void theStatusPageListsTotalsEpisodesOpenOnesAndOtherChanges() {
        var scheduler = new ManualScheduler();
        var comparison = new Comparison(Comparison.Settings.weeder(Duration.ofMinutes(5)), scheduler, metrics);
        comparison.acted(Side.DWD, EpisodeKind.WEEDING, NS, "etcd-main-client",
                new Act("uid-0", "kube-apiserver-0", 0, 0, T0, "CrashLoopBackOff after etcd-main-client turned ready", false));
        comparison.acted(Side.ORIGINAL, EpisodeKind.WEEDING, NS, "etcd-main-client",
                new Act("uid-0", "kube-apiserver-0", 0, 0, T0.plusMillis(40), "deleted in CrashLoopBackOff", false));
        comparison.acted(Side.DWD, EpisodeKind.WEEDING, "shoot--dev--b", "etcd-main-client",
                new Act("uid-1", "kube-apiserver-1", 0, 0, T0, "", false));
        comparison.otherChange(new OtherChange(NS, "kcm", "replicas 3→2", "kubectl", T0));
        scheduler.advance(Comparison.SETTLE);

        String page = new ComparisonJson("weeder", "dependency-watchdog", comparison, () -> T0).get();

        assertThat(page).startsWith("{\"generatedAt\":\"2026-11-28T10:00:00Z\",\"role\":\"weeder\"")
                .contains("\"window\":\"5m0s\",\"originalFieldManager\":\"dependency-watchdog\"")
                .contains("\"totals\":{\"both\":1,\"dwd_only\":0,\"original_only\":0,\"different\":0}")
                .contains("\"episodes\":[{\"namespace\":\"shoot--dev--a\",\"kind\":\"weeding\",\"subject\":\"etcd-main-client\"")
                .contains("\"outcome\":\"both\",\"reason\":\"same pods: kube-apiserver-0\",\"leadSeconds\":0.04")
                .contains("\"dwd\":[{\"target\":\"uid-0\",\"label\":\"kube-apiserver-0\",\"from\":0,\"to\":0,"
                        + "\"at\":\"2026-11-28T10:00:00Z\",\"why\":\"CrashLoopBackOff after etcd-main-client turned ready\"")
                .contains("\"open\":[{\"namespace\":\"shoot--dev--b\"")
                .contains("\"outcome\":\"dwd_only\"")
                .contains("\"otherChanges\":[{\"namespace\":\"shoot--dev--a\",\"target\":\"kcm\",\"change\":\"replicas 3→2\","
                        + "\"writer\":\"kubectl\"");
    }

    /** Runs what is due when the test advances it. */
    private static final class ManualScheduler implements Scheduler {
        private record Task(long due, Runnable run) { }

        private final List<Task> tasks = new ArrayList<>();
        private long nanos;

        @Override
        public Instant now() {
            return T0.plusNanos(nanos);
        }

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            tasks.add(new Task(nanos + delay.toNanos(), task));
            return () -> { };
        }

        void advance(Duration by) {
            nanos += by.toNanos();
            for (Task task : List.copyOf(tasks)) {
                if (task.due() <= nanos) {
                    tasks.remove(task);
                    task.run().run();
                }
            }
        }
    }
}
