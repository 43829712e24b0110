package dwd.domain.config;

/** A {@code ref} as written (an autoscaling/v1 CrossVersionObjectReference); {@code null} fields were absent. */
public record ResourceRefAsWritten(String apiVersion, String kind, String name) {
}
