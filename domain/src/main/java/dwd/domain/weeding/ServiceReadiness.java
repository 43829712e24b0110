package dwd.domain.weeding;

import dwd.domain.internal.NullSafe;
import java.util.Collection;

/**
 * Readiness of a service across all of its EndpointSlices: the event that starts a weeder.
 *
 * <p>The original judges each slice alone and calls it ready only when every endpoint is explicitly ready, so an
 * empty slice counts as ready and an unset condition as not ready. Here a service is ready when at least one of
 * its endpoints, in any slice, can serve; an unset condition counts as ready and no endpoints at all as not ready.
 */
public final class ServiceReadiness {

    private ServiceReadiness() {
    }

    /** {@code true} when at least one endpoint across the service's slices is ready; {@code false} without endpoints. */
    public static boolean isReady(Collection<EndpointSliceState> slicesOfOneService) {
        for (EndpointSliceState slice : NullSafe.list(slicesOfOneService)) {
            for (Endpoint endpoint : slice.endpoints()) {
                if (endpoint.isReady()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code true} only on the transition from not ready to ready, which is when dependent pods are weeded. */
    public static boolean becameReady(boolean wasReady, boolean isReady) {
        return !wasReady && isReady;
    }
}
