package dwd.domain.config;

/** One entry of {@code dependentResourceInfos} as written; {@code null} fields were absent. */
public record DependentResourceInfoDraft(ResourceRefDraft ref, Boolean optional, ScaleInfoDraft scaleUp, ScaleInfoDraft scaleDown) {
}
