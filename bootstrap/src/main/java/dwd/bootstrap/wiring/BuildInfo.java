package dwd.bootstrap.wiring;

/** What was built: the product version and the Java runtime it runs on. */
public record BuildInfo(String version, String javaVersion) {

    /** One line for {@code dwd version}. */
    public String describe() {
        return "dwd " + version + " (Java " + javaVersion + ")";
    }
}
