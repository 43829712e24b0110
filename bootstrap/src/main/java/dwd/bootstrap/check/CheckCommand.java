package dwd.bootstrap.check;

import dwd.adapters.k8s.objects.KubernetesObjectReader;
import dwd.application.check.ObjectReadException;
import dwd.application.check.ObjectReference;
import dwd.application.check.StatusChecker;
import dwd.application.port.out.Clock;
import dwd.domain.status.ObjectDocument;
import java.io.File;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dwd check}: the conditions-and-generations checker (and kstatus) on live objects or files. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        header = "Check an object's status conditions and generations; print its kstatus.",
        description = {
            "Check an object's status conditions and generations against the conventions of kstatus-style "
                    + "controllers (codes WARN0001-WARN0005, FAIL0001-FAIL0010), and optionally print its kstatus.",
            "Read the object from the cluster (--kind, --name; any kind, custom resources included) "
                    + "or check the objects in files (--file; YAML with several documents, or JSON; - is stdin).",
        },
        sortOptions = false,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no failure (warnings allowed), every object read; also for input without objects",
            "1:at least one failure, or an object that cannot be read as the rules need (every other object is"
                    + " still checked and printed); or a config or input that cannot be used at all (then stdout is empty)",
            "2:a command line that cannot be run (unknown or missing option, options that exclude each other)",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  dwd check --config cc.yaml --kind GitRepository --name podinfo -n flux-system",
            "  dwd check --config cc.yaml --file objects.yaml --output json",
            "  kubectl get rollouts -A -o yaml | dwd check --kstatus --file - --output yaml",
            "  kubectl get deploy -A -o yaml | dwd check --kstatus --file -",
            "",
            "The config file lists the controller's conditions, highest priority first:",
            "  conditions:",
            "    negativePolarity: [Stalled, Reconciling, FetchFailed]",
            "    positivePolarity: [RemoteAvailable]",
            "See docs/check.md for the codes and what each one means.",
            "",
        })
public final class CheckCommand implements Callable<Integer> {

    /** Exit code when every object was read and passed (warnings allowed). */
    static final int PASSED = 0;
    /** Exit code when any object has a failure or could not be read as the rules need; every object is still printed. */
    static final int FAILED = 1;
    /**
     * Exit code for input that cannot be used at all: a bad config, a file that is not YAML or JSON or breaks a
     * bound, a live object that cannot be read, like every dwd command's (usage errors exit 2); stderr says what,
     * and nothing is printed on stdout.
     */
    static final int UNUSABLE_INPUT = 1;

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /** Output formats of {@code --output}. */
    enum OutputFormat { text, json, yaml }

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "The controller's conditions (YAML or JSON). Required unless --kstatus is given.")
    Path config;

    @Option(names = "--file", paramLabel = "FILE",
            description = "Check the objects in FILE instead of a live object (repeatable; - reads stdin).")
    List<String> files = new ArrayList<>();

    @Option(names = "--kind", paramLabel = "KIND", description = "Kind of the live object, e.g. Deployment or GitRepository.")
    String kind;

    @Option(names = "--name", paramLabel = "NAME", description = "Name of the live object.")
    String name;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
            description = "Namespace of the live object (default: the kubeconfig context's, else default).")
    String namespace;

    @Option(names = "--api-version", paramLabel = "GROUP/VERSION",
            description = "Read the kind at this API version (default: the version the server prefers).")
    String apiVersion;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "Kubeconfig of the cluster (default: $KUBECONFIG's first entry, else ~/.kube/config).")
    Path kubeconfig;

    @Option(names = "--kstatus", description = "Also print each object's kstatus (Current, InProgress, Failed, Terminating, ...).")
    boolean kstatus;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (one line per finding, warnings first), json or yaml (each object with its results)."
                    + " Default: ${DEFAULT-VALUE}.")
    OutputFormat output;

    private final InputStream stdin;

    public CheckCommand() {
        this(System.in);
    }

    CheckCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public Integer call() {
        boolean live = kind != null || name != null;
        validateOptions(live);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            StatusChecker checker = checker(err);
            List<CheckedObject> checked = live ? List.of(checkLive(checker)) : checkFiles(checker, err);
            var report = new CheckReport(checked, kstatus);
            switch (output) {
                case json -> report.writeJson(out);
                case yaml -> report.writeYaml(out);
                case text -> report.writeText(out);
            }
            return report.passed() ? PASSED : FAILED;
        } catch (InputException e) {
            out.flush();
            err.println("dwd check: " + e.getMessage());
            err.flush();
            return UNUSABLE_INPUT;
        }
    }

    private void validateOptions(boolean live) {
        if (live && !files.isEmpty()) {
            throw usage("--file cannot be combined with --kind/--name: check either a live object or files");
        }
        if (!live && files.isEmpty()) {
            throw usage("say what to check: --kind KIND --name NAME for a live object, or --file FILE");
        }
        if (live && (kind == null || name == null)) {
            throw usage(kind == null ? "--name needs --kind (e.g. --kind Deployment)" : "--kind needs --name");
        }
        if (!live && (namespace != null || apiVersion != null || kubeconfig != null)) {
            throw usage("--namespace, --api-version and --kubeconfig apply to live objects (--kind, --name), not to --file");
        }
        if (config == null && !kstatus) {
            throw usage("--config FILE is required (the controller's conditions), unless only --kstatus is wanted");
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private StatusChecker checker(PrintWriter err) {
        Clock clock = Clock.system();
        if (config == null) {
            return StatusChecker.kstatusOnly(clock);
        }
        CheckConfigFile configFile = CheckConfigFile.read(config);
        configFile.warnings().forEach(warning -> err.println("dwd check: warning: " + warning));
        err.flush();
        StatusChecker checker = StatusChecker.of(configFile.conditions());
        return kstatus ? checker.withKstatus(clock) : checker;
    }

    private CheckedObject checkLive(StatusChecker checker) {
        Path kubeconfigFile = kubeconfig != null ? kubeconfig : defaultKubeconfig();
        KubernetesObjectReader reader;
        try {
            reader = KubernetesObjectReader.fromKubeconfig(kubeconfigFile, CALL_TIMEOUT);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage(), e);
        }
        var reference = new ObjectReference(apiVersion, kind, namespace, name);
        Map<String, Object> object;
        try {
            object = reader.read(reference);
        } catch (ObjectReadException e) {
            throw new InputException(e.getMessage(), e);
        }
        return CheckedObject.live(checker.check(object));
    }

    /**
     * Checks each object as it is read: memory holds one object at a time, and the results. An object
     * that cannot be read gets a result of its own; an input without objects gets a note on stderr.
     */
    private List<CheckedObject> checkFiles(StatusChecker checker, PrintWriter err) {
        var checked = new ArrayList<CheckedObject>();
        for (String file : files) {
            int count = ObjectFiles.read(file, stdin, document -> checked.add(check(checker, document)));
            if (count == 0) {
                err.println("dwd check: note: " + ObjectFiles.source(file) + " holds no object to check");
                err.flush();
            }
        }
        return checked;
    }

    private static CheckedObject check(StatusChecker checker, SourceDocument document) {
        var result = document.problem()
                .map(problem -> checker.unreadable(ObjectDocument.of(document.content()).identity(), problem))
                .orElseGet(() -> checker.check(document.content()));
        return CheckedObject.fromFile(document, result);
    }

    /** kubectl's lookup, reduced to one file: the first entry of $KUBECONFIG, else ~/.kube/config. */
    private static Path defaultKubeconfig() {
        String fromEnvironment = System.getenv("KUBECONFIG");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            for (String entry : fromEnvironment.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    return Path.of(entry);
                }
            }
        }
        return Path.of(System.getProperty("user.home"), ".kube", "config");
    }
}
