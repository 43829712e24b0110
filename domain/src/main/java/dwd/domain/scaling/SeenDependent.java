package dwd.domain.scaling;

import java.util.Map;

/** A dependent as seen at one moment (a read, or a cache's copy): what a scale step decides on. */
public interface SeenDependent {

    /** Its annotations; dwd's record and an operator's hands-off are among them. */
    Map<String, String> annotations();

    /** Its {@code spec.replicas}, the replicas of its scale subresource. */
    int specReplicas();
}
