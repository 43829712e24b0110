package dwd.adapters.k8s.leader;

/** The original's lock names (Leases in {@code --leader-election-namespace}), kept so a mixed rollout never has two leaders. */
public final class LockNames {

    public static final String PROBER = "dwd-prober-leader-election";
    public static final String WEEDER = "dwd-weeder-leader-election";

    private LockNames() {
    }
}
