package dwd.bootstrap.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BuildInfoTest {

    static final String REVISION = "2a4dee40fcf431bb33126561b6feb9c4bb345607";

    static BuildInfo read(Map<String, String> values) {
        var properties = new Properties();
        properties.putAll(values);
        return BuildInfo.from(properties, "25.0.3+9-LTS");
    }

    @Test
    void aCleanCheckoutPrintsTheShortRevision() {
        BuildInfo build = read(Map.of("version", "1.2.0", "revision", REVISION, "revision.dirty", "false"));
        assertThat(build.revision()).contains(REVISION);
        assertThat(build.describe()).isEqualTo("dwd 1.2.0 (revision 2a4dee40fcf4, Java 25.0.3+9-LTS)");
    }

    @Test
    void uncommittedChangesAreSaid() {
        BuildInfo build = read(Map.of("version", "1.2.0", "revision", REVISION, "revision.dirty", "true"));
        assertThat(build.dirty()).isTrue();
        assertThat(build.describe()).isEqualTo("dwd 1.2.0 (revision 2a4dee40fcf4 with uncommitted changes, Java 25.0.3+9-LTS)");
    }

    @Test
    void aBuildWithoutGitSaysTheRevisionIsUnknown() {
        BuildInfo build = read(Map.of("version", "1.2.0", "revision", "unknown", "revision.dirty", "false"));
        assertThat(build.revision()).isEmpty();
        assertThat(build.describe()).isEqualTo("dwd 1.2.0 (revision unknown: built outside a git checkout, Java 25.0.3+9-LTS)");
    }

    @Test
    void valuesTheBuildDidNotFillInCountAsUnknown() {
        BuildInfo build = read(Map.of("version", "${project.version}", "revision", "${git.revision}", "revision.dirty", "${git.dirty}"));
        assertThat(build.version()).isEqualTo("unknown");
        assertThat(build.revision()).isEmpty();
        assertThat(build.dirty()).isFalse();
    }
}
