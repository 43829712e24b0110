package dwd.bootstrap.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the demo saw dwd do, as it happened, each with its time: changes in the seed (replicas,
 * deleted pods), the roles' status pages ({@code /probes}, {@code /weeders}) and, in shadow mode,
 * the roles' reports of would-be actions. Every event is handed to a listener (the narration) and
 * kept for the checks of the summary.
 */
final class DemoTimeline {

    /** One thing dwd did or saw. {@code subject}: the resource, pod, service, or a verdict's decision. */
    record Event(Instant at, String namespace, Kind kind, String subject, String text) {
        boolean is(Kind candidate, String ns) {
            return kind == candidate && namespace.equals(ns);
        }
    }

    /** In shadow mode, SCALED, ANNOTATED and POD_DELETED are the would-be actions the roles report. */
    enum Kind {
        /** A lease probe's verdict ({@code /probes}); subject: its decision, e.g. {@code scale-down}. */
        VERDICT,
        /** A dependent's replicas changed (seed watch). */
        SCALED,
        /** A would-be change of a dependent's annotations (shadow mode only). */
        ANNOTATED,
        /** A scale flow ended ({@code /probes}); subject: its direction, {@code up} or {@code down}. */
        FLOW_DONE,
        /** A scale flow could not scale a dependent ({@code /probes}). */
        FAILED,
        /** A probe run failed ({@code /probes}). */
        PROBE_FAILED,
        /** A weeder started for a service ({@code /weeders}). */
        WEEDER,
        /** A weeder stopped: {@code /weeders} no longer lists it (its service turned not ready, or its time ran out). */
        WEEDER_STOPPED,
        /** A pod was deleted (seed watch). */
        POD_DELETED
    }

    private final List<Event> events = new ArrayList<>();
    private final Consumer<Event> onEvent;
    private String abortedBecause;

    DemoTimeline(Consumer<Event> onEvent) {
        this.onEvent = onEvent;
    }

    void add(Instant at, String namespace, Kind kind, String subject, String text) {
        var event = new Event(at, namespace, kind, subject, text);
        synchronized (this) {
            events.add(event);
            onEvent.accept(event);
            notifyAll();
        }
    }

    /** Ends every wait at once: the story cannot go on (a role exited). */
    synchronized void abort(String why) {
        if (abortedBecause == null) {
            abortedBecause = why;
        }
        notifyAll();
    }

    /** Why the story cannot go on, if it cannot. */
    synchronized java.util.Optional<String> aborted() {
        return java.util.Optional.ofNullable(abortedBecause);
    }

    /** The events that happened at or after {@code start}, in the order they were seen. */
    synchronized List<Event> since(Instant start) {
        return events.stream().filter(e -> !e.at().isBefore(start)).toList();
    }

    /**
     * Waits until {@code condition} holds for the events so far, {@code timeout} passes or the story is
     * aborted; returns whether it held.
     */
    synchronized boolean await(Predicate<List<Event>> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.test(events)) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || abortedBecause != null) {
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
}
