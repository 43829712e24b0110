package dwd.application.port.out;

import dwd.domain.lease.Node;
import dwd.domain.lease.NodeLease;
import java.util.List;

/**
 * Reads of one shoot's API server, made through a client built for one probe run. Every call is
 * bounded by the probe timeout and fails with {@link ApiFailure}.
 */
public interface ShootApi extends AutoCloseable {

    /** {@code GET /version}: is the API server answering? Returns its git version. */
    String version();

    /** Every node of the shoot. */
    List<Node> nodes();

    /** Every lease in {@code kube-node-lease}. */
    List<NodeLease> nodeLeases();

    /** Releases the client's resources; never fails. */
    @Override
    void close();
}
