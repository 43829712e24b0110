package dwd.bootstrap.prober;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Records what an in-JVM prober reports, as typed events in the order they happened. */
final class ProberEvents implements ProberObserver {

    sealed interface Event {
        Instant at();

        String namespace();
    }

    record Started(Instant at, String namespace) implements Event { }

    record Stopped(Instant at, String namespace, String reason) implements Event { }

    record Succeeded(Instant at, String namespace, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe)
            implements Event { }

    record Failed(Instant at, String namespace, ProbeStage stage, ApiFailure failure, Instant nextProbe)
            implements Event {
        ApiFailure.Kind kind() {
            return failure.kind();
        }
    }

    record FlowStarted(Instant at, String namespace, ScaleDirection direction) implements Event { }

    record Scaled(Instant at, String namespace, ScaleDirection direction, ResourceRef ref, int from, int to)
            implements Event { }

    record Skipped(Instant at, String namespace, ScaleDirection direction, ResourceRef ref, String reason)
            implements Event { }

    record ResourceFailed(Instant at, String namespace, ScaleDirection direction, ResourceRef ref, String reason)
            implements Event { }

    record FlowFinished(Instant at, String namespace, ScaleDirection direction, FlowOutcome outcome)
            implements Event { }

    record LeaseWatch(Instant at, String namespace, boolean watching) implements Event { }

    record BroughtForward(Instant at, String namespace) implements Event { }

    private final List<Event> events = new ArrayList<>();

    private synchronized void add(Event event) {
        events.add(event);
    }

    /** Every event about {@code namespace}, in order. */
    synchronized List<Event> of(String namespace) {
        return events.stream().filter(event -> event.namespace().equals(namespace)).toList();
    }

    /** The events of one type about {@code namespace}, in order. */
    synchronized <T extends Event> List<T> of(Class<T> type, String namespace) {
        return events.stream().filter(type::isInstance).map(type::cast)
                .filter(event -> event.namespace().equals(namespace)).toList();
    }

    /** The events of one type about {@code namespace} after {@code since}, in order. */
    <T extends Event> List<T> since(Instant since, Class<T> type, String namespace) {
        return of(type, namespace).stream().filter(event -> event.at().isAfter(since)).toList();
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        add(new Started(Instant.now(), ns));
    }

    @Override
    public void probeStopped(String ns, String reason) {
        add(new Stopped(Instant.now(), ns, reason));
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        add(new Succeeded(Instant.now(), ns, verdict, action, nextProbe));
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        add(new Failed(Instant.now(), ns, stage, failure, nextProbe));
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        add(new LeaseWatch(Instant.now(), ns, watching));
    }

    @Override
    public void probeBroughtForward(String ns) {
        add(new BroughtForward(Instant.now(), ns));
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        add(new FlowStarted(Instant.now(), ns, direction));
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to,
            LeaseVerdict cause) {
        add(new Scaled(Instant.now(), ns, direction, ref, from, to));
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        add(new Skipped(Instant.now(), ns, direction, ref, reason));
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        add(new ResourceFailed(Instant.now(), ns, direction, ref, reason));
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        add(new FlowFinished(Instant.now(), ns, direction, outcome));
    }
}
