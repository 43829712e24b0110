package dwd.application.comparison;

import dwd.application.port.out.ComparisonObserver;
import dwd.application.port.out.Scheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.Episode;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.Judgement;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Outcome;
import dwd.domain.comparison.Side;
import dwd.domain.config.ProberConfig;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.scaling.ScalePlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The book of episodes: dwd's would-be actions and the original's actions, paired by shoot namespace, kind
 * (meltdown, recovery, weeding) and subject (a weeding episode's service).
 *
 * <p>An action opens an episode when none of its key is open. An episode is decided when it is complete
 * and has been quiet for {@link #SETTLE}, or at the latest {@code window} after it opened: complete means
 * that dwd's side is done (its flow finished after its last action; a weeder has no flow and is done at
 * once) and that the original acted on every target dwd acted on. An action that comes after its episode
 * was decided opens the next one. Windows are measured on the monotonic clock from when dwd saw the
 * episode's first action, so an action read back from the seed after a restart gets its full window.
 *
 * <p>Bounded: the last {@link #KEPT_EPISODES} decided episodes and {@link #KEPT_OTHER_CHANGES} other
 * changes are kept (the totals count every one), and each side of an episode keeps at most
 * {@link #ACTS_PER_SIDE} actions. Thread-safe.
 */
public final class Comparison {

    /** How long an episode must have been quiet before it is decided complete: the rest of a level, another pod. */
    public static final Duration SETTLE = Duration.ofSeconds(2);
    public static final int KEPT_EPISODES = 1_000;
    public static final int KEPT_OTHER_CHANGES = 100;
    static final int ACTS_PER_SIDE = 100;

    /**
     * @param window       how long one side may take after the other acted before the episode is decided without it
     * @param levels       each kind's level of each dependent in its flow's plan, by name (none for weeding)
     */
    public record Settings(Duration window, Map<EpisodeKind, Map<String, Integer>> levels) {
        public Settings {
            Objects.requireNonNull(window, "window");
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("the comparison window must be positive, was " + window);
            }
            var copy = new EnumMap<EpisodeKind, Map<String, Integer>>(EpisodeKind.class);
            levels.forEach((kind, byName) -> copy.put(kind, Map.copyOf(byName)));
            levels = copy;
        }

        /** The prober's settings: each dependent's level in the scale-down (meltdown) and scale-up (recovery) plans. */
        public static Settings prober(Duration window, ProberConfig config) {
            var levels = new EnumMap<EpisodeKind, Map<String, Integer>>(EpisodeKind.class);
            for (ScaleDirection direction : ScaleDirection.values()) {
                var byName = new HashMap<String, Integer>();
                ScalePlan.of(config.dependentResourceInfos(), direction).levels()
                        .forEach(level -> level.steps().forEach(step -> byName.put(step.ref().name(), level.level())));
                levels.put(direction == ScaleDirection.DOWN ? EpisodeKind.MELTDOWN : EpisodeKind.RECOVERY, byName);
            }
            return new Settings(window, levels);
        }

        /** The weeder's settings: pods have no order. */
        public static Settings weeder(Duration window) {
            return new Settings(window, Map.of());
        }

        Map<String, Integer> levelsOf(EpisodeKind kind) {
            return levels.getOrDefault(kind, Map.of());
        }
    }

    /** What the book holds now, for the status page; an open episode is judged as it stands. */
    public record Report(Instant since, Duration window, Map<Outcome, Long> totals, List<Episode> decided,
                         List<Episode> open, List<OtherChange> otherChanges) { }

    private record Key(String namespace, EpisodeKind kind, String subject) { }

    private final class Open {
        final Key key;
        final Instant openedAt;
        final long openedNanos;
        final Map<Side, List<Act>> acts = new EnumMap<>(Side.class);
        long lastActNanos;
        boolean dwdDone;

        Open(Key key) {
            this.key = key;
            this.openedAt = scheduler.now();
            this.openedNanos = scheduler.nanoTime();
            acts.put(Side.DWD, new ArrayList<>());
            acts.put(Side.ORIGINAL, new ArrayList<>());
        }

        Set<String> targets(Side side) {
            return acts.get(side).stream().map(Act::target).collect(Collectors.toSet());
        }

        boolean complete() {
            return !acts.get(Side.DWD).isEmpty() && dwdDone && targets(Side.ORIGINAL).containsAll(targets(Side.DWD));
        }

        Episode decide() {
            List<Act> dwd = Judgement.firstPerTarget(acts.get(Side.DWD));
            List<Act> original = Judgement.firstPerTarget(acts.get(Side.ORIGINAL));
            boolean reconstructed = dwd.stream().anyMatch(Act::reconstructed) || original.stream().anyMatch(Act::reconstructed);
            return new Episode(key.namespace(), key.kind(), key.subject(), openedAt, scheduler.now(), dwd, original,
                    Judgement.judge(dwd, original, settings.levelsOf(key.kind())), reconstructed);
        }
    }

    private final Settings settings;
    private final Scheduler scheduler;
    private final ComparisonObserver observer;
    private final Instant since;
    // All guarded by this; the observer is called outside.
    private final Map<Key, Open> open = new HashMap<>();
    private final Deque<Episode> decided = new ArrayDeque<>();
    private final Deque<OtherChange> otherChanges = new ArrayDeque<>();
    private final Map<Outcome, Long> totals = new EnumMap<>(Outcome.class);

    public Comparison(Settings settings, Scheduler scheduler, ComparisonObserver observer) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.scheduler = scheduler;
        this.observer = observer;
        this.since = scheduler.now();
        for (Outcome outcome : Outcome.values()) {
            totals.put(outcome, 0L);
        }
    }

    public Settings settings() {
        return settings;
    }

    /** One side acted; the action joins the open episode of its key, or opens one. */
    public void acted(Side side, EpisodeKind kind, String namespace, String subject, Act act) {
        Key key = new Key(namespace, kind, subject);
        boolean opened;
        synchronized (this) {
            Open episode = open.get(key);
            opened = episode == null;
            if (opened) {
                episode = new Open(key);
                open.put(key, episode);
            }
            List<Act> acts = episode.acts.get(side);
            if (acts.size() < ACTS_PER_SIDE) {
                acts.add(act);
            }
            episode.lastActNanos = scheduler.nanoTime();
            if (side == Side.DWD) {
                episode.dwdDone = kind == EpisodeKind.WEEDING; // a flow is done when it says so
            }
        }
        scheduler.schedule(SETTLE, () -> check(key));
        if (opened) {
            scheduler.schedule(settings.window(), () -> check(key));
        }
    }

    /** dwd's flow of {@code kind} for {@code namespace} finished: its side of the open episode is done. */
    public void dwdFlowFinished(String namespace, EpisodeKind kind) {
        Key key = new Key(namespace, kind, "");
        synchronized (this) {
            Open episode = open.get(key);
            if (episode == null || episode.acts.get(Side.DWD).isEmpty()) {
                return;
            }
            episode.dwdDone = true;
        }
        scheduler.schedule(SETTLE, () -> check(key));
    }

    /** A change not counted as the original's, kept for the report. */
    public void otherChange(OtherChange change) {
        synchronized (this) {
            otherChanges.addLast(change);
            while (otherChanges.size() > KEPT_OTHER_CHANGES) {
                otherChanges.removeFirst();
            }
        }
        observer.otherChange(change);
    }

    private void check(Key key) {
        Episode episode;
        synchronized (this) {
            Open candidate = open.get(key);
            if (candidate == null) {
                return;
            }
            long now = scheduler.nanoTime();
            boolean windowOver = now - candidate.openedNanos >= settings.window().toNanos();
            boolean settled = now - candidate.lastActNanos >= SETTLE.toNanos() && candidate.complete();
            if (!windowOver && !settled) {
                return;
            }
            open.remove(key);
            episode = candidate.decide();
            decided.addLast(episode);
            while (decided.size() > KEPT_EPISODES) {
                decided.removeFirst();
            }
            totals.merge(episode.outcome(), 1L, Long::sum);
        }
        observer.episodeDecided(episode);
    }

    /** What the book holds now. */
    public synchronized Report report() {
        return new Report(since, settings.window(), Map.copyOf(totals), List.copyOf(decided),
                open.values().stream().map(Open::decide).toList(),
                List.copyOf(otherChanges));
    }
}
