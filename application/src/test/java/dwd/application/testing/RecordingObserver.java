package dwd.application.testing;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
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

/** Records prober events as lines with their (virtual) time, for assertions. */
public final class RecordingObserver implements ProberObserver {

    /** One event. */
    public record Event(Instant at, String namespace, String what) { }

    private final Clock clock;
    private final List<Event> events = new ArrayList<>();
    private final List<LeaseVerdict> verdicts = new ArrayList<>();
    private final List<Event> nextProbes = new ArrayList<>();

    public RecordingObserver(Clock clock) {
        this.clock = clock;
    }

    private synchronized void record(String namespace, String what) {
        events.add(new Event(clock.now(), namespace, what));
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    public synchronized List<String> lines(String namespace) {
        return events.stream().filter(e -> e.namespace().equals(namespace)).map(Event::what).toList();
    }

    public synchronized List<LeaseVerdict> verdicts() {
        return List.copyOf(verdicts);
    }

    /** Each run's announced next run: when it was announced ({@code at}) and for when ({@code what}, an instant). */
    public synchronized List<Event> nextProbes() {
        return List.copyOf(nextProbes);
    }

    public synchronized long count(String prefix) {
        return events.stream().filter(e -> e.what().startsWith(prefix)).count();
    }

    @Override
    public void probeStarted(String ns, Duration firstRunIn) {
        record(ns, "probe started");
    }

    @Override
    public void probeStopped(String ns, String reason) {
        record(ns, "probe stopped: " + reason);
    }

    @Override
    public void probeSucceeded(String ns, LeaseVerdict verdict, Optional<Decision> action, Instant nextProbe) {
        synchronized (this) {
            verdicts.add(verdict);
            nextProbes.add(new Event(clock.now(), ns, nextProbe.toString()));
        }
        record(ns, "verdict " + verdict.decision() + " action " + action.map(Enum::name).orElse("none"));
    }

    @Override
    public void probeFailed(String ns, ProbeStage stage, ApiFailure failure, Instant nextProbe) {
        record(ns, "probe failed " + stage + " " + failure.kind());
    }

    @Override
    public void leaseWatchChanged(String ns, boolean watching) {
        record(ns, watching ? "lease watch opened" : "lease watch closed");
    }

    @Override
    public void probeBroughtForward(String ns) {
        record(ns, "probe brought forward");
    }

    @Override
    public void wallClockStepped(Duration step, Duration heldFor) {
        record("", "wall clock stepped " + step + ", verdicts held " + heldFor);
    }

    @Override
    public void flowStarted(String ns, ScaleDirection direction, LeaseVerdict cause) {
        record(ns, "flow " + direction + " started");
    }

    @Override
    public void resourceScaled(String ns, ScaleDirection direction, ResourceRef ref, int from, int to, LeaseVerdict cause) {
        record(ns, "scaled " + ref.name() + " " + from + "->" + to);
    }

    @Override
    public void resourceSkipped(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        record(ns, "skipped " + ref.name() + ": " + reason);
    }

    @Override
    public void resourceFailed(String ns, ScaleDirection direction, ResourceRef ref, String reason) {
        record(ns, "failed " + ref.name() + ": " + reason);
    }

    @Override
    public void flowFinished(String ns, ScaleDirection direction, FlowOutcome outcome) {
        record(ns, "flow " + direction + " " + outcome);
    }
}
