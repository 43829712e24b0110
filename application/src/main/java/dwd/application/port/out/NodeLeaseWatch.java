package dwd.application.port.out;

import dwd.domain.lease.NodeLease;
import java.util.List;

/**
 * A watch of one shoot's node leases ({@code kube-node-lease}), kept while the shoot is scaled down so that
 * the prober learns of renewals as they happen rather than at its next probe. It keeps going on its own (a
 * failed or ended watch is started again, with back-off) until closed.
 */
public interface NodeLeaseWatch extends AutoCloseable {

    /** A watch that never sees a change: for shoot APIs that cannot watch. */
    NodeLeaseWatch NONE = new NodeLeaseWatch() {
        @Override
        public List<NodeLease> leases() {
            return List.of();
        }

        @Override
        public void close() {
        }
    };

    /** Every lease as the watch last saw it; empty while it has not seen the leases. */
    List<NodeLease> leases();

    /** Stops watching at once; never fails; idempotent. */
    @Override
    void close();
}
