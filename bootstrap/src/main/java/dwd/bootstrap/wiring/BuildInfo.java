package dwd.bootstrap.wiring;

import java.util.Optional;
import java.util.Properties;

/**
 * What was built: the product version, the git revision it was built from (when the build saw one;
 * {@code dirty} when tracked files differed from it) and the Java runtime it runs on.
 */
public record BuildInfo(String version, Optional<String> revision, boolean dirty, String javaVersion) {

    /** The length of the revision as {@code dwd version} prints it (the full id is in the image's labels). */
    static final int SHORT_REVISION = 12;

    /** Reads build.properties as the build wrote it; a value the build did not fill in counts as unknown. */
    static BuildInfo from(Properties build, String javaVersion) {
        Optional<String> revision = known(build.getProperty("revision")).filter(value -> !value.equals("unknown"));
        return new BuildInfo(known(build.getProperty("version")).orElse("unknown"), revision,
                revision.isPresent() && known(build.getProperty("revision.dirty")).orElse("false").equals("true"),
                javaVersion);
    }

    private static Optional<String> known(String value) {
        return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty() && !v.startsWith("${"));
    }

    /** One line for {@code dwd version}, e.g. {@code dwd 0.1.0 (revision 2a4dee40fcf4, Java 25.0.3+9-LTS)}. */
    public String describe() {
        String built = revision.map(id -> "revision " + id.substring(0, Math.min(SHORT_REVISION, id.length()))
                        + (dirty ? " with uncommitted changes" : ""))
                .orElse("revision unknown: built outside a git checkout");
        return "dwd " + version + " (" + built + ", Java " + javaVersion + ")";
    }
}
