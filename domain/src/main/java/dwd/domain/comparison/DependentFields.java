package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What dwd's scaling decisions read of a dependent: its replica counts and dwd's annotations. The
 * comparison keeps these as they would be without the original's writes.
 *
 * @param annotations the {@code dependency-watchdog.gardener.cloud/*} annotations only
 */
public record DependentFields(int specReplicas, int readyReplicas, Map<String, String> annotations) {

    public DependentFields {
        annotations = NullSafe.strings(annotations);
    }

    /** These fields with {@code replicas} and {@code annotationKeys} taken from {@code from}. */
    public DependentFields withChangesOf(DependentFields from, boolean replicas, Set<String> annotationKeys) {
        var merged = new HashMap<>(annotations);
        for (String key : annotationKeys) {
            String value = from.annotations().get(key);
            if (value == null) {
                merged.remove(key);
            } else {
                merged.put(key, value);
            }
        }
        return new DependentFields(replicas ? from.specReplicas() : specReplicas,
                replicas ? from.readyReplicas() : readyReplicas, merged);
    }

    /** Same replicas wanted and same annotations; ready replicas may differ (pods come and go). */
    public boolean sameDecisionInputsAs(DependentFields other) {
        return specReplicas == other.specReplicas && annotations.equals(other.annotations);
    }
}
