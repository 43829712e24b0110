package dwd.bootstrap.demo;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.application.port.out.ShadowObserver;
import dwd.application.port.out.WeederObserver;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import dwd.domain.weeding.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What dwd did during the demo, as it happened: every prober and weeder event with its time,
 * printed as it comes and kept for the checks of the summary. In shadow mode it hears the would-be
 * actions instead of the scalings and deletions.
 */
final class DemoTimeline implements ProberObserver, WeederObserver, ShadowObserver {

    /** One thing dwd did or saw. */
    record Event(Instant at, String namespace, Kind kind, String subject, String text, LeaseVerdict verdict) {
        boolean is(Kind candidate, String ns) {
            return kind == candidate && namespace.equals(ns);
        }
    }

    /** In shadow mode, SCALED and POD_DELETED are the would-be scalings and deletions. */
    enum Kind { VERDICT, SCALED, ANNOTATED, SKIPPED, FAILED, FLOW_DONE, PROBE_FAILED, READY, NOT_READY, WEEDER, POD_DELETED, POD_LEFT }

    private final List<Event> events = new ArrayList<>();
    private final Consumer<Event> onEvent;

    DemoTimeline(Consumer<Event> onEvent) {
        this.onEvent = onEvent;
    }

    private void add(String namespace, Kind kind, String subject, String text, LeaseVerdict verdict) {
        var event = new Event(Instant.now(), namespace, kind, subject, text, verdict);
        // Shown before anyone waiting is woken, so that the story never prints ahead of its events.
        synchronized (this) {
            events.add(event);
            onEvent.accept(event);
            notifyAll();
        }
    }

    synchronized List<Event> events() {
        return List.copyOf(events);
    }

    synchronized List<Event> since(Instant start) {
        return events.stream().filter(e -> !e.at().isBefore(start)).toList();
    }

    /** Waits until {@code condition} holds for the events so far, or {@code timeout} passes; returns whether it held. */
    synchronized boolean await(Predicate<List<Event>> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.test(events)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        add(ns, Kind.VERDICT, "leases", verdict.candidates() + " candidates, " + verdict.expired() + " expired, fraction "
                + String.format(java.util.Locale.ROOT, "%.2f", verdict.fraction())
                + (verdict.decision() == Decision.SCALE_DOWN ? " >= " : " < ")
                + String.format(java.util.Locale.ROOT, "%.2f", verdict.threshold()), verdict);
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        add(ns, Kind.PROBE_FAILED, stage.name(), failure.getMessage(), null);
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        add(ns, Kind.SCALED, ref.name(), ref.name() + " " + from + " -> " + to + " replicas", cause);
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        add(ns, Kind.SKIPPED, ref.name(), ref.name() + " skipped: " + reason, null);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        add(ns, Kind.FAILED, ref.name(), ref.name() + " failed: " + reason, null);
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        add(ns, Kind.FLOW_DONE, direction.name(), (direction == ScaleDirection.UP ? "scale-up " : "scale-down ")
                + outcome.name().toLowerCase(java.util.Locale.ROOT), null);
    }

    @Override
    public void wouldScale(WouldScale action) {
        add(action.namespace(), Kind.SCALED, action.ref().name(), "would scale " + action.ref().name() + " " + action.from()
                + " -> " + action.to() + " replicas: " + answers(action.writes().stream().map(Write::answer).toList()),
                action.cause());
    }

    @Override
    public void wouldAnnotate(WouldAnnotate action) {
        add(action.namespace(), Kind.ANNOTATED, action.ref().name(), "would change annotations of " + action.ref().name()
                + ": " + answers(action.writes().stream().map(Write::answer).toList()), null);
    }

    @Override
    public void wouldDelete(WouldDelete action) {
        add(action.namespace(), Kind.POD_DELETED, action.pod().name(), "would delete crash-looping pod " + action.pod().name()
                + " (depends on " + action.service() + "): " + answers(List.of(action.answer())), null);
    }

    /** {@code not sent}, {@code accepted by the API server}, or the first refusal. */
    private static String answers(List<Answer> answers) {
        for (Answer answer : answers) {
            if (answer instanceof Answer.Refused refused) {
                return "the API server refuses: " + refused.reason();
            }
        }
        return answers.stream().anyMatch(Answer.Accepted.class::isInstance) ? "accepted by the API server, not persisted"
                : "not sent";
    }

    @Override
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        add(namespace, ready ? Kind.READY : Kind.NOT_READY, service, service + (ready ? " is ready" : " is not ready"), null);
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        add(namespace, Kind.WEEDER, service, "weeder started for " + service + ": watching its dependents until "
                + until.truncatedTo(java.time.temporal.ChronoUnit.SECONDS), null);
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        add(namespace, Kind.POD_DELETED, pod.name(), "deleted crash-looping pod " + pod.name() + " (depends on " + service + ")",
                null);
    }

    @Override
    public void podLeftAlone(String namespace, String service, PodState pod, dwd.application.port.out.Pods.Deletion outcome) {
        add(namespace, Kind.POD_LEFT, pod.name(), "left pod " + pod.name() + " alone: " + outcome, null);
    }
}
