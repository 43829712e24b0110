package dwd.domain.cluster;

import dwd.domain.internal.NullSafe;
import java.util.List;

/**
 * A worker pool of the shoot ({@code spec.provider.workers[]}).
 *
 * @param name                                the pool name, which nodes carry in {@code worker.gardener.cloud/pool}
 * @param hasMachineControllerManagerSettings whether {@code machineControllerManager} is set on the worker
 * @param nodeConditions                      {@code machineControllerManager.nodeConditions}: the condition types
 *                                            that make a node of this pool unhealthy; empty when unset
 */
public record Worker(String name, boolean hasMachineControllerManagerSettings, List<String> nodeConditions) {

    public Worker {
        name = NullSafe.text(name);
        nodeConditions = NullSafe.list(nodeConditions);
    }
}
