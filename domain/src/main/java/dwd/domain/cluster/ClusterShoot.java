package dwd.domain.cluster;

import dwd.domain.internal.NullSafe;
import java.util.Objects;

/** What a {@code Cluster} object holds in {@code spec.shoot}: a shoot, nothing, or something that is not a shoot. */
public sealed interface ClusterShoot {

    /** A shoot that decoded. */
    record Present(Shoot shoot) implements ClusterShoot {
        public Present {
            Objects.requireNonNull(shoot, "shoot");
        }
    }

    /** {@code spec.shoot} is absent. */
    record Missing() implements ClusterShoot {
    }

    /**
     * {@code spec.shoot} is present but cannot be read as a shoot.
     *
     * @param reason why decoding failed, for the log
     */
    record Undecodable(String reason) implements ClusterShoot {
        public Undecodable {
            reason = NullSafe.text(reason);
        }
    }
}
