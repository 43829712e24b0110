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

    /**
     * Starts watching the leases in {@code kube-node-lease} from the state {@link #nodeLeases()} last read, on
     * a connection of its own that outlives this run; {@code changed} is called on an adapter thread after each
     * change the watch sees. Within the bounds of {@link #nodeLeases()}; never throws (a watch that cannot start
     * keeps trying, with back-off, until closed).
     */
    NodeLeaseWatch watchNodeLeases(Runnable changed);

    /** Releases the client's resources; never fails. */
    @Override
    void close();
}
