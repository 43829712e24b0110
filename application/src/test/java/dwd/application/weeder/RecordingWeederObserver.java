package dwd.application.weeder;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.Clock;
import dwd.application.port.out.Pods;
import dwd.application.port.out.WeederObserver;
import dwd.domain.weeding.PodState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Records weeder events as lines with their (virtual) time. */
final class RecordingWeederObserver implements WeederObserver {

    /** One event. */
    record Event(Instant at, String namespace, String what) { }

    private final Clock clock;
    private final List<Event> events = new ArrayList<>();

    RecordingWeederObserver(Clock clock) {
        this.clock = clock;
    }

    private synchronized void record(String namespace, String what) {
        events.add(new Event(clock.now(), namespace, what));
    }

    synchronized List<String> lines(String namespace) {
        return events.stream().filter(event -> event.namespace().equals(namespace)).map(Event::what).toList();
    }

    synchronized List<Event> events() {
        return List.copyOf(events);
    }

    @Override
    public void serviceReadinessChanged(String namespace, String service, boolean ready) {
        record(namespace, service + (ready ? " ready" : " not ready"));
    }

    @Override
    public void weederStarted(String namespace, String service, Instant until) {
        record(namespace, service + " weeder started until " + until);
    }

    @Override
    public void weederStopped(String namespace, String service, StopReason reason) {
        record(namespace, service + " weeder stopped: " + reason);
    }

    @Override
    public void podDeleted(String namespace, String service, PodState pod) {
        record(namespace, service + " deleted " + pod.name() + "/" + pod.uid());
    }

    @Override
    public void podLeftAlone(String namespace, String service, PodState pod, Pods.Deletion outcome) {
        record(namespace, service + " left " + pod.name() + "/" + pod.uid() + ": " + outcome);
    }

    @Override
    public void podDeletionFailed(String namespace, String service, PodState pod, ApiFailure failure) {
        record(namespace, service + " failed " + pod.name() + "/" + pod.uid() + ": " + failure.kind());
    }
}
