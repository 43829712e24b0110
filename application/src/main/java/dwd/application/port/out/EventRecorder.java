package dwd.application.port.out;

import java.util.Objects;

/**
 * Kubernetes Events about what dwd did (events.k8s.io/v1). Recording is fire-and-forget: it never
 * blocks the caller and never fails the action it reports; an event that cannot be written is
 * dropped (and counted, and logged by the adapter).
 */
@FunctionalInterface
public interface EventRecorder {

    /** Normal for what went as intended, Warning for what an operator should look at. */
    enum Type { NORMAL, WARNING }

    /** The object an event is about. */
    record ObjectRef(String apiVersion, String kind, String namespace, String name) {
        public ObjectRef {
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * One event.
     *
     * @param reason CamelCase, machine-readable, e.g. {@code ScaledDown}
     * @param action what dwd did, e.g. {@code Scale}, {@code Delete}
     * @param note   human-readable, at most 1 kB (longer notes are cut)
     */
    record Event(ObjectRef regarding, Type type, String reason, String action, String note) {
        public Event {
            Objects.requireNonNull(regarding, "regarding");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(note, "note");
        }
    }

    /** Queues {@code event} for writing; returns at once. */
    void record(Event event);

    /** Records nothing. */
    static EventRecorder none() {
        return event -> { };
    }
}
