package dwd.application.port.out;

import dwd.domain.lease.Machine;
import java.util.List;

/** The machine-controller-manager Machines of a shoot, as the seed holds them. */
public interface Machines {

    /** Every Machine in the shoot namespace (from a cache; may be stale by an informer's lag). */
    List<Machine> inNamespace(String namespace);
}
