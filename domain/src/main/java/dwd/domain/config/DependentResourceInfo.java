package dwd.domain.config;

import java.util.Objects;

/**
 * A resource the prober scales, and how.
 *
 * @param optional when {@code true}, a missing resource is skipped instead of failing its level
 */
public record DependentResourceInfo(ResourceRef ref, boolean optional, ScaleInfo scaleUp, ScaleInfo scaleDown) {

    public DependentResourceInfo {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(scaleUp, "scaleUp");
        Objects.requireNonNull(scaleDown, "scaleDown");
    }
}
