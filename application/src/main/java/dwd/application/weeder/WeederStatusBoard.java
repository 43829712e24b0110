package dwd.application.weeder;

import dwd.application.port.out.Clock;
import dwd.application.port.out.WeederObserver;
import dwd.domain.weeding.PodState;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running weeders, for the {@code /weeders} status endpoint: one entry per weeder with its
 * namespace, service, window and the pods it deleted. An entry exists from the weeder's start to
 * its stop, so the page shows exactly what runs now.
 *
 * <p>Updated with one atomic map operation per event and read as an immutable snapshot: a status
 * request never waits for a weeder, and a weeder never waits for it.
 */
public final class WeederStatusBoard implements WeederObserver {

    /** A pod deleted by a weeder, and when. */
    public record Deletion(String pod, Instant at) { }

    /** One running weeder: it watches until {@code until}, and deleted {@code podsDeleted} pods so far. */
    public record WeederStatus(String namespace, String service, Instant started, Instant until, long podsDeleted,
                               Optional<Deletion> lastDeletion) { }

    private record Key(String namespace, String service) { }

    private final Clock clock;
    private final ConcurrentHashMap<Key, WeederStatus> weeders = new ConcurrentHashMap<>();

    public WeederStatusBoard(Clock clock) {
        this.clock = clock;
    }

    /** Every running weeder, by namespace, then service. */
    public List<WeederStatus> snapshot() {
        return weeders.values().stream()
                .sorted(Comparator.comparing(WeederStatus::namespace).thenComparing(WeederStatus::service))
                .toList();
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        weeders.put(new Key(namespace, service),
                new WeederStatus(namespace, service, clock.now(), until, 0, Optional.empty()));
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        weeders.remove(new Key(namespace, service));
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        var deletion = new Deletion(pod.name(), clock.now());
        // A deletion that finishes after its weeder stopped belongs to no running weeder: not shown.
        weeders.computeIfPresent(new Key(namespace, service), (key, status) -> new WeederStatus(namespace, service,
                status.started(), status.until(), status.podsDeleted() + 1, Optional.of(deletion)));
    }
}
