package dwd.application.port.in;

import dwd.domain.comparison.DependentSnapshot;
import dwd.domain.config.ResourceRef;

/**
 * What the comparison with the original is told about the shoots' dependents in the seed: every version a
 * watch sees, with its {@code managedFields}. Events for one dependent arrive in order.
 */
public interface DependentChanges {

    /** A dependent was added or changed (also replayed for every dependent when a watch lists). */
    void dependentChanged(String namespace, ResourceRef ref, DependentSnapshot snapshot);

    /** A dependent was deleted. */
    void dependentDeleted(String namespace, ResourceRef ref);
}
