package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A decided episode: one meltdown or one recovery of one shoot, or one service's return to ready in one
 * shoot namespace, with what each side did and how the two compare.
 *
 * @param namespace     the shoot namespace
 * @param kind          meltdown, recovery or weeding
 * @param subject       the service of a weeding episode; {@code ""} for the prober's episodes
 * @param openedAt      when its first action was seen
 * @param decidedAt     when it was decided
 * @param dwd           dwd's would-be actions, first per target, in time order
 * @param original      the original's actions, first per target, in time order
 * @param judgement     the outcome, the reason and dwd's lead
 * @param reconstructed an action of it happened before dwd started and was read back from the seed: its lead
 *                      says when dwd started, not how fast it was
 */
public record Episode(String namespace, EpisodeKind kind, String subject, Instant openedAt, Instant decidedAt,
                      List<Act> dwd, List<Act> original, Judgement judgement, boolean reconstructed) {

    public Episode {
        namespace = NullSafe.text(namespace);
        Objects.requireNonNull(kind, "kind");
        subject = NullSafe.text(subject);
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(decidedAt, "decidedAt");
        dwd = NullSafe.list(dwd);
        original = NullSafe.list(original);
        Objects.requireNonNull(judgement, "judgement");
    }

    public Outcome outcome() {
        return judgement.outcome();
    }
}
