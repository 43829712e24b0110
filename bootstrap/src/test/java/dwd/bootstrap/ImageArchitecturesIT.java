package dwd.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The manifest list of {@code make image}: one image per architecture (linux/amd64 and, where this machine
 * emulates it, linux/arm64), each naming its Java runtime in its labels and its SBOM, and the foreign one
 * answering under emulation from its own AOT cache.
 */
@EnabledIf(value = ContainerImage.PODMAN_INSTALLED, disabledReason = ContainerImage.PODMAN_MISSING)
class ImageArchitecturesIT {

    private static final String ARM64 = "linux/arm64";
    private static final long SIZE_GOAL = 150_000_000;

    static Map<String, ContainerImage> images;
    static String version;

    @BeforeAll
    static void buildTheImages() throws Exception {
        images = ContainerImage.all();
        version = ContainerImage.get().labels().get("org.opencontainers.image.version");
    }

    @Test
    void theManifestListNamesEachArchitecturesImageByItsDigest() throws Exception {
        ContainerImage.Result inspect = ContainerImage.podmanCommand("manifest", "inspect", "localhost/dwd:" + version);
        assertThat(inspect.exitCode()).as(inspect.output()).isZero();
        var listed = new HashMap<String, String>();
        for (JsonElement manifest : JsonParser.parseString(inspect.output()).getAsJsonObject().getAsJsonArray("manifests")) {
            JsonObject platform = manifest.getAsJsonObject().getAsJsonObject("platform");
            listed.put(platform.get("os").getAsString() + "/" + platform.get("architecture").getAsString(),
                    manifest.getAsJsonObject().get("digest").getAsString());
        }
        assertThat(listed.keySet()).as("the list holds exactly the images built").isEqualTo(images.keySet())
                .contains(ContainerImage.HOST_PLATFORM);
        for (var image : images.values()) {
            String digest = ContainerImage.podmanCommand("image", "inspect", "--format", "{{.Digest}}", image.id).output().strip();
            assertThat(listed.get(image.platform)).as("the list's %s entry", image.platform).isEqualTo(digest);
        }
    }

    @Test
    void eachImageHasTheSameLayoutAndNamesItsJavaRuntimeInItsLabelsAndSbom() throws Exception {
        for (var image : images.values()) {
            String arch = image.platform.substring("linux/".length());
            assertThat(ContainerImage.podmanCommand("image", "inspect", "--format", "{{.Os}}/{{.Architecture}}", image.id)
                    .output().strip()).isEqualTo(image.platform);
            assertThat(image.configuration("User")).isEqualTo("\"65532:65532\"");
            assertThat(image.configuration("Entrypoint")).isEqualTo("[\"/usr/local/bin/dependency-watchdog\"]");
            long size = Long.parseLong(ContainerImage.podmanCommand("image", "inspect", "--format", "{{.Size}}", image.id)
                    .output().strip());
            assertThat(size).as("%s image size", image.platform).isLessThanOrEqualTo(SIZE_GOAL);

            Map<String, String> labels = image.labels();
            assertThat(labels).as("%s labels", image.platform)
                    .containsEntry("org.opencontainers.image.version", version)
                    .containsEntry("dev.dwd.java.license", "GPL-2.0-only WITH Classpath-exception-2.0");
            assertThat(labels.get("dev.dwd.java.distribution")).startsWith("Eclipse Adoptium Temurin-25");
            assertThat(labels.get("dev.dwd.java.version")).matches("25(\\.\\d+)*\\+\\d+(-LTS)?");
            assertThat(labels.get("dev.dwd.java.source")).isNotBlank();
            assertThat(labels.get("dev.dwd.java.source.sha256")).matches("[0-9a-f]{64}");
            assertThat(labels.get("dev.dwd.java.sha256")).matches("[0-9a-f]{64}");

            Path sbomFile = DwdProcess.REPOSITORY.resolve("bootstrap/target/image/dwd-" + version + "-linux-" + arch + ".cdx.json");
            JsonObject sbom = JsonParser.parseString(Files.readString(sbomFile)).getAsJsonObject();
            List<JsonObject> components = StreamSupport.stream(sbom.getAsJsonArray("components").spliterator(), false)
                    .map(JsonElement::getAsJsonObject).toList();
            JsonObject runtime = components.stream().filter(c -> c.get("name").getAsString().equals("java-runtime"))
                    .findFirst().orElseThrow(() -> new AssertionError("no java-runtime component in " + sbomFile));
            assertThat(runtime.get("version").getAsString()).isEqualTo(labels.get("dev.dwd.java.version"));
            assertThat(runtime.getAsJsonArray("hashes").get(0).getAsJsonObject().get("content").getAsString())
                    .isEqualTo(labels.get("dev.dwd.java.sha256"));
            Map<String, String> properties = StreamSupport.stream(runtime.getAsJsonArray("properties").spliterator(), false)
                    .map(JsonElement::getAsJsonObject)
                    .collect(Collectors.toMap(p -> p.get("name").getAsString(), p -> p.get("value").getAsString()));
            assertThat(properties).containsEntry("dev.dwd.java.source", labels.get("dev.dwd.java.source"))
                    .containsEntry("dev.dwd.java.source.sha256", labels.get("dev.dwd.java.source.sha256"));
            assertThat(components).as("the base's Debian packages of %s", arch)
                    .anySatisfy(c -> assertThat(c.has("purl") ? c.get("purl").getAsString() : "")
                            .startsWith("pkg:deb/debian/libc6@").contains("arch=" + arch))
                    .anySatisfy(c -> assertThat(c.get("name").getAsString()).isEqualTo("client-java"));
        }
    }

    /**
     * The arm64 image's launcher under qemu-user: {@code -XX:AOTMode=on} makes the JVM refuse to start unless it
     * can use the AOT cache the emulated training run wrote, under Gardener's memory limit.
     */
    @Test
    void theArm64ImageAnswersVersionUnderEmulationFromItsAotCache() throws Exception {
        Assumptions.assumeTrue(images.containsKey(ARM64) && !ContainerImage.HOST_PLATFORM.equals(ARM64),
                () -> images.containsKey(ARM64) ? "the host is arm64: nothing is emulated" : leftOut());
        ContainerImage arm64 = images.get(ARM64);
        ContainerImage.Result version = arm64.runWith("dwd-it-arm64-version-" + ProcessHandle.current().pid(),
                List.of("--entrypoint", "/usr/local/bin/dependency-watchdog", "--memory=512m", "-e", "JDK_JAVA_OPTIONS=-XX:AOTMode=on"),
                "version");
        assertThat(version.exitCode()).as("started under emulation with the AOT cache required:%n%s", version.output()).isZero();
        Matcher printed = ImageIT.VERSION.matcher(version.output().lines().filter(line -> line.startsWith("dwd "))
                .findFirst().orElse("") + "\n");
        assertThat(printed.matches()).as("printed: %s", version.output()).isTrue();
        assertThat(version.output()).contains("Java " + arm64.labels().get("dev.dwd.java.version") + ")")
                .doesNotContain("AOT cache");
    }

    private static String leftOut() {
        try {
            return ContainerImage.leftOut(ARM64);
        } catch (Exception e) {
            return "no " + ARM64 + " image";
        }
    }
}
