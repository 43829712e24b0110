package dwd.application.port.out;

import dwd.domain.lease.Machine;
import java.util.List;

/** The machine-controller-manager Machines of a shoot, as the seed holds them. */
public interface Machines {

    /**
     * Every Machine in the shoot namespace, possibly from a watch cache, which is behind the seed by
     * the watch's delay.
     *
     * @throws ApiFailure when the Machines cannot be read
     */
    List<Machine> inNamespace(String namespace);
}
