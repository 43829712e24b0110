package dwd.adapters.k8s.prober;

import dwd.application.port.in.ClusterEvents;
import dwd.domain.cluster.ClusterShoot;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every event the watch delivers, in order. */
final class RecordedClusterEvents implements ClusterEvents {

    /** One delivered event; {@code shoot} is null for a delete. */
    record Event(String name, ClusterShoot shoot) {
        boolean isDelete() {
            return shoot == null;
        }
    }

    private final List<Event> events = new CopyOnWriteArrayList<>();

    @Override
    public void clusterChanged(String shootNamespace, ClusterShoot shoot) {
        events.add(new Event(shootNamespace, shoot));
    }

    @Override
    public void clusterDeleted(String shootNamespace) {
        events.add(new Event(shootNamespace, null));
    }

    /** The events about Cluster {@code name}, oldest first. */
    List<Event> of(String name) {
        return events.stream().filter(event -> event.name().equals(name)).toList();
    }
}
