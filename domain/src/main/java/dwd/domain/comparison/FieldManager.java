package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One entry of a dependent's {@code metadata.managedFields}, as far as the comparison needs it: who wrote
 * (the field manager, which the API server takes from the request's {@code fieldManager} or, without one,
 * from its user agent up to the first {@code /}), how, when, and which of the fields the comparison follows
 * the entry owns.
 *
 * @param manager            the field manager, e.g. {@code dependency-watchdog}, {@code kubectl}, {@code gardenlet}
 * @param operation          {@code Update} or {@code Apply}
 * @param subresource        {@code scale}, {@code status}, or {@code ""} for the object itself
 * @param time               when the entry last changed, to the second; empty when the server wrote none
 * @param ownsReplicas       the entry owns {@code spec.replicas}
 * @param ownedAnnotations   the {@code dependency-watchdog.gardener.cloud/*} annotations the entry owns
 */
public record FieldManager(String manager, String operation, String subresource, Optional<Instant> time,
                           boolean ownsReplicas, Set<String> ownedAnnotations) {

    public FieldManager {
        manager = NullSafe.text(manager);
        operation = NullSafe.text(operation);
        subresource = NullSafe.text(subresource);
        time = NullSafe.optional(time);
        ownedAnnotations = Set.copyOf(Objects.requireNonNullElse(ownedAnnotations, Set.of()));
    }

    /** The same entry in another version of the object: same manager, operation and subresource. */
    boolean sameEntryAs(FieldManager other) {
        return manager.equals(other.manager) && operation.equals(other.operation) && subresource.equals(other.subresource);
    }

}
