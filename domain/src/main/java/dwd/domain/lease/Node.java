package dwd.domain.lease;

import dwd.domain.internal.NullSafe;
import java.util.List;
import java.util.Map;

/**
 * A node of the shoot, reduced to what decides whether its lease counts.
 *
 * @param name        the node name, which is also the name of its lease
 * @param labels      the node's labels; the worker pool is read from {@code worker.gardener.cloud/pool}
 * @param annotations the node's annotations
 * @param conditions  the node's status conditions
 */
public record Node(String name, Map<String, String> labels, Map<String, String> annotations,
                   List<NodeCondition> conditions) {

    public Node {
        name = NullSafe.text(name);
        labels = NullSafe.strings(labels);
        annotations = NullSafe.strings(annotations);
        conditions = NullSafe.list(conditions);
    }
}
