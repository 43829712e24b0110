package dwd.application.weeder;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Cancellable;
import dwd.application.port.out.PodWatch;
import dwd.application.port.out.PodWatches;
import dwd.application.port.out.Pods;
import dwd.application.port.out.Scheduler;
import dwd.application.port.out.WeederObserver;
import dwd.application.port.out.WeederObserver.StopReason;
import dwd.domain.selector.LabelSelector;
import dwd.domain.weeding.CrashLoop;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The weeder of one service in one namespace, for one readiness window: it watches the pods of each
 * of the service's selectors and deletes those stuck in CrashLoopBackOff, each incarnation (UID) at
 * most once, until its {@code watchDuration} ends or it is stopped.
 *
 * <p>Threading: pod events arrive on the adapter's watch threads, concurrently for different
 * selectors; {@link #handledUids} is what they share. Start and stop are serialised by the
 * supervisor's per-service map operation.
 */
final class Weeder {

    private static final System.Logger LOG = System.getLogger(Weeder.class.getName());

    private final String namespace;
    private final String service;
    private final List<LabelSelector> selectors;
    private final Duration watchDuration;
    private final Scheduler scheduler;
    private final PodWatches podWatches;
    private final Pods pods;
    private final WeederObserver observer;

    /** UIDs deleted, or being deleted, by this weeder; forgotten when it stops. */
    private final Set<String> handledUids = ConcurrentHashMap.newKeySet();
    /** A pod's problem warned about in this window (no UID, a refused deletion): each once, then at debug level. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final List<PodWatch> watches = new ArrayList<>();
    private Cancellable expiry = () -> { };

    Weeder(String namespace, String service, List<LabelSelector> selectors, Duration watchDuration,
            Scheduler scheduler, PodWatches podWatches, Pods pods, WeederObserver observer) {
        this.namespace = namespace;
        this.service = service;
        this.selectors = List.copyOf(selectors);
        this.watchDuration = watchDuration;
        this.scheduler = scheduler;
        this.podWatches = podWatches;
        this.pods = pods;
        this.observer = observer;
    }

    /**
     * Opens one pod watch per selector, schedules {@code onExpiry} at the end of the window, then
     * tells the observers (which log the window). The watches come first: their lists are on their
     * way while the observers run. No deletion is reported to the observers before this returns.
     */
    synchronized void start(Runnable onExpiry) {
        Instant until = scheduler.now().plus(watchDuration);
        expiry = scheduler.schedule(watchDuration, onExpiry);
        for (LabelSelector selector : selectors) {
            try {
                watches.add(podWatches.watch(namespace, selector, this::podChanged));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, namespace + ": cannot watch pods " + selector.toQueryString()
                        + " for service " + service, e);
            }
        }
        observer.weederStarted(namespace, service, until);
    }

    /** Closes the watches and forgets what was deleted; only the first call has an effect. */
    void stop(StopReason reason) {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        List<PodWatch> open;
        synchronized (this) {
            expiry.cancel();
            open = List.copyOf(watches);
            watches.clear();
        }
        for (PodWatch watch : open) {
            try {
                watch.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, namespace + ": closing a pod watch failed", e);
            }
        }
        handledUids.clear();
        warned.clear();
        observer.weederStopped(namespace, service, reason);
    }

    /** Returns once {@link #start} has returned, so that observers hear of the window before of its deletions. */
    private synchronized void afterStart() {
        // Nothing to do: holding the monitor is the point (start holds it until the observers know).
    }

    private void podChanged(PodState pod) {
        if (stopped.get() || !CrashLoop.isCrashLooping(pod)) {
            return;
        }
        if (pod.uid().isEmpty()) {
            // Without a UID the deletion cannot be made safe against a replacement of the same name.
            LOG.log(warned.add(pod.name() + ": no UID") ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                    () -> namespace + ": pod " + pod.name() + " has no UID; not deleted");
            return;
        }
        if (!handledUids.add(pod.uid())) {
            return;
        }
        // The outcome is logged by the observers (LoggingWeederObserver; in shadow mode as a would-be deletion).
        LOG.log(System.Logger.Level.DEBUG, () -> namespace + ": pod " + pod.name() + " (uid " + pod.uid()
                + ") is in CrashLoopBackOff after service " + service + " turned ready");
        Pods.Deletion outcome;
        try {
            outcome = pods.delete(namespace, pod.name(), pod.uid());
        } catch (ApiFailure failure) {
            handledUids.remove(pod.uid());
            LOG.log(warned.add(pod.name() + ": " + failure.getMessage()) ? System.Logger.Level.WARNING
                    : System.Logger.Level.DEBUG, () -> namespace + ": deleting pod " + pod.name() + " failed ("
                    + failure.kind() + "): " + failure.getMessage());
            afterStart();
            observer.podDeletionFailed(namespace, service, pod, failure);
            return;
        } catch (RuntimeException unexpected) {
            handledUids.remove(pod.uid());
            LOG.log(System.Logger.Level.ERROR, namespace + ": deleting pod " + pod.name() + " failed unexpectedly",
                    unexpected);
            return;
        }
        afterStart();
        switch (outcome) {
            case DELETED -> observer.podDeleted(namespace, service, pod);
            case ALREADY_GONE, REPLACED -> {
                LOG.log(System.Logger.Level.INFO, () -> namespace + ": pod " + pod.name() + " (uid " + pod.uid()
                        + ") left alone: " + (outcome == Pods.Deletion.REPLACED ? "replaced by another incarnation"
                                : "already gone"));
                observer.podLeftAlone(namespace, service, pod, outcome);
            }
        }
    }
}
