package dwd.bootstrap.bench;

import dwd.bootstrap.DwdProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two dependency-watchdogs {@code make bench-versus} sets side by side: Gardener's Go original, built by
 * {@code scripts/original-dwd}, and dwd as {@code ./dwd} runs it. Both are started the same way: the role,
 * the config file, the seed's kubeconfig, their servers on free loopback ports, then the flags.
 */
public enum Implementation {

    ORIGINAL("original", "dependency-watchdog/"),
    DWD("dwd", "dwd/");

    /** The original's binary ({@code scripts/original-dwd} prints it; the Makefile passes it on). */
    static final String ORIGINAL_BINARY = "dwd.bench.versus.original";

    private final String label;
    private final String userAgentPrefix;

    Implementation(String label, String userAgentPrefix) {
        this.label = label;
        this.userAgentPrefix = userAgentPrefix;
    }

    public String label() {
        return label;
    }

    /** How the seed's audit log tells this implementation's requests from the benchmark's. */
    public String userAgentPrefix() {
        return userAgentPrefix;
    }

    /**
     * Starts {@code role} ({@code prober} or {@code weeder}) with its log in {@code dir/<name>.log}.
     *
     * @param jvmOptions dwd's JVM options (JAVA_TOOL_OPTIONS; the original has no JVM), empty for none
     */
    public DwdProcess launch(String role, Path dir, String name, Path config, Path kubeconfig, List<String> flags,
            String jvmOptions) throws IOException {
        if (this == DWD) {
            return DwdProcess.launch(role, dir, name, config, kubeconfig, flags,
                    jvmOptions.isBlank() ? Map.of() : Map.of("JAVA_TOOL_OPTIONS", jvmOptions));
        }
        int metricsPort = DwdProcess.freePort();
        int healthPort = DwdProcess.freePort();
        var command = new ArrayList<>(List.of(originalBinary().toString(), role, "--config-file=" + config,
                "--kubeconfig=" + kubeconfig, "--metrics-bind-addr=127.0.0.1:" + metricsPort,
                "--health-bind-addr=127.0.0.1:" + healthPort,
                // its default (:8081) on every interface would clash with whatever else listens there
                "--pprof-bind-addr=127.0.0.1:" + DwdProcess.freePort()));
        command.addAll(flags);
        return DwdProcess.start(command, dir.resolve(name + ".log"), metricsPort, healthPort);
    }

    /** The original's binary; fails with what to run when it was not built. */
    static Path originalBinary() {
        String binary = System.getProperty(ORIGINAL_BINARY, "");
        if (binary.isBlank() || !java.nio.file.Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException("the original dependency-watchdog is not built ('" + binary
                    + "'): run 'make bench-versus', or pass -D" + ORIGINAL_BINARY + "=\"$(scripts/original-dwd)\"");
        }
        return Path.of(binary);
    }

    /** The pair in the order a repeat runs them: the order alternates, so neither always runs on a machine the other warmed. */
    static List<Implementation> inOrderOf(int repeat) {
        return repeat % 2 == 1 ? List.of(ORIGINAL, DWD) : List.of(DWD, ORIGINAL);
    }
}
