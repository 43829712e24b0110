package dwd.application.comparison;

import dwd.application.port.in.WatchedPods;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.Scheduler;
import dwd.domain.comparison.Act;
import dwd.domain.comparison.EpisodeKind;
import dwd.domain.comparison.OtherChange;
import dwd.domain.comparison.Side;
import dwd.domain.config.WeederConfig;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The original weeder's deletions, seen in the pods the weeders' selectors select.
 *
 * <p>The rule: a deletion leaves no writer in the pod (Kubernetes records who deleted an object in the
 * audit log only). A pod deleted while in CrashLoopBackOff, selected by a service's selector, within that
 * service's weeder window in its namespace (from when the service turned ready, as dwd's weeder saw it, for
 * {@code watchDuration}; a deletion up to {@link #READINESS_GRACE} before dwd saw the service turn ready
 * counts too: the original may see it first) is taken for the original's. Any other deletion is listed as
 * someone else's. Limits: a person who deletes a crash-looping pod inside a window is taken for the original;
 * a window the original opened on a readiness dwd does not share is not seen.
 *
 * <p>A pod the original deleted stays in dwd's view until dwd's weeder decided on it, or its window
 * ended ({@link WithoutOriginalDeletions}): without the original it would still be there, and dwd's weeder
 * may open its watch a moment after the original deleted it.
 *
 * <p>Bounded: at most {@link #KEPT_PODS} crash-looping pods and as many pods kept in dwd's view; deletions
 * wait at most {@link #READINESS_GRACE} for their window.
 */
public final class OriginalDeletions implements WatchedPods {

    /** How long before dwd saw a service turn ready a deletion may come and still be the original's. */
    public static final Duration READINESS_GRACE = Duration.ofSeconds(5);
    static final int KEPT_PODS = 10_000;

    private record Tracked(LabelSelector selector, PodState pod) { }

    private record Deletion(LabelSelector selector, PodState pod, Instant at, long atNanos) { }

    private record Place(String namespace, LabelSelector selector) { }

    private record Kept(Place place, PodState pod, long untilNanos) { }

    private final WeederConfig config;
    private final Scheduler scheduler;
    private final Comparison comparison;
    // All guarded by this; listeners are called outside, through the scheduler.
    private final Map<String, Tracked> crashLooping = bounded();
    private final Map<String, Deletion> pending = new LinkedHashMap<>();
    private final Map<String, Instant> readySince = new HashMap<>();
    private final Map<String, Kept> kept = bounded();
    private final Map<Place, List<Consumer<PodState>>> listeners = new HashMap<>();

    public OriginalDeletions(WeederConfig config, Scheduler scheduler, Comparison comparison) {
        this.config = config;
        this.scheduler = scheduler;
        this.comparison = comparison;
    }

    private static <V> Map<String, V> bounded() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > KEPT_PODS;
            }
        };
    }

    @Override
    public void podChanged(LabelSelector selector, PodState pod) {
        Tracked before;
        synchronized (this) {
            before = crashLooping.get(pod.uid());
            if (CrashLoop.isCrashLooping(pod)) {
                crashLooping.put(pod.uid(), new Tracked(selector, pod));
                return;
            }
            crashLooping.remove(pod.uid());
        }
        if (before != null && pod.beingDeleted()) {
            deleted(before.selector(), before.pod());
        }
    }

    @Override
    public void podDeleted(LabelSelector selector, PodState lastSeen) {
        Tracked before;
        synchronized (this) {
            before = crashLooping.remove(lastSeen.uid());
        }
        if (before != null) {
            deleted(before.selector(), before.pod());
        }
    }

    /** dwd's weeder saw a service's readiness change; a transition to ready opens its window. */
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        if (!ready) {
            return;
        }
        Instant now = scheduler.now();
        List<Deletion> waiting = new ArrayList<>();
        synchronized (this) {
            readySince.put(namespace + "/" + service, now);
            pending.values().removeIf(deletion -> {
                boolean belongs = deletion.pod().namespace().equals(namespace)
                        && servicesOf(deletion.selector()).contains(service);
                if (belongs) {
                    waiting.add(deletion);
                }
                return belongs;
            });
        }
        waiting.forEach(deletion -> attribute(deletion, service));
    }

    /** dwd's weeder decided on this pod: it leaves dwd's view. */
    public synchronized void dwdDecided(String uid) {
        kept.remove(uid);
    }

    /**
     * Hands {@code listener} each pod the original deleted in {@code namespace} that {@code selector} selects
     * and dwd has not decided on, now and as they come, each once, until the registration is cancelled.
     */
    Cancellable keptPods(String namespace, LabelSelector selector, Consumer<PodState> listener) {
        var place = new Place(namespace, selector);
        List<PodState> now = new ArrayList<>();
        synchronized (this) {
            listeners.computeIfAbsent(place, p -> new ArrayList<>()).add(listener);
            long nanos = scheduler.nanoTime();
            kept.values().removeIf(pod -> pod.untilNanos() - nanos <= 0);
            kept.values().stream().filter(pod -> pod.place().equals(place)).forEach(pod -> now.add(pod.pod()));
        }
        now.forEach(pod -> scheduler.execute(() -> listener.accept(pod)));
        return () -> {
            synchronized (this) {
                List<Consumer<PodState>> registered = listeners.get(place);
                if (registered != null) {
                    registered.remove(listener);
                    if (registered.isEmpty()) {
                        listeners.remove(place);
                    }
                }
            }
        };
    }

    private void deleted(LabelSelector selector, PodState pod) {
        var deletion = new Deletion(selector, pod, scheduler.now(), scheduler.nanoTime());
        Optional<String> service = openWindow(deletion);
        if (service.isPresent()) {
            attribute(deletion, service.get());
            return;
        }
        synchronized (this) {
            pending.put(pod.uid(), deletion);
        }
        scheduler.schedule(READINESS_GRACE, () -> {
            boolean unclaimed;
            synchronized (this) {
                unclaimed = pending.remove(pod.uid()) != null;
            }
            if (unclaimed) {
                comparison.otherChange(new OtherChange(pod.namespace(), pod.name(),
                        "deleted in CrashLoopBackOff outside any weeder window", "unknown", deletion.at()));
            }
        });
    }

    /** The service whose weeder window in the pod's namespace holds the deletion, if any. */
    private synchronized Optional<String> openWindow(Deletion deletion) {
        for (String service : servicesOf(deletion.selector())) {
            Instant ready = readySince.get(deletion.pod().namespace() + "/" + service);
            if (ready != null && !deletion.at().isBefore(ready)
                    && deletion.at().isBefore(ready.plus(config.watchDuration()))) {
                return Optional.of(service);
            }
        }
        return Optional.empty();
    }

    private void attribute(Deletion deletion, String service) {
        PodState pod = deletion.pod();
        comparison.acted(Side.ORIGINAL, EpisodeKind.WEEDING, pod.namespace(), service, new Act(pod.uid(), pod.name(),
                0, 0, deletion.at(), "deleted in CrashLoopBackOff within " + service + "'s weeder window", false,
                deletion.atNanos()));
        var place = new Place(pod.namespace(), deletion.selector());
        List<Consumer<PodState>> waiting;
        synchronized (this) {
            kept.put(pod.uid(), new Kept(place, pod, scheduler.nanoTime() + config.watchDuration().toNanos()));
            waiting = List.copyOf(listeners.getOrDefault(place, List.of()));
        }
        waiting.forEach(listener -> scheduler.execute(() -> listener.accept(pod)));
    }

    private List<String> servicesOf(LabelSelector selector) {
        return config.servicesAndDependantSelectors().entrySet().stream()
                .filter(entry -> entry.getValue().contains(selector)).map(Map.Entry::getKey).sorted().toList();
    }
}
