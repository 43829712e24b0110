package dwd.bootstrap.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.runtime.SystemScheduler;
import dwd.bootstrap.demo.DemoTimeline.Event;
import dwd.bootstrap.demo.DemoTimeline.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the demo reads shadow mode's would-be actions from the roles' JSON log lines. */
class RoleReportsTest {

    private final List<Event> events = new ArrayList<>();

    private List<Event> read(String... lines) {
        try (var scheduler = new SystemScheduler(); var reports = new RoleReports(new DemoTimeline(events::add), scheduler)) {
            for (String line : lines) {
                reports.logLine(line);
            }
        }
        return events;
    }

    private static String line(String message) {
        return "{\"time\":\"2026-11-24T20:07:53.960Z\",\"level\":\"INFO\",\"logger\":\"dwd.prober\",\"message\":\""
                + message.replace("\"", "\\\"") + "\",\"thread\":\"t\"}";
    }

    @Test
    void aWouldBeScalingBecomesAScaledEventWithTheLinesTimeAndTheServersAnswer() {
        read(line("shoot--demo--alpha: [dry-run=server] would scale down apps/v1 Deployment kube-controller-manager from 3"
                + " to 0 replicas (5 candidates, 3 expired, fraction 0.60 >= threshold 0.60): annotate"
                + " dependency-watchdog.gardener.cloud/replicas=\"3\": would succeed; scale to 0 replicas: would succeed"));

        assertThat(events).containsExactly(new Event(Instant.parse("2026-11-24T20:07:53.960Z"), "shoot--demo--alpha",
                Kind.SCALED, "kube-controller-manager",
                "would scale kube-controller-manager 3 -> 0 replicas: accepted by the API server, not persisted"));
    }

    @Test
    void aRefusalIsShownAsTheFirstFindingAndNothingSentAsSuch() {
        read(line("shoot--a: [dry-run=server] would scale up apps/v1 Deployment machine-controller-manager from 0 to 2"
                        + " replicas (x): annotate a: would succeed; scale to 2 replicas: FINDING: would be forbidden: no;"
                        + " more: would succeed"),
                line("shoot--a: [dry-run=client] would delete pod kube-apiserver-0 (uid 42): CrashLoopBackOff after service"
                        + " etcd-main-client turned ready: not sent"));

        assertThat(events).extracting(Event::kind, Event::subject, Event::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Kind.SCALED, "machine-controller-manager",
                        "would scale machine-controller-manager 0 -> 2 replicas: the API server refuses: would be forbidden: no"),
                org.assertj.core.groups.Tuple.tuple(Kind.POD_DELETED, "kube-apiserver-0",
                        "would delete crash-looping pod kube-apiserver-0 (depends on etcd-main-client): not sent"));
    }

    @Test
    void otherLinesAreNotActions() {
        read(line("shoot--a: lease probe: SCALE_DOWN (5 candidates, 3 expired)"), "not json ] would ", "",
                line("shoot--a: scale-down: scaled apps/v1 Deployment x from 1 to 0 replicas (y)"));

        assertThat(events).isEmpty();
    }
}
