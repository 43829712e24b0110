package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A dependent (kube-controller-manager, machine-controller-manager, …) as one event of a watch showed it:
 * what dwd decides on (replicas, dwd's annotations) and who last wrote what ({@code managedFields}).
 *
 * @param uid           the object's UID: another UID is another object, with no history
 * @param specReplicas  {@code spec.replicas}
 * @param readyReplicas {@code status.readyReplicas}
 * @param annotations   the {@code dependency-watchdog.gardener.cloud/*} annotations only
 * @param managers      the entries of {@code metadata.managedFields}
 * @param version       the resourceVersion
 */
public record DependentSnapshot(String uid, int specReplicas, int readyReplicas, Map<String, String> annotations,
                                List<FieldManager> managers, String version) {

    public DependentSnapshot {
        uid = NullSafe.text(uid);
        annotations = NullSafe.strings(annotations);
        managers = NullSafe.list(managers);
        Objects.requireNonNull(version, "version");
    }

    /** What dwd's decisions see of the object: its replicas and annotations. */
    public DependentFields fields() {
        return new DependentFields(specReplicas, readyReplicas, annotations);
    }
}
