package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.time.Instant;
import java.util.Objects;

/**
 * A change the comparison saw and did not count as the original's: a dependent scaled by someone else (a
 * person's {@code kubectl scale}, gardenlet, an autoscaler), or a crash-looping pod deleted outside any
 * weeder window. Listed so that an operator sees what was left out, and why.
 *
 * @param namespace the shoot namespace
 * @param target    the dependent's or the pod's name
 * @param change    what changed, e.g. {@code replicas 3→2}
 * @param writer    who wrote it, as far as known, e.g. {@code kubectl}
 * @param at        when dwd saw it
 */
public record OtherChange(String namespace, String target, String change, String writer, Instant at) {

    public OtherChange {
        namespace = NullSafe.text(namespace);
        target = NullSafe.text(target);
        change = NullSafe.text(change);
        writer = NullSafe.text(writer);
        Objects.requireNonNull(at, "at");
    }
}
