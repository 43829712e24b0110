package dwd.bootstrap.prober;

import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code ./dwd prober} as a process; scaled dependents are watched for ready replicas for 500 ms only. */
final class ProberProcess extends DwdProcess {

    private ProberProcess(DwdProcess launched) {
        super(launched);
    }

    /** Starts a prober named {@code name} (its log is {@code dir/name.log}) with the given config and seed kubeconfig. */
    static ProberProcess start(Path dir, String name, Path config, Path kubeconfig, String... extraFlags) throws IOException {
        var flags = new ArrayList<>(List.of("--x-scale-readiness-timeout=500ms"));
        flags.addAll(List.of(extraFlags));
        return new ProberProcess(launch("prober", dir, name, config, kubeconfig, flags));
    }

    String probes() throws IOException {
        return metricsPage("/probes");
    }
}
