package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.Optional;

/**
 * The current state of one container of a pod, as far as crash-loop detection needs it.
 *
 * @param name          the container name
 * @param waitingReason {@code state.waiting.reason}; empty when the container is not waiting or gives no reason
 */
public record ContainerState(String name, Optional<String> waitingReason) {

    public ContainerState {
        name = NullSafe.text(name);
        waitingReason = NullSafe.optional(waitingReason);
    }
}
