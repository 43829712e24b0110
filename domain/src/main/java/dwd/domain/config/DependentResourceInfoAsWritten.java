package dwd.domain.config;

/** One entry of {@code dependentResourceInfos} as written; {@code null} fields were absent. */
public record DependentResourceInfoAsWritten(ResourceRefAsWritten ref, Boolean optional, ScaleInfoAsWritten scaleUp, ScaleInfoAsWritten scaleDown) {
}
