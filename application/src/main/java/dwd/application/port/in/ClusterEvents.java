package dwd.application.port.in;

import dwd.domain.cluster.ClusterShoot;

/** What the prober is told about the seed's Cluster objects (one per shoot, named after its namespace). */
public interface ClusterEvents {

    /** A Cluster was added or changed (also replayed for every Cluster when the watch starts). */
    void clusterChanged(String shootNamespace, ClusterShoot shoot);

    /** A Cluster was deleted. */
    void clusterDeleted(String shootNamespace);
}
