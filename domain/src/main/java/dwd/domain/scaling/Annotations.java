package dwd.domain.scaling;

/** The annotations dwd reads and writes on scaled resources, the same keys and meanings as the original. */
public final class Annotations {

    /** {@code spec.replicas} before a scale-down, restored by the next scale-up. */
    public static final String REPLICAS = "dependency-watchdog.gardener.cloud/replicas";

    /** Present (empty value) while dwd holds a resource scaled down; Gardener then leaves its replicas alone. */
    public static final String MELTDOWN_PROTECTION_ACTIVE = "dependency-watchdog.gardener.cloud/meltdown-protection-active";

    /** Set to a Go boolean true by an operator to keep dwd from scaling the resource at all. */
    public static final String IGNORE_SCALING = "dependency-watchdog.gardener.cloud/ignore-scaling";

    private Annotations() {
    }
}
