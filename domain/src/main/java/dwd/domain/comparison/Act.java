package dwd.domain.comparison;

import dwd.domain.internal.NullSafe;
import dwd.domain.time.SaturatingTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One action of one side in an episode: a dependent scaled, or a pod deleted.
 *
 * @param target        what it acted on, the key pairing the two sides: the dependent's name, or the pod's UID
 * @param label         how an operator names it: the dependent's name, or the pod's name
 * @param from          replicas before (a pod: 0, as {@code to}: a deletion has no counts)
 * @param to            replicas after (a pod: 0)
 * @param at            when: dwd's would-be write, or the original's write as dwd saw it
 * @param why           what made the side act, as far as it is known (dwd's verdict; how the write was attributed)
 * @param reconstructed the action happened before dwd started and was read back from the seed's objects
 * @param sequence      the order of the side's actions, which their times may not tell: the original's writes by
 *                      their resourceVersion (the order the API server stored them, whatever order watches of
 *                      different objects delivered them in), dwd's by its monotonic clock
 */
public record Act(String target, String label, int from, int to, Instant at, String why, boolean reconstructed,
                  long sequence) {

    public Act {
        target = NullSafe.text(target);
        label = NullSafe.text(label);
        Objects.requireNonNull(at, "at");
        why = NullSafe.text(why);
    }

    /** An action ordered by its time. */
    public Act(String target, String label, int from, int to, Instant at, String why, boolean reconstructed) {
        this(target, label, from, to, at, why, reconstructed, SaturatingTime.nanos(Duration.between(Instant.EPOCH, at)));
    }
}
