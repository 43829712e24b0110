package dwd.adapters.metrics;

import dwd.application.port.out.ComparisonObserver;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The metrics of the comparison with the original:
 * <ul>
 * <li>{@code dwd_comparison_episodes_total{kind, outcome}}: decided episodes; {@code kind} is {@code meltdown},
 *     {@code recovery} or {@code weeding}, {@code outcome} {@code both}, {@code dwd_only}, {@code original_only}
 *     or {@code different}. Every combination of the role's kinds is there from the start, at 0.</li>
 * <li>{@code dwd_comparison_lead_seconds{kind, ahead}}: a histogram of how far dwd's first would-be write of an
 *     episode of both was ahead of the original's first write ({@code ahead="dwd"}), or behind it
 *     ({@code ahead="original"}); episodes picked up after a restart are left out.</li>
 * <li>{@code dwd_comparison_other_changes_total}: changes not counted as the original's.</li>
 * </ul>
 */
public final class ComparisonMetrics implements ComparisonObserver {

    static final String EPISODES = "dwd.comparison.episodes";
    static final String LEAD = "dwd.comparison.lead";
    static final String OTHER_CHANGES = "dwd.comparison.other.changes";
    private static final Duration[] LEAD_BUCKETS = {Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20),
        Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300)};

    private final MeterRegistry registry;
    private final Counter otherChanges;

    /** @param kinds the episodes the role has: the prober's meltdowns and recoveries, the weeder's weedings */
    public ComparisonMetrics(MeterRegistry registry, List<EpisodeKind> kinds) {
        this.registry = registry;
        for (EpisodeKind kind : kinds) {
            for (Outcome outcome : Outcome.values()) {
                episodes(kind, outcome);
            }
        }
        otherChanges = Counter.builder(OTHER_CHANGES)
                .description("Changes the comparison saw and did not count as the original's (by hand, another controller)")
                .register(registry);
    }

    @Override
    public void episodeDecided(Episode episode) {
        episodes(episode.kind(), episode.outcome()).increment();
        if (episode.outcome() == Outcome.BOTH && !episode.reconstructed()) {
            episode.judgement().lead().ifPresent(lead -> Timer.builder(LEAD)
                    .tag("kind", name(episode.kind())).tag("ahead", lead.isNegative() ? "original" : "dwd")
                    .serviceLevelObjectives(LEAD_BUCKETS)
                    .description("How far dwd's first would-be write of an episode was ahead of the original's first write")
                    .register(registry).record(lead.abs()));
        }
    }

    @Override
    public void otherChange(OtherChange change) {
        otherChanges.increment();
    }

    private Counter episodes(EpisodeKind kind, Outcome outcome) {
        return Counter.builder(EPISODES).tag("kind", name(kind)).tag("outcome", name(outcome))
                .description("Episodes of the comparison with the original, by how dwd's would-be actions compared")
                .register(registry);
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
