package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.Optional;

/**
 * One endpoint of an EndpointSlice.
 *
 * @param ready {@code conditions.ready}; empty when unset, which the API says to read as ready
 */
public record Endpoint(Optional<Boolean> ready) {

    public Endpoint {
        ready = NullSafe.optional(ready);
    }

    /** Ready unless explicitly marked not ready. */
    public boolean isReady() {
        return ready.orElse(true);
    }
}
