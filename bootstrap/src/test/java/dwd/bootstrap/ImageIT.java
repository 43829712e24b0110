package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The image of {@code make image}: what it says about itself (dwd version, OCI labels, SBOM) and how it
 * runs. ProberImageIT and WeederImageIT have it protect a shoot; all skip where podman is missing.
 */
@EnabledIf(value = ContainerImage.PODMAN_INSTALLED, disabledReason = ContainerImage.PODMAN_MISSING)
class ImageIT {

    static final Pattern VERSION = Pattern.compile(
            "dwd (\\S+) \\(revision (?:([0-9a-f]{12})( with uncommitted changes)?|unknown: built outside a git checkout),"
                    + " Java 25[^)]*\\)\\R");

    static ContainerImage image;

    @BeforeAll
    static void buildTheImage() throws Exception {
        image = ContainerImage.get();
    }

    @Test
    void versionPrintsWhatTheLaunchersVersionPrintsAndTheLabelsCarryIt() throws Exception {
        ContainerImage.Result version = image.run("dwd-it-version-" + ProcessHandle.current().pid(), "version");
        assertThat(version.exitCode()).as(version.output()).isZero();
        Matcher printed = VERSION.matcher(version.output());
        assertThat(printed.matches()).as("dwd version in the image printed: %s", version.output()).isTrue();
        String launcher = LaunchSmokeIT.launch("version").out();
        assertThat(version.output().substring(0, version.output().indexOf(", Java")))
                .as("the image holds the build ./dwd runs").isEqualTo(launcher.substring(0, launcher.indexOf(", Java")));

        Map<String, String> labels = image.labels();
        assertThat(labels).containsEntry("org.opencontainers.image.title", "dwd")
                .containsEntry("org.opencontainers.image.version", printed.group(1))
                .containsKey("org.opencontainers.image.source");
        String revision = labels.get("org.opencontainers.image.revision");
        if (printed.group(2) == null) {
            assertThat(revision).isEqualTo("unknown");
        } else {
            assertThat(revision).startsWith(printed.group(2)).matches("[0-9a-f]{40}" + (printed.group(3) == null ? "" : "-dirty"));
        }
        Path sbom = DwdProcess.REPOSITORY.resolve("bootstrap/target/image/dwd-" + printed.group(1) + "-"
                + image.platform.replace('/', '-') + ".cdx.json");
        assertThat(Files.readString(sbom).replace(" :", ":")).as("the SBOM beside the image")
                .contains("\"bomFormat\": \"CycloneDX\"", "\"name\": \"client-java\"");
    }

    @Test
    void itRunsAsTheNonRootUserAndStartsDwdFromTheAotCache() throws Exception {
        assertThat(image.configuration("User")).isEqualTo("\"65532:65532\"");
        assertThat(image.configuration("Entrypoint")).isEqualTo("[\"/usr/local/bin/dependency-watchdog\"]");
        ContainerImage.Result help = image.run("dwd-it-help-" + ProcessHandle.current().pid(), "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.output()).as("no JVM warning (a cache the JVM refuses prints one)").startsWith("Usage: dwd");
    }

    /**
     * gardenlet's command is the original's binary path: the launcher there starts dwd with the image's JVM
     * settings. Under Gardener's memory limit, {@code -XX:AOTMode=on} (the JVM refuses to start unless it can
     * use the AOT cache) proves that the launcher's flags are the training run's, and the heap is sized from
     * the limit (65 %) by the collector the JVM picks for it (Serial below 1,792 MB).
     */
    @Test
    void gardenersCommandPathStartsDwdFromTheAotCacheWithTheImagesHeapSizing() throws Exception {
        String name = "dwd-it-gardener-path-" + ProcessHandle.current().pid();
        var gardenlet = List.of("--entrypoint", "/usr/local/bin/dependency-watchdog", "--memory=512m");
        ContainerImage.Result version = image.runWith(name, gardenlet, "version");
        assertThat(version.exitCode()).as(version.output()).isZero();
        assertThat(VERSION.matcher(version.output()).matches()).as("printed: %s", version.output()).isTrue();

        var withCacheRequired = new ArrayList<>(gardenlet);
        withCacheRequired.addAll(List.of("-e", "JDK_JAVA_OPTIONS=-XX:AOTMode=on -XX:+PrintFlagsFinal"));
        ContainerImage.Result flags = image.runWith(name, withCacheRequired, "version");
        assertThat(flags.exitCode()).as("started with the AOT cache required:%n%s", flags.output()).isZero();
        assertThat(flag(flags.output(), "UseSerialGC")).isEqualTo("true");
        double heapShare = Long.parseLong(flag(flags.output(), "MaxHeapSize")) / (512.0 * 1024 * 1024);
        assertThat(heapShare).as("the heap's share of the limit").isBetween(0.6, 0.66);

        var mismatched = new ArrayList<>(gardenlet);
        mismatched.addAll(List.of("-e", "JDK_JAVA_OPTIONS=-XX:AOTMode=on --add-exports=java.base/sun.nio.ch=ALL-UNNAMED"));
        ContainerImage.Result refused = image.runWith(name, mismatched, "version");
        assertThat(refused.exitCode()).as("the check bites: a flag the training run lacked").isNotZero();
        assertThat(refused.output()).contains("Unable to use AOT cache");
    }

    /** A flag's value as {@code -XX:+PrintFlagsFinal} prints it. */
    private static String flag(String output, String name) {
        Matcher line = Pattern.compile("^\\s*\\S+\\s+" + name + "\\s+=\\s+(\\S+)", Pattern.MULTILINE).matcher(output);
        assertThat(line.find()).as("%s in the JVM's flags", name).isTrue();
        return line.group(1);
    }
}
