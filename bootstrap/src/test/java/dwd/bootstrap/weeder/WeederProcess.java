package dwd.bootstrap.weeder;

import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** {@code ./dwd weeder} as a process. */
final class WeederProcess extends DwdProcess {

    private WeederProcess(DwdProcess launched) {
        super(launched);
    }

    static WeederProcess start(Path dir, String name, Path config, Path kubeconfig, String... extraFlags)
            throws IOException {
        return new WeederProcess(launch("weeder", dir, name, config, kubeconfig, List.of(extraFlags)));
    }

    String weeders() throws IOException {
        return metricsPage("/weeders");
    }
}
